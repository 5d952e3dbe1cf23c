/**
 * Activities of the incremental load (generated template). Source rows are read as MySQL prints
 * them (exact DECIMAL, no time-zone shifts), staged as JSON lines, cast to the warehouse types by
 * DuckDB and written as one Parquet file per run and table; the ODS view keeps the latest version
 * of each primary key, so re-extracting the same rows never duplicates them.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { heartbeat } from '@temporalio/activity';
import mysql from 'mysql2';
import * as fs from 'node:fs';
import * as path from 'node:path';

interface TableManifest {
  source_table: string;
  /** The table's name as its files are named (encoded by plat: letters, digits, `_ - % ~`). */
  file: string;
  ods_table: string;
  watermark: string | null;
  primary_key: string[];
  columns: { name: string; type: string }[];
}

interface PipelineConfig {
  project_id: string;
  databases: Record<'ods' | 'dwd' | 'dws' | 'ads', string>;
  layers: string[];
  tables: TableManifest[];
}

export interface PipelineSettings {
  /** Where the warehouse files live. */
  warehouseDir: string;
  /** mysql://user@host:port/database (no password). */
  sourceUrl: string;
  sourcePassword: string;
  /** The directory holding pipeline.json and sql/ (default: this file's directory). */
  templateDir?: string;
}

const q = (id: string) => `"${id.replace(/"/g, '""')}"`;
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const EPOCH = '1970-01-01 00:00:00';

export function settingsFromEnv(): PipelineSettings {
  const need = (name: string) => {
    const v = process.env[name];
    if (!v) throw new Error(`${name} is not set`);
    return v;
  };
  return {
    warehouseDir: need('WAREHOUSE_DIR'),
    sourceUrl: need('SOURCE_MYSQL_URL'),
    sourcePassword: process.env.SOURCE_MYSQL_PASSWORD ?? '',
  };
}

/** What every activity reads: the settings, pipeline.json and where the project's files live. */
interface Pipeline {
  settings: PipelineSettings;
  dir: string;
  config: PipelineConfig;
  root: string;
  stateFile: string;
}

export function createActivities(settings: PipelineSettings) {
  const dir = settings.templateDir ?? __dirname;
  const config = JSON.parse(fs.readFileSync(path.join(dir, 'pipeline.json'), 'utf8')) as PipelineConfig;
  const root = path.join(settings.warehouseDir, config.project_id);
  const p: Pipeline = { settings, dir, config, root, stateFile: path.join(root, 'pipeline-state.json') };
  return {
    async listTables(): Promise<string[]> {
      return config.tables.map((t) => t.source_table);
    },
    /** New and changed rows since the stored watermark (all rows for tables without one) → one Parquet file. */
    extractTable: (table: string) => extractTable(p, table),
    /** ODS views over the Parquet parts, then every modeled layer rebuilt from sql/model/<layer>.sql. */
    rebuildModel: () => rebuildModel(p),
    /** Advances the watermarks, after extraction and modeling both succeeded. */
    async commitWatermarks(watermarks: Record<string, string | null>): Promise<void> {
      const state = readState(p);
      state.watermarks = { ...state.watermarks, ...watermarks };
      fs.mkdirSync(root, { recursive: true });
      fs.writeFileSync(`${p.stateFile}.tmp`, JSON.stringify(state, null, 2));
      fs.renameSync(`${p.stateFile}.tmp`, p.stateFile);
    },
  };
}

function readState(p: Pipeline): { watermarks: Record<string, string | null> } {
  return fs.existsSync(p.stateFile) ? JSON.parse(fs.readFileSync(p.stateFile, 'utf8')) : { watermarks: {} };
}

function manifest(p: Pipeline, table: string): TableManifest {
  const m = p.config.tables.find((t) => t.source_table === table);
  if (!m) throw new Error(`unknown table ${table}`);
  return m;
}

/** A table's folder (or file name stem): a source's table name is never used as a path. */
function fileOf(m: TableManifest): string {
  if (!/^[A-Za-z0-9_%~-]{1,120}$/.test(m.file ?? ''))
    throw new Error(`pipeline.json: table ${m.source_table} has no safe file name (${m.file})`);
  return m.file;
}

async function extractTable(
  p: Pipeline,
  table: string,
): Promise<{ table: string; rows: number; watermark: string | null }> {
  const m = manifest(p, table);
  const since = readState(p).watermarks[table] ?? EPOCH;
  const sql = fs.readFileSync(path.join(p.dir, 'sql', 'extract', `${fileOf(m)}.sql`), 'utf8');
  const tableDir = path.join(p.root, 'ods', fileOf(m));
  fs.mkdirSync(tableDir, { recursive: true });
  const stamp = `${Date.now()}`;
  const staged = path.join(tableDir, `.staged-${stamp}.jsonl`);
  const { rows, watermark } = await stageRows(p.settings, m, sql, since, staged);
  if (rows || !m.watermark) await writeParquetPart(m, staged, path.join(tableDir, `part-${stamp}.parquet`));
  fs.rmSync(staged, { force: true });
  return { table, rows, watermark };
}

/** The source rows of `sql` since `since`, as JSON lines of text in `staged`; the newest watermark seen. */
async function stageRows(
  settings: PipelineSettings,
  m: TableManifest,
  sql: string,
  since: string,
  staged: string,
): Promise<{ rows: number; watermark: string | null }> {
  const out = fs.createWriteStream(staged);
  const url = new URL(settings.sourceUrl);
  const conn = mysql.createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: settings.sourcePassword,
    database: url.pathname.slice(1),
  });
  let rows = 0;
  let watermark = m.watermark ? since : null;
  try {
    const stream = conn
      .query({
        sql,
        values: m.watermark ? [since] : [],
        typeCast: (field, next) => (/BLOB/.test(field.type) ? next() : field.string()),
      })
      .stream({ highWaterMark: 1000 });
    for await (const row of stream as AsyncIterable<Record<string, unknown>>) {
      const line: Record<string, string | null> = {};
      for (const c of m.columns) {
        const v = row[c.name];
        line[c.name] =
          v === null || v === undefined ? null : Buffer.isBuffer(v) ? v.toString('hex') : String(v);
      }
      if (m.watermark && line[m.watermark] && line[m.watermark]! > (watermark ?? ''))
        watermark = line[m.watermark];
      if (!out.write(`${JSON.stringify(line)}\n`))
        await new Promise<void>((r) => out.once('drain', () => r()));
      if (++rows % 50_000 === 0) heartbeat(rows);
    }
  } finally {
    await new Promise((r) => out.end(r));
    conn.end();
  }
  return { rows, watermark };
}

/** The staged rows cast to the warehouse types, as the Parquet part `file`. */
async function writeParquetPart(m: TableManifest, staged: string, file: string): Promise<void> {
  const binary = new Set(m.columns.filter((c) => c.type === 'BLOB').map((c) => c.name));
  await withDuck(':memory:', async (duck) => {
    const columns = m.columns.map((c) => `${lit(c.name)}: 'VARCHAR'`).join(', ');
    const casts = m.columns.map((c) => castExpr(c, binary.has(c.name))).join(', ');
    await duck.run(
      `COPY (SELECT ${casts} FROM read_json(${lit(staged)}, format = 'newline_delimited', columns = {${columns}})) TO ${lit(`${file}.tmp`)} (FORMAT parquet)`,
    );
    fs.renameSync(`${file}.tmp`, file);
    // A table without a watermark is reloaded whole: older parts go once the new one is in place.
    const tableDir = path.dirname(file);
    if (!m.watermark)
      for (const f of fs.readdirSync(tableDir))
        if (f.startsWith('part-') && f !== path.basename(file)) fs.rmSync(path.join(tableDir, f));
  });
}

async function rebuildModel(p: Pipeline): Promise<{ layer: string; tables: number }[]> {
  const file = (layer: keyof PipelineConfig['databases']) =>
    path.join(p.root, `${p.config.databases[layer]}.duckdb`);
  await withDuck(file('ods'), async (duck) => {
    for (const t of p.config.tables) {
      const parts = path.join(p.root, 'ods', fileOf(t), 'part-*.parquet');
      const latest =
        t.primary_key.length && t.watermark
          ? ` QUALIFY row_number() OVER (PARTITION BY ${t.primary_key.map(q).join(', ')} ORDER BY ${q(t.watermark)} DESC, filename DESC) = 1`
          : '';
      await duck.run(
        `CREATE OR REPLACE VIEW ${q(t.ods_table)} AS SELECT * EXCLUDE (filename) FROM read_parquet(${lit(parts)}, filename = true)${latest}`,
      );
    }
  });
  const built: { layer: string; tables: number }[] = [];
  await withDuck(':memory:', async (duck) => {
    for (const layer of ['ods', 'dwd', 'dws', 'ads'] as const)
      await duck.run(`ATTACH ${lit(file(layer))} AS ${p.config.databases[layer]}`);
    for (const layer of p.config.layers) {
      const script = fs.readFileSync(path.join(p.dir, 'sql', 'model', `${layer}.sql`), 'utf8');
      const statements = script
        .split(/;\s*\n/)
        .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
        .filter(Boolean);
      for (const s of statements) await duck.run(s);
      built.push({ layer, tables: statements.length });
    }
  });
  return built;
}

export type PipelineActivities = ReturnType<typeof createActivities>;

function castExpr(c: { name: string; type: string }, binary: boolean): string {
  const id = q(c.name);
  if (binary) return `unhex(${id}) AS ${id}`;
  if (c.type === 'VARCHAR') return id;
  if (c.type === 'BOOLEAN') return `(${id} <> '0') AS ${id}`;
  if (['DATE', 'TIMESTAMP'].includes(c.type))
    return `TRY_CAST(NULLIF(${id}, '0000-00-00 00:00:00') AS ${c.type}) AS ${id}`;
  return `CAST(${id} AS ${c.type}) AS ${id}`;
}

async function withDuck<T>(file: string, fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(file);
  const conn = await instance.connect();
  try {
    return await fn(conn);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
