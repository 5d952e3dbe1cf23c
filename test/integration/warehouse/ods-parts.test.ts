/**
 * Data integration in parts, on real MariaDB servers: a generated source planned into key-range
 * parts, a keyless table's part and a part of small tables; the parts copied side by side (as several
 * workers of one host take them), merged, and checked row for row. On a server with a binary log the
 * one-snapshot rule tells an unchanged source from one written between two parts.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RowDataPacket } from 'mysql2/promise';
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import { exploreSource } from '../../../domain/sources/source-explorer';
import { sourceConnector, type SourceConnector } from '../../../domain/sources/mysql-connection';
import { assembleOds, type OdsPartCopy } from '../../../domain/warehouse/ods-assembly';
import { planOdsParts, type OdsCopyPlan } from '../../../domain/warehouse/ods-copy-plan';
import { estimatedRows, readSourceSchema } from '../../../domain/warehouse/ods-ingestion';
import { copyOdsPart } from '../../../domain/warehouse/ods-part-copy';
import { snapshotVerdict } from '../../../domain/warehouse/ods-snapshot-verdict';
import { keyRanges } from '../../../domain/warehouse/pk-ranges';
import { layerDir } from '../../../domain/warehouse/warehouse-layout';
import { freePort } from '../../../shared/free-port';
import { startPrivateMariaDb, type MariaDbInstance } from '../../../scripts/lib/mariadb-instance';
import type { SourceSnapshot } from '../../../shared/source-schema';
import type { Prd } from '../../../shared/prd-schema';
import { harness } from '../../harness/harness-state';
import { newTestDataDir } from '../../harness/platform-gateway';
import { harnessSource } from '../../harness/sakila';
import { connectMariaDb, duckRows, type MariaDbServer } from './ods-fixtures';

const DB = 'ods_parts';
const EVENTS = 240_000;
const NOTES = 70_000;

async function createSource(server: MariaDbServer, events: number): Promise<void> {
  const db = await connectMariaDb({ multipleStatements: true }, server);
  try {
    await db.query(`DROP DATABASE IF EXISTS ${DB}; CREATE DATABASE ${DB}; USE ${DB};
      CREATE TABLE kinds (kind_id INT PRIMARY KEY, label VARCHAR(20) NOT NULL);
      CREATE TABLE cities (city_id INT PRIMARY KEY, name VARCHAR(40) NOT NULL);
      CREATE TABLE events (
        event_id BIGINT NOT NULL PRIMARY KEY, kind_id INT NOT NULL, city_id INT NOT NULL,
        amount DECIMAL(12,2) NOT NULL, happened_at DATETIME NOT NULL, note TEXT NULL,
        FOREIGN KEY (kind_id) REFERENCES kinds (kind_id), FOREIGN KEY (city_id) REFERENCES cities (city_id));
      CREATE TABLE notes (author VARCHAR(30) NOT NULL, body VARCHAR(200) NULL, written_at DATE NOT NULL);
      INSERT INTO kinds SELECT seq, CONCAT('kind ', seq) FROM seq_1_to_5;
      INSERT INTO cities SELECT seq, CONCAT('city ', seq) FROM seq_1_to_50;
      INSERT INTO events SELECT seq * 7, 1 + seq % 5, 1 + seq % 50, (seq % 1000) / 4,
        TIMESTAMP('2025-01-01') + INTERVAL (seq * 61) % 31536000 SECOND, IF(seq % 4 = 0, NULL, CONCAT('n', seq))
        FROM seq_1_to_${events};
      INSERT INTO notes SELECT CONCAT('a', seq % 97), IF(seq % 9 = 0, NULL, REPEAT('x', seq % 50)),
        DATE('2025-01-01') + INTERVAL seq % 365 DAY FROM seq_1_to_${NOTES};
      ANALYZE TABLE kinds, cities, events, notes;`);
  } finally {
    await db.end();
  }
}

/** The plan, the parts copied side by side, and the assembled ODS. */
async function copyInParts(
  source: SourceConnector,
  partRows: number,
  between?: (i: number) => Promise<void>,
) {
  const db = await source.connect();
  let schema: SourceSnapshot;
  let plan: OdsCopyPlan;
  try {
    schema = await exploreSource(db, DB, { sampleRows: 0, countRows: false });
    plan = await planOdsParts(schema.tables, await estimatedRows(db), partRows, (t, n) =>
      keyRanges(db, t, n),
    );
  } finally {
    await db.end();
  }
  const prd: Prd = buildOfflinePrd({ ...schema, tables: schema.tables.map((t) => ({ ...t, row_count: 1 })) });
  const warehouseRoot = newTestDataDir();
  const projectId = `proj-20261125-parts${Date.now().toString(36)}`;
  const copy = async (part: OdsCopyPlan['parts'][number]): Promise<OdsPartCopy> => ({
    part,
    tables: await copyOdsPart({
      warehouseRoot,
      projectId,
      source,
      schema,
      part,
      done: [],
      onTable: () => {},
    }),
  });
  let copies: OdsPartCopy[];
  if (between) {
    copies = [];
    for (const [i, part] of plan.parts.entries()) {
      copies.push(await copy(part));
      await between(i);
    }
  } else copies = await Promise.all(plan.parts.map(copy));
  const assemble = () => assembleOds({ warehouseRoot, projectId, prd, schema, copies });
  return { plan, copies, prd, assemble, warehouseRoot, projectId };
}

describe('data integration in parts (harness MariaDB, no binary log)', () => {
  let run: Awaited<ReturnType<typeof copyInParts>>;

  beforeAll(async () => {
    await createSource(harness().mariadb, EVENTS);
    run = await copyInParts(harnessSource(DB), 60_000);
  }, 300_000);

  it('plans key ranges for the big keyed table, a part of its own for the keyless one, and packs the small ones', () => {
    const ranges = run.plan.parts.filter((p) => p.kind === 'range');
    expect(ranges.map((p) => p.kind === 'range' && [p.table, p.index, p.of])).toEqual([
      ['events', 0, 4],
      ['events', 1, 4],
      ['events', 2, 4],
      ['events', 3, 4],
    ]);
    const whole = run.plan.parts.flatMap((p) => (p.kind === 'tables' ? [p.tables.sort()] : []));
    expect(whole).toEqual([['notes'], ['cities', 'kinds']]);
    expect(run.plan.parts.map((p) => p.id)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6']);
  });

  it('merges the ranges into one file per table with exactly the source rows, and leaves no part files', async () => {
    const result = await run.assemble();
    expect(Object.fromEntries(result.tables.map((t) => [t.table, [t.source_rows, t.ods_rows]]))).toEqual({
      kinds: [5, 5],
      cities: [50, 50],
      notes: [NOTES, NOTES],
      events: [EVENTS, EVENTS],
    });
    const ods = layerDir(run.warehouseRoot, run.projectId, 'ods');
    expect(fs.readdirSync(ods).sort()).toEqual(
      expect.arrayContaining(['cities.parquet', 'events.parquet', 'kinds.parquet', 'notes.parquet']),
    );
    expect(fs.existsSync(path.join(ods, 'parts'))).toBe(false);
    const [events] = await duckRows(
      result.database_file,
      'SELECT COUNT(*) AS n, COUNT(DISTINCT event_id) AS k, CAST(SUM(amount) AS VARCHAR) AS s, COUNT(note) AS notes FROM ods_events',
    );
    const db = await connectMariaDb({ database: DB });
    try {
      const [[src]] = await db.query<RowDataPacket[]>(
        'SELECT COUNT(*) AS n, CAST(SUM(amount) AS CHAR) AS s, COUNT(note) AS notes FROM events',
      );
      expect([Number(events.n), Number(events.k), events.s, Number(events.notes)]).toEqual([
        EVENTS,
        EVENTS,
        src.s,
        Number(src.notes),
      ]);
    } finally {
      await db.end();
    }
    // The schema the later stages read carries the counted rows.
    const schema = readSourceSchema(run.warehouseRoot, run.projectId);
    expect(schema.tables.find((t) => t.name === 'events')?.row_count).toBe(EVENTS);
  });

  it('assembles again after the merge (a retried last step) to the same result', async () => {
    const again = await run.assemble();
    expect(again.tables.find((t) => t.table === 'events')).toMatchObject({
      source_rows: EVENTS,
      ods_rows: EVENTS,
    });
  });

  it('says the copy is of unknown consistency: six snapshots and no binary log to compare', () => {
    expect(snapshotVerdict(run.copies.flatMap((c) => c.tables))).toEqual({
      consistency: 'unknown',
      snapshots: 6,
      positions: [],
    });
  });
});

describe('the one-snapshot rule on a server with a binary log', () => {
  let db: MariaDbInstance;
  const source = () =>
    sourceConnector({ host: db.host, port: db.port, database: DB, options: {} }, db.user, db.password);

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-binlog-'));
    db = await startPrivateMariaDb({
      dataDir: path.join(dir, 'data'),
      port: await freePort(),
      logFile: path.join(dir, 'mariadb.log'),
      binaryLog: true,
    });
    await createSource(db, 30_000);
  });
  afterAll(async () => {
    await db?.service.stop();
  });

  it('parts read while nothing is written share one write position: one point in time', async () => {
    const run = await copyInParts(source(), 10_000, async () => {});
    expect(run.plan.parts.length).toBeGreaterThan(2);
    const verdict = snapshotVerdict(run.copies.flatMap((c) => c.tables));
    expect(verdict).toMatchObject({ consistency: 'unchanged', snapshots: run.plan.parts.length });
    expect(verdict.positions).toHaveLength(1);
    expect(verdict.positions[0]).toMatch(/^binlog:mariadb-bin\.\d+:\d+$/);
  });

  it('a write committed between two parts makes the copy say so', async () => {
    const writer = await connectMariaDb({ database: DB }, db);
    try {
      const run = await copyInParts(source(), 10_000, async (i) => {
        if (i === 0) await writer.query("INSERT INTO kinds VALUES (6, 'late kind')");
      });
      expect(snapshotVerdict(run.copies.flatMap((c) => c.tables))).toMatchObject({
        consistency: 'changed',
        positions: [expect.stringMatching(/^binlog:/), expect.stringMatching(/^binlog:/)],
      });
      // Every part is still exact on its own.
      const result = await run.assemble();
      for (const t of result.tables) expect(t.ods_rows).toBe(t.source_rows);
    } finally {
      await writer.end();
    }
  });
});
