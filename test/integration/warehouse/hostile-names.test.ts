/**
 * Names are never paths: a real MariaDB source whose table and column names are paths, globs and
 * SQL (`../../escape`, `a/b`, `*`, `x'; DROP TABLE y; --`, a column `../c`) goes through data
 * integration whole (in one copy, in parts with key ranges, and reused by another project), every
 * file written stays inside the project's directory under its encoded name, and the rows are there.
 * The generated pipeline and dbt files, written with the CLI's checks, stay inside their folder too.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import { exploreSource } from '../../../domain/sources/source-explorer';
import { assembleOds, type OdsPartCopy } from '../../../domain/warehouse/ods-assembly';
import { planOdsParts } from '../../../domain/warehouse/ods-copy-plan';
import { estimatedRows } from '../../../domain/warehouse/ods-ingestion';
import { copyOdsPart } from '../../../domain/warehouse/ods-part-copy';
import { reuseOds } from '../../../domain/warehouse/ods-reuse';
import { keyRanges } from '../../../domain/warehouse/pk-ranges';
import { generatePipelineTemplates } from '../../../domain/pipeline/pipeline-templates';
import { outputFile } from '../../../gateway/cli/report-commands';
import type { Prd } from '../../../shared/prd-schema';
import { fileNameFor } from '../../../shared/safe-file-name';
import { quoteMysqlIdent as mq } from '../../../shared/sql-quoting';
import type { SourceSnapshot } from '../../../shared/source-schema';
import { newTestDataDir } from '../../harness/platform-gateway';
import { harnessSource, ingestFresh } from '../../harness/sakila';
import { connectMariaDb, duckRows as odsRows } from './ods-fixtures';

const DB = 'hostile_names';
const ORDER_LINES = 3000;

/**
 * Source tables, the ODS name each gets, and rows. The deep `..` would reach past the test's folder
 * (to /tmp): its file being found under its encoded name in the ODS folder says it did not.
 */
const TABLES = [
  { name: '../../escape', ods: 'ods_escape', rows: 3 },
  { name: '../../../../../../../../tmp/plat-escape', ods: 'ods_deep', rows: 2 },
  { name: 'a/b', ods: 'ods_slash', rows: 2 },
  { name: 'a_b', ods: 'ods_underscore', rows: 1 },
  { name: "x'; DROP TABLE y; --", ods: 'ods_injection', rows: 2 },
  { name: 'Order Lines', ods: 'ods_order_lines', rows: ORDER_LINES },
  { name: '*', ods: 'ods_star', rows: 1 },
  { name: '..', ods: 'ods_dots', rows: 1 },
  { name: 'y', ods: 'ods_y', rows: 1 },
];

function connect(database?: string): Promise<Connection> {
  return connectMariaDb({ database, multipleStatements: true });
}

async function createSource(): Promise<void> {
  const db = await connect();
  try {
    await db.query(`DROP DATABASE IF EXISTS ${DB}; CREATE DATABASE ${DB}; USE ${DB}`);
    for (const t of TABLES) {
      await db.query(
        `CREATE TABLE ${mq(t.name)} (id INT NOT NULL PRIMARY KEY, ${mq('../c')} VARCHAR(100), ${mq('"q"')} INT, ${mq('a`b')} VARCHAR(10))`,
      );
      await db.query(
        `INSERT INTO ${mq(t.name)} SELECT seq, CONCAT('row ', seq, ' of ', ?), seq * 10, 'bt' FROM seq_1_to_${t.rows}`,
        [t.name],
      );
    }
    await db.query(`ANALYZE TABLE ${TABLES.map((t) => mq(t.name)).join(', ')}`);
  } finally {
    await db.end();
  }
}

/**
 * A PRD whose ODS reads every source table under a name of our own. The rest is the offline
 * analyst's over plainly renamed tables: its own naming of these sources is not what this test is
 * about, and this test stops at data integration.
 */
function prdOf(snapshot: SourceSnapshot): Prd {
  const prd = buildOfflinePrd({
    ...snapshot,
    tables: snapshot.tables.map((t, i) => ({ ...t, name: `t${i}` })),
  });
  const ods = TABLES.map((t) => ({
    name: t.ods,
    description: `copy of ${t.name}`,
    source_tables: [t.name],
    grain: 'one row',
    fields: [{ name: 'id', type: 'INTEGER', description: '', source: '' }],
    partition_by: [],
  }));
  return { ...prd, layers: { ...prd.layers, ods } };
}

/** Every file and folder below `dir` (absolute paths). */
function everything(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f));
}

describe('a source whose names are paths and SQL', () => {
  let snapshot: SourceSnapshot;
  let prd: Prd;
  /** The test's own folder; the warehouse root two levels below it, so an escape lands in sight. */
  let sandbox: string;
  let warehouseRoot: string;

  beforeAll(async () => {
    await createSource();
    const db = await connect(DB);
    try {
      snapshot = await exploreSource(db, DB, { sampleRows: 0 });
    } finally {
      await db.end();
    }
    prd = prdOf(snapshot);
    sandbox = newTestDataDir();
    warehouseRoot = path.join(sandbox, 'data', 'warehouse');
  });

  /** Checks a project's ODS: files inside its folder under encoded names, rows as in the source. */
  async function expectOds(projectId: string, databaseFile: string) {
    const odsDir = path.join(warehouseRoot, projectId, 'ods');
    // Nothing outside the projects' folders: an escaped name would land in the warehouse root or above.
    const projects = /^proj-20261201-hostile\d$/;
    const stray = everything(sandbox).filter((file) => {
      if (file === warehouseRoot) return false;
      const inWarehouse = path.relative(warehouseRoot, file).split(path.sep);
      if (inWarehouse[0] !== '..') return !projects.test(inWarehouse[0]);
      return !(file.startsWith(path.join(sandbox, 'export')) || file === path.join(sandbox, 'data'));
    });
    expect(stray).toEqual([]);
    expect(
      fs
        .readdirSync(odsDir)
        .filter((f) => f.endsWith('.parquet'))
        .sort(),
    ).toEqual(TABLES.map((t) => `${fileNameFor(t.name)}.parquet`).sort());
    for (const t of TABLES) {
      const [row] = await odsRows(
        databaseFile,
        `SELECT COUNT(*) AS n, MAX("../c") AS c, SUM("""q""") AS q, MIN("a\`b") AS bt FROM ${t.ods}`,
      );
      expect(Number(row.n)).toBe(t.rows);
      expect(row.c).toBe(`row ${t.rows === ORDER_LINES ? 999 : t.rows} of ${t.name}`);
      expect(Number(row.q)).toBe((10 * t.rows * (t.rows + 1)) / 2);
      expect(row.bt).toBe('bt');
    }
  }

  it('copies it in one go, every file inside the project under its encoded name', async () => {
    const projectId = 'proj-20261201-hostile1';
    const result = await ingestFresh({ projectId, warehouseRoot, source: harnessSource(DB), snapshot, prd });
    expect(result.tables).toHaveLength(TABLES.length);
    for (const t of result.tables) expect(t.ods_rows).toBe(t.source_rows);
    expect(result.tables.find((t) => t.table === '../../escape')!.file).toBe(
      path.join(warehouseRoot, projectId, 'ods', '%2E%2E%2F%2E%2E%2Fescape.parquet'),
    );
    await expectOds(projectId, result.database_file);
    // The statement in a name stayed a name.
    const db = await connect(DB);
    try {
      const [rows] = await db.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM y');
      expect(Number(rows[0].n)).toBe(1);
    } finally {
      await db.end();
    }

    // Reused by another project: the same encoded files, copied inside that project.
    const reused = await reuseOds({
      warehouseRoot,
      fromProjectId: projectId,
      projectId: 'proj-20261201-hostile2',
      prd,
    });
    if (!('reused' in reused)) throw new Error(reused.unusable);
    await expectOds('proj-20261201-hostile2', reused.reused.database_file);
  });

  it('copies it in parts, a hostile table cut into key ranges, every file inside the project', async () => {
    const projectId = 'proj-20261201-hostile3';
    const db = await connect(DB);
    let plan: Awaited<ReturnType<typeof planOdsParts>>;
    try {
      plan = await planOdsParts(snapshot.tables, await estimatedRows(db), 1000, (t, n) =>
        keyRanges(db, t, n),
      );
    } finally {
      await db.end();
    }
    const ranges = plan.parts.filter((p) => p.kind === 'range');
    expect(ranges.length).toBeGreaterThan(1);
    expect(ranges.every((p) => p.table === 'Order Lines')).toBe(true);
    const copies: OdsPartCopy[] = [];
    for (const part of plan.parts) {
      const tables = await copyOdsPart({
        warehouseRoot,
        projectId,
        source: harnessSource(DB),
        schema: snapshot,
        part,
        done: [],
        onTable: () => {},
      });
      for (const t of tables)
        expect(t.file.startsWith(path.join(warehouseRoot, projectId, 'ods') + path.sep)).toBe(true);
      copies.push({ part, tables });
    }
    const assembled = await assembleOds({ warehouseRoot, projectId, prd, schema: snapshot, copies });
    expect(fs.existsSync(path.join(warehouseRoot, projectId, 'ods', 'parts'))).toBe(false);
    await expectOds(projectId, assembled.database_file);
  });

  it('exports pipeline and dbt files that name its tables by their encoding, written inside the chosen folder', async () => {
    const templates = await generatePipelineTemplates({
      projectId: 'proj-20261201-hostile1',
      prd,
      source: snapshot,
      layers: [],
    });
    const out = path.join(sandbox, 'export', 'out');
    for (const f of templates.files) {
      const target = outputFile(out, f.path);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, f.content);
    }
    for (const file of everything(path.join(sandbox, 'export')))
      expect(file === out || file.startsWith(out + path.sep)).toBe(true);
    const extracts = fs.readdirSync(path.join(out, 'sql', 'extract')).sort();
    expect(extracts).toEqual(TABLES.map((t) => `${fileNameFor(t.name)}.sql`).sort());
    const config = JSON.parse(fs.readFileSync(path.join(out, 'pipeline.json'), 'utf8')) as {
      tables: { source_table: string; file: string }[];
    };
    expect(config.tables.find((t) => t.source_table === 'a/b')?.file).toBe('a%2Fb');
    const sources = fs.readFileSync(path.join(out, 'dbt', 'models', 'sources.yml'), 'utf8');
    expect(sources).toContain("/%2E%2E%2F%2E%2E%2Fescape.parquet')");
    expect(sources).not.toContain('/../../escape.parquet');
  });
});
