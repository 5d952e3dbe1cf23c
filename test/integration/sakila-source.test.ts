import type { Connection, RowDataPacket } from 'mysql2/promise';
import { sakilaConnection } from '../harness/sakila';

describe('private MariaDB with Sakila (harness)', () => {
  let db: Connection;
  beforeAll(async () => {
    db = await sakilaConnection();
  });
  afterAll(async () => {
    await db?.end();
  });

  it('serves the loaded sample over TCP with password auth', async () => {
    const [tables] = await db.query<RowDataPacket[]>(
      "SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = 'sakila' AND table_type = 'BASE TABLE'",
    );
    expect(tables[0].n).toBe(16);
    const [counts] = await db.query<RowDataPacket[]>(
      'SELECT (SELECT COUNT(*) FROM rental) AS rentals, (SELECT COUNT(*) FROM payment) AS payments, (SELECT COUNT(*) FROM film) AS films',
    );
    expect(counts[0]).toEqual({ rentals: 16044, payments: 16044, films: 1000 });
  });

  it('keeps the relations intact (a join across the rental fact)', async () => {
    const [rows] = await db.query<RowDataPacket[]>(
      `SELECT c.name AS category, COUNT(*) AS rentals
         FROM rental r JOIN inventory i USING (inventory_id) JOIN film_category fc USING (film_id)
         JOIN category c USING (category_id)
        GROUP BY c.name ORDER BY rentals DESC LIMIT 1`,
    );
    expect(rows[0]).toEqual({ category: 'Sports', rentals: 1179 });
  });
});
