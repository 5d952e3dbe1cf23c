/** Source → ODS on Sakila: exact types, reconciled counts, queryable through the layer's DuckDB catalog. */
import { DuckDBInstance } from '@duckdb/node-api';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { OdsIngestionOptions, OdsIngestionResult } from '../../../domain/warehouse/ods-ingestion';
import { layerDatabaseName } from '../../../domain/warehouse/warehouse-layout';
import { ingestFresh, sakilaConnection, sakilaSnapshot } from '../../harness/sakila';
import { duckRows } from './ods-fixtures';

describe('ODS ingestion on Sakila', () => {
  let mysql: Connection;
  let result: OdsIngestionResult;
  const copiedOrder: string[] = [];

  beforeAll(async () => {
    mysql = await sakilaConnection();
    result = await ingestFresh({
      projectId: 'proj-20261122-odstest1',
      snapshot: await sakilaSnapshot(),
      onTable: (r) => copiedOrder.push(r.table),
    });
  });
  afterAll(async () => {
    await mysql?.end();
  });

  const odsQuery = (sql: string) => duckRows(result.database_file, sql);

  it('copies every table with equal source and ODS row counts', () => {
    expect(result.tables).toHaveLength(16);
    expect(copiedOrder).toHaveLength(16);
    for (const t of result.tables) expect(t.ods_rows).toBe(t.source_rows);
    expect(result.rows_copied).toBe(47_268);
    expect(result.database_file).toContain(layerDatabaseName('proj-20261122-odstest1', 'ods'));
  });

  it('keeps DECIMAL exact and types faithful', async () => {
    const [[source]] = await mysql.query<RowDataPacket[]>(
      'SELECT CAST(SUM(amount) AS CHAR) AS s, CAST(MAX(payment_date) AS CHAR) AS latest FROM payment',
    );
    const [ods] = await odsQuery(
      'SELECT CAST(SUM(amount) AS VARCHAR) AS s, CAST(MAX(payment_date) AS VARCHAR) AS latest, typeof(any_value(amount)) AS t FROM ods_payment',
    );
    expect(ods.s).toBe(source.s);
    expect(ods.t).toBe('DECIMAL(5,2)');
    expect(String(ods.latest)).toBe(source.latest);
    const [film] = await odsQuery(
      "SELECT rating, special_features, release_year, typeof(release_year) AS yt FROM ods_film WHERE title = 'ACADEMY DINOSAUR'",
    );
    expect(film).toMatchObject({
      rating: 'PG',
      special_features: 'Deleted Scenes,Behind the Scenes',
      release_year: 2006,
    });
    const [staff] = await odsQuery('SELECT octet_length(picture) AS bytes FROM ods_staff WHERE staff_id = 1');
    const [[srcStaff]] = await mysql.query<RowDataPacket[]>(
      'SELECT LENGTH(picture) AS bytes FROM staff WHERE staff_id = 1',
    );
    expect(Number(staff.bytes)).toBe(Number(srcStaff.bytes));
  });

  it('resumes without copying finished tables again', async () => {
    const again: string[] = [];
    const resumed = await ingestFresh({
      projectId: 'proj-20261122-odstest1',
      warehouseRoot: result.database_file.split('/proj-20261122-odstest1/')[0],
      snapshot: await sakilaSnapshot(),
      done: result.tables.filter((t) => t.table !== 'rental'),
      onTable: (r) => again.push(r.table),
    });
    expect(again).toEqual(['rental']);
    expect(resumed.rows_copied).toBe(47_268);
  });

  /** Sakila copied afresh into a warehouse of its own, with `opts` on top. */
  async function copySakila(projectId: string, opts: Partial<OdsIngestionOptions> = {}) {
    return ingestFresh({ projectId, snapshot: await sakilaSnapshot(), ...opts });
  }

  it('paced (PLAT_INGEST_MAX_ROWS_PER_SECOND): all readers together read no faster than the cap', async () => {
    const rowsPerSecond = 20_000;
    const began = performance.now();
    const paced = await copySakila('proj-20261127-odspaced', {
      parallel: 3,
      splitRows: 1000,
      maxRowsPerSecond: rowsPerSecond,
    });
    const seconds = (performance.now() - began) / 1000;
    expect(paced.rows_copied).toBe(47_268);
    for (const t of paced.tables) expect(t.ods_rows).toBe(t.source_rows);
    // A lower bound only (a busy machine is slower still): the pacer looks at the clock every 256 rows.
    expect(seconds).toBeGreaterThanOrEqual((47_268 - 256) / rowsPerSecond);
  });

  it('reads big tables as key ranges side by side, with the same rows as a single reader', async () => {
    const copy = (projectId: string, parallel: number) =>
      copySakila(projectId, { parallel, splitRows: 1000 });
    const split = await copy('proj-20261122-odssplit', 3);
    const single = await copy('proj-20261122-odssingle', 1);
    expect(split.readers).toBe(3);
    expect(single.readers).toBe(1);
    const readers = Object.fromEntries(split.tables.map((t) => [t.table, t.readers]));
    expect(readers).toMatchObject({ payment: 3, rental: 3, film_actor: 1 }); // film_actor: composite key

    const instance = await DuckDBInstance.create(':memory:');
    const conn = await instance.connect();
    try {
      await conn.run(`ATTACH '${split.database_file}' AS split (READ_ONLY)`);
      await conn.run(`ATTACH '${single.database_file}' AS single (READ_ONLY)`);
      for (const t of single.tables) {
        const view = `ods_${t.table}`;
        const [diff] = (
          await conn.runAndReadAll(
            `SELECT (SELECT COUNT(*) FROM (SELECT * FROM split.${view} EXCEPT ALL SELECT * FROM single.${view})) AS extra,
                    (SELECT COUNT(*) FROM (SELECT * FROM single.${view} EXCEPT ALL SELECT * FROM split.${view})) AS missing,
                    (SELECT COUNT(*) FROM split.${view}) AS n`,
          )
        ).getRowObjectsJS();
        expect([t.table, Number(diff.extra), Number(diff.missing), Number(diff.n)]).toEqual([
          t.table,
          0,
          0,
          t.source_rows,
        ]);
      }
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });
});
