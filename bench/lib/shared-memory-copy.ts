/**
 * The shared mode of the memory benchmarks (docs/fleet.md#memory): a private PostgreSQL under
 * `.data/bench/postgres/` holding a copy of a filled embedded data directory's memories, so both
 * modes answer the same queries over the same rows. The copy is made once per filled directory
 * (its manifest is remembered in the database) and reused by later runs.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openSharedMemoryDb } from '../../domain/memory/fleet/shared-memory-db';
import { openMemoryDb } from '../../domain/memory/store/memory-db';
import { MEMORY_COLUMNS, type MemoryRow } from '../../domain/memory/store/memory-row';
import { freePort } from '../../shared/free-port';
import { startPrivatePostgres } from '../../scripts/lib/postgres-instance';
import { BENCH_DATA } from './memory-fill';

export interface SharedCopy {
  url: string;
  /** PLAT_SECRET_KEY for the service's configuration (the memory service seals nothing with it). */
  secretKey: string;
  build_seconds: number;
  stop(): Promise<void>;
}

const COPY_PAGE = 1000;

type Row = MemoryRow & { vector: ArrayBuffer };

/** A PostgreSQL database holding the memories of `filledDir` (an embedded bench data directory). */
export async function sharedCopy(filledDir: string): Promise<SharedCopy> {
  const pg = await startPrivatePostgres({
    dataDir: path.join(BENCH_DATA, 'postgres'),
    port: await freePort(),
    logFile: path.join(BENCH_DATA, 'postgres.log'),
  });
  const name = `bench_${path.basename(filledDir).replace(/[^a-z0-9]+/gi, '_')}`;
  const url = await pg.ensureDatabase(name);
  const { db, metadata } = await openSharedMemoryDb(url);
  const manifest = fs.readFileSync(path.join(filledDir, 'bench-manifest.json'), 'utf8');
  const started = performance.now();
  const have = await db
    .selectFrom('memory_idempotency')
    .select('result_json')
    .where('key', '=', 'bench-manifest')
    .executeTakeFirst();
  let built = 0;
  if (have?.result_json !== manifest) {
    console.log(`copying ${path.relative(BENCH_DATA, filledDir)} into PostgreSQL database ${name}…`);
    await db.deleteFrom('memories').execute();
    await db.deleteFrom('memory_changes').execute();
    await db.deleteFrom('memory_idempotency').execute();
    const source = (await openMemoryDb(filledDir)).file;
    const page = source.prepare(
      `SELECT ${MEMORY_COLUMNS.join(', ')}, vector FROM memories WHERE id > ? ORDER BY id LIMIT ?`,
    );
    let after = '';
    for (;;) {
      const rows = page.all(after, COPY_PAGE) as Row[];
      if (!rows.length) break;
      await db
        .insertInto('memories')
        .values(rows.map((r) => ({ ...r, vector: Buffer.from(r.vector) })))
        .execute();
      after = rows[rows.length - 1].id;
    }
    await db
      .insertInto('memory_idempotency')
      .values({ key: 'bench-manifest', result_json: manifest, created_at: new Date().toISOString() })
      .execute();
    built = (performance.now() - started) / 1000;
  }
  await metadata.close();
  return {
    url,
    secretKey: randomBytes(32).toString('base64'),
    build_seconds: built,
    stop: () => pg.service.stop(),
  };
}
