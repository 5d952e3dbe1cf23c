/**
 * The embedded memory database on the same versioned migrations as a fleet's PostgreSQL
 * (domain/memory/store/memory-schema.ts), with one History and one Idempotency implementation for
 * both: a file written by an older version opens with nothing lost, history is numbered by the
 * database (whichever handle writes it), and idempotency keys are claimed as in a fleet.
 */
import * as path from 'node:path';
import Database from 'libsql';
import { Kysely, SqliteDialect } from 'kysely';
import { IdempotencyKeys } from '../../../domain/memory/idempotency-keys';
import { MemoryHistory } from '../../../domain/memory/memory-history';
import { closeMemoryDb, openMemoryDb } from '../../../domain/memory/store/memory-db';
import type { MemoryTables } from '../../../domain/memory/store/memory-schema';
import { forgetSqliteFile, openSqliteFile } from '../../../domain/metadata-store/sqlite-file';
import { LEGACY_MEMORY_DDL } from '../../fixtures/legacy-memory-db';
import { newTestDataDir } from '../../harness/platform-gateway';

const fileOf = (dataDir: string) => path.join(dataDir, 'memory', 'memory.db');

describe('embedded memory database', () => {
  it('opens a file of an older version: history keeps its order, old keys still replay', async () => {
    const dataDir = newTestDataDir();
    const legacy = openSqliteFile(fileOf(dataDir), LEGACY_MEMORY_DDL);
    const insert = legacy.prepare(
      'INSERT INTO memory_history (id, memory_id, event, old_memory, new_memory, created_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    // Numbered by the old process counter, inserted out of order.
    insert.run('h2', 'm1', 'UPDATE', 'likes tea', 'likes green tea', '2026-11-02T00:00:00.000Z', 2);
    insert.run('h1', 'm1', 'ADD', null, 'likes tea', '2026-11-01T00:00:00.000Z', 1);
    const key = 'user-1\u0000add-42';
    legacy
      .prepare('INSERT INTO memory_idempotency (key, result_json, created_at) VALUES (?, ?, ?)')
      .run(key, JSON.stringify({ results: [{ id: 'm1' }] }), '2026-11-01T00:00:00.000Z');
    legacy.close();
    forgetSqliteFile(fileOf(dataDir));

    const { db } = await openMemoryDb(dataDir);
    const history = new MemoryHistory(db);
    await history.record('m1', 'DELETE', 'likes green tea', null, '2026-11-03T00:00:00.000Z');
    expect((await history.of('m1')).map((h) => [h.id, h.event])).toEqual([
      ['h1', 'ADD'],
      ['h2', 'UPDATE'],
      [expect.any(String), 'DELETE'],
    ]);
    let ran = 0;
    const again = await new IdempotencyKeys(db, 'sqlite').once(key, async () => ++ran);
    expect([again, ran]).toEqual([{ result: { results: [{ id: 'm1' }] }, replay: true }, 0]);
    await closeMemoryDb(dataDir);
  });

  it('keeps every key of an older file, across the migration’s pages', async () => {
    const dataDir = newTestDataDir();
    const legacy = openSqliteFile(fileOf(dataDir), LEGACY_MEMORY_DDL);
    const insert = legacy.prepare(
      'INSERT INTO memory_idempotency (key, result_json, created_at) VALUES (?, ?, ?)',
    );
    for (let i = 0; i < 1234; i++)
      insert.run(`user-${i}\u0000add`, JSON.stringify({ n: i }), '2026-11-01T00:00:00.000Z');
    legacy.close();
    forgetSqliteFile(fileOf(dataDir));
    const { db } = await openMemoryDb(dataDir);
    const keys = new IdempotencyKeys(db, 'sqlite');
    for (const i of [0, 499, 500, 1233])
      expect(await keys.once(`user-${i}\u0000add`, async () => 'ran')).toEqual({
        result: { n: i },
        replay: true,
      });
    expect(
      await db
        .selectFrom('memory_idempotency')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst(),
    ).toEqual({
      n: 1234,
    });
    await closeMemoryDb(dataDir);
  });

  it('numbers history in the database, so two handles on one file never collide', async () => {
    const dataDir = newTestDataDir();
    const { db } = await openMemoryDb(dataDir);
    // A second connection to the same file, as another process of the host would open it.
    const other = new Kysely<MemoryTables>({
      dialect: new SqliteDialect({ database: new Database(fileOf(dataDir)) }),
    });
    const [a, b] = [new MemoryHistory(db), new MemoryHistory(other)];
    for (let i = 0; i < 4; i++) await (i % 2 ? b : a).record('m2', 'UPDATE', `v${i}`, `v${i + 1}`, `t${i}`);
    expect((await a.of('m2')).map((h) => h.new_memory)).toEqual(['v1', 'v2', 'v3', 'v4']);
    await other.destroy();
    await closeMemoryDb(dataDir);
  });

  it('runs an add once per key: a retry meanwhile waits for it and answers its result', async () => {
    const dataDir = newTestDataDir();
    const { db } = await openMemoryDb(dataDir);
    const keys = new IdempotencyKeys(db, 'sqlite', { pollMs: 5 });
    let ran = 0;
    const slowAdd = async () => {
      ran++;
      await new Promise((r) => setTimeout(r, 100));
      return { id: `m-${ran}` };
    };
    const [first, retry] = await Promise.all([keys.once('k', slowAdd), keys.once('k', slowAdd)]);
    expect(ran).toBe(1);
    expect([first.replay, retry.replay].sort()).toEqual([false, true]);
    expect(retry.result).toEqual(first.result);
    // A failed add leaves nothing behind: the next try runs.
    await expect(keys.once('bad', () => Promise.reject(new Error('embedder down')))).rejects.toThrow(
      'embedder down',
    );
    expect(await keys.once('bad', async () => 'added')).toEqual({ result: 'added', replay: false });
    await closeMemoryDb(dataDir);
  });
});
