/**
 * One modeled table rebuilt after a refresh, computing only what changed
 * (docs/refresh.md#only-affected-days): kept as it was when nothing it reads changed; otherwise,
 * when its lineage allows (partition-lineage.ts), only the days its inputs' changes touch are
 * computed again and written over those of its last build (insert-overwrite by day); else built
 * whole. The decision reads the table's SELECT and the changes, never its name.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { layerNames, type LayerName } from '../../../shared/prd-schema';
import { quoteIdent as q, quoteLiteral as lit } from '../../../shared/sql-quoting';
import {
  dayPredicate,
  NEW_CATALOG,
  viewSelect,
  type TableParts,
  selectSha,
  tableMeta,
  viewMeta,
  writeWholeTable,
  type TableMeta,
  type TableWrite,
} from '../layer-table-files';
import { syntaxNodes, type SyntaxNode } from '../sql-syntax-tree';
import type { DayRange, TableScope } from '../warehouse-engine';
import { daysOf } from '../../../shared/day-range';
import { layerDatabaseName } from '../warehouse-layout';
import { odsDeltaFile } from './ods-delta';
import { partitionDays, type InputChange } from './partition-days';
import { functionKinds } from './function-kinds';
import { partitionLineage, type TableRef } from './partition-lineage';

/** The project's layers by the names their catalogs are attached under. */
export class LayerNames {
  private readonly byName: Map<string, LayerName>;
  constructor(readonly projectId: string) {
    this.byName = new Map(layerNames.map((l) => [layerDatabaseName(projectId, l), l]));
  }
  layerOf(schema: string): LayerName | undefined {
    return this.byName.get(schema);
  }
}

export interface TableRefresh extends TableWrite {
  layer: LayerName;
  layers: LayerNames;
  /** What the rebuild did to the tables of the layers below (`layer.table`). */
  below: Record<string, TableScope>;
  /** A backfill's days, recomputed in every table rebuilt by day from the ODS. */
  force?: DayRange;
}

/** Writes one table of a layer being rebuilt after a refresh, and says how much was computed. */
export async function refreshTable(r: TableRefresh): Promise<TableScope> {
  const old = await lastBuild(r);
  const scope = old.meta ? await decide(r, old.meta) : { kind: 'whole' as const, reason: old.reason };
  if (scope.kind === 'whole') await writeWholeTable(r);
  else if (scope.kind === 'kept') await writeKept(r, old.meta!);
  else await writeDays(r, old.meta!, scope);
  return scope;
}

/** The table's entry in the layer's current catalog, when it was built by the same SELECT. */
async function lastBuild(r: TableRefresh): Promise<{ meta?: TableMeta; reason: string }> {
  const db = layerDatabaseName(r.layers.projectId, r.layer);
  const rows = (
    await r.conn.runAndReadAll(
      `SELECT sql, comment FROM duckdb_views() WHERE database_name = ${lit(db)} AND view_name = ${lit(r.spec.name)}
       UNION ALL SELECT sql, comment FROM duckdb_tables() WHERE database_name = ${lit(db)} AND table_name = ${lit(r.spec.name)}`,
    )
  ).getRowObjectsJS();
  if (!rows.length) return { reason: 'it was not built before' };
  const meta = viewMeta(rows[0].comment, String(rows[0].sql));
  if (meta.select_sha !== selectSha(r.spec.select)) return { reason: 'its last build ran another statement' };
  if (JSON.stringify(meta.partition_by) !== JSON.stringify(r.spec.partition_by))
    return { reason: 'its partitioning changed' };
  const inLayer = (file: string) => {
    const inside = path.relative(r.layerDir, file);
    return Boolean(inside) && !inside.startsWith('..') && !path.isAbsolute(inside) && fs.existsSync(file);
  };
  if (!inLayer(meta.location) || !(meta.parts?.files ?? []).every((f) => inLayer(f.file)))
    return { reason: 'its last build is not in its layer' };
  return { meta, reason: '' };
}

async function decide(r: TableRefresh, old: TableMeta): Promise<TableScope> {
  const whole = (reason: string): TableScope => ({ kind: 'whole', reason });
  const parsed = JSON.parse(
    String(
      (
        await r.conn.runAndReadAll(`SELECT json_serialize_sql(${lit(r.spec.select)}) AS t`)
      ).getRowObjectsJS()[0].t,
    ),
  ) as { error: boolean; statements?: { node: SyntaxNode }[] };
  if (parsed.error || parsed.statements?.length !== 1) return whole('its SELECT could not be read');
  const node = parsed.statements[0].node;
  const inputs = new Map<string, InputChange>();
  for (const n of syntaxNodes(node.from_table))
    if (n.type === 'BASE_TABLE') {
      const ref: TableRef = { schema: String(n.schema_name ?? ''), table: String(n.table_name) };
      inputs.set(`${ref.schema}.${ref.table}`, await inputChange(r, ref));
    }
  const changes = [...inputs.values()];
  const unchanged = changes.every((c) => c.kind === 'unchanged');
  // A backfill recomputes its days in the tables over the ODS even where nothing changed.
  const forced = r.force && r.layers.layerOf(String(baseOf(node)?.schema_name ?? '')) === 'ods';
  if (!forced && unchanged) return { kind: 'kept' };
  const unknown = [...inputs].find(([, c]) => c.kind === 'unknown');
  if (unknown) return whole(`${unknown[0]} changed in a way not known by day`);
  const dates = r.table.columns.filter((c) => c.type === 'DATE').map((c) => c.name);
  const candidates = [...r.spec.partition_by.filter((p) => dates.includes(p)), ...dates];
  const lineage = partitionLineage(node, [...new Set(candidates)], await functionKinds(r.conn));
  if (!lineage.scoped) return unchanged ? { kind: 'kept' } : whole(lineage.reason);
  if (
    r.spec.partition_by.length &&
    (r.spec.partition_by.length !== 1 || r.spec.partition_by[0] !== lineage.column)
  )
    return whole(`it is partitioned by other columns than ${lineage.column}`);
  const found = await partitionDays(r.conn, lineage, (ref) => inputs.get(`${ref.schema}.${ref.table}`)!);
  if ('reason' in found) return whole(found.reason);
  if (forced) found.days = [...new Set([...found.days, ...daysOf(r.force!)])].sort();
  if (!found.days.length && !found.null_day) return { kind: 'kept' };
  if (found.null_day && r.spec.partition_by.length) return whole('rows without a day changed');
  if (r.spec.partition_by.length && !dayFolders(old.location, lineage.column))
    return whole('its folders are not one a day');
  return { kind: 'days', column: lineage.column, days: found.days, null_day: found.null_day };
}

/** The first table of a SELECT's FROM clause (its base), when it reads one. */
function baseOf(node: SyntaxNode): SyntaxNode | undefined {
  let from = node.from_table as SyntaxNode | null;
  while (from?.type === 'JOIN') from = from.left as SyntaxNode;
  return from?.type === 'BASE_TABLE' ? from : undefined;
}

/** What changed in one table a SELECT reads: an ODS table's changed rows, a lower table's scope. */
async function inputChange(r: TableRefresh, ref: TableRef): Promise<InputChange> {
  const layer = r.layers.layerOf(ref.schema);
  if (layer === 'ods') {
    const [view] = (
      await r.conn.runAndReadAll(
        `SELECT sql FROM duckdb_views() WHERE database_name = ${lit(ref.schema)} AND view_name = ${lit(ref.table)}`,
      )
    ).getRowObjectsJS();
    if (!view) return { kind: 'unknown' };
    const delta = odsDeltaFile(viewMeta(undefined, String(view.sql)).location);
    if (!fs.existsSync(delta)) return { kind: 'unknown' };
    const [counted] = (
      await r.conn.runAndReadAll(`SELECT COUNT(*) AS n FROM read_parquet(${lit(delta)})`)
    ).getRowObjectsJS();
    return Number(counted.n) ? { kind: 'rows', file: delta } : { kind: 'unchanged' };
  }
  const scope = layer ? r.below[`${layer}.${ref.table}`] : undefined;
  if (!scope || scope.kind === 'whole') return { kind: 'unknown' };
  if (scope.kind === 'kept' || (!scope.days.length && !scope.null_day)) return { kind: 'unchanged' };
  return { kind: 'days', column: scope.column, days: scope.days, null_day: scope.null_day };
}

/** Whether a partitioned table's folder holds one folder a day of `column`, and nothing else. */
function dayFolders(location: string, column: string): boolean {
  return fs
    .readdirSync(location, { withFileTypes: true })
    .every((e) => e.isDirectory() && e.name.startsWith(`${column}=`));
}

/** The table as its last build left it: the same files, linked, and its catalog copy. */
async function writeKept(r: TableRefresh, old: TableMeta): Promise<void> {
  if (old.parts) {
    linkParts(r, old.parts.files, old.parts.column, (f) => f);
  } else if (!r.spec.partition_by.length) {
    linkOrCopy(old.location, r.out);
  } else {
    linkTree(old.location, r.out, () => true);
    await copyCatalogRows(r, 'TRUE');
  }
}

/** The days of `scope` computed again; every other row as its last build left it. */
async function writeDays(r: TableRefresh, old: TableMeta, scope: Extract<TableScope, { kind: 'days' }>) {
  const p = q(scope.column);
  const inDays = dayPredicate(scope.column, scope.days, scope.null_day);
  const fresh = `SELECT * FROM (${r.spec.select}) WHERE ${inDays}`;
  const kept = `NOT coalesce(${inDays}, false)`;
  if (!r.spec.partition_by.length) return writeDayPart(r, old, scope, fresh, kept);
  const days = new Set(scope.days.map((d) => `${scope.column}=${d}`));
  linkTree(old.location, r.out, (name) => !days.has(name));
  await r.conn.run(`CREATE OR REPLACE TEMP TABLE plat_staged AS ${fresh}`);
  try {
    const written = `${r.out}.days`;
    await r.conn.run(
      `COPY plat_staged TO ${lit(written)} (FORMAT parquet, COMPRESSION snappy, PARTITION_BY (${p}))`,
    );
    if (fs.existsSync(written)) {
      for (const day of fs.readdirSync(written))
        fs.renameSync(path.join(written, day), path.join(r.out, day));
      fs.rmSync(written, { recursive: true, force: true });
    }
    await copyCatalogRows(r, kept, 'plat_staged');
  } finally {
    await r.conn.run('DROP TABLE IF EXISTS plat_staged');
  }
}

/** Parts a table may have before they are written into one file again. */
const MAX_PARTS = 8;
/** Days its parts may leave out, all together, before they are written into one file again. */
const MAX_EXCLUDED_DAYS = 1000;

/**
 * A table of one file or of parts, refreshed by day without copying its untouched rows: its parts
 * linked, each now also without the recomputed days, and those days' rows as a new part. Past
 * `MAX_PARTS` parts or `MAX_EXCLUDED_DAYS` left-out days, written into one file again.
 */
async function writeDayPart(
  r: TableRefresh,
  old: TableMeta,
  scope: Extract<TableScope, { kind: 'days' }>,
  fresh: string,
  kept: string,
): Promise<void> {
  const before = old.parts
    ? old.parts.column === scope.column
      ? old.parts.files
      : undefined
    : [{ file: old.location, excluded: [], null_excluded: false }];
  const excluded = (before ?? []).reduce((n, f) => n + f.excluded.length, 0) + scope.days.length;
  if (!before || before.length >= MAX_PARTS || excluded > MAX_EXCLUDED_DAYS) {
    await r.conn.run(
      `COPY (${fresh} UNION ALL BY NAME SELECT * FROM (${viewSelect(old.location, old.parts)}) WHERE ${kept})
       TO ${lit(r.out)} (FORMAT parquet, COMPRESSION zstd)`,
    );
    return;
  }
  const files = linkParts(r, before, scope.column, (f) => ({
    file: f.file,
    excluded: [...new Set([...f.excluded, ...scope.days])].sort(),
    null_excluded: f.null_excluded || scope.null_day,
  }));
  const name = `part-${files.length}.parquet`;
  await r.conn.run(
    `COPY (${fresh}) TO ${lit(path.join(partsFolder(r.out), name))} (FORMAT parquet, COMPRESSION zstd)`,
  );
  // linkParts made the table's location its parts folder.
  files.push({ file: path.join(r.table.location, name), excluded: [], null_excluded: false });
}

/**
 * The parts `files` linked into the table's new parts folder, each as `change` says; the table's
 * location and parts set to them. Answers the new parts, to which more may be added.
 */
function linkParts(
  r: TableRefresh,
  files: TableParts['files'],
  column: string,
  change: (f: TableParts['files'][number]) => TableParts['files'][number],
): TableParts['files'] {
  const into = partsFolder(r.out);
  fs.mkdirSync(into);
  const linked = files.map((f, i) => {
    const name = `part-${i}.parquet`;
    linkOrCopy(f.file, path.join(into, name));
    return { ...change(f), file: path.join(partsFolder(r.table.location), name) };
  });
  r.table.location = partsFolder(r.table.location);
  r.parts = { column, files: linked };
  return linked;
}

/** A table's parts folder, named after the file it would otherwise be. */
const partsFolder = (file: string) => `${file.replace(/\.parquet$/, '')}.parts`;

/**
 * The table's catalog copy in the new catalog: its last build's rows where `keep` holds, and the
 * rows of `staged`, typed as before and sorted by the partition column, as a build writes it.
 */
async function copyCatalogRows(r: TableRefresh, keep: string, staged?: string): Promise<void> {
  const previous = `${layerDatabaseName(r.layers.projectId, r.layer)}.main.${q(r.spec.name)}`;
  const types = (await r.conn.runAndReadAll(`DESCRIBE ${previous}`))
    .getRowObjectsJS()
    .map(
      (c) => `CAST(${q(String(c.column_name))} AS ${String(c.column_type)}) AS ${q(String(c.column_name))}`,
    );
  const rows = `SELECT * FROM ${previous} WHERE ${keep}${staged ? ` UNION ALL BY NAME SELECT * FROM ${staged}` : ''}`;
  const table = `${NEW_CATALOG}.main.${q(r.spec.name)}`;
  await r.conn.run(
    `CREATE TABLE ${table} AS SELECT ${types.join(', ')} FROM (${rows}) ORDER BY ${r.spec.partition_by.map(q).join(', ')}`,
  );
  await r.conn.run(`COMMENT ON TABLE ${table} IS ${lit(tableMeta(r.table, r.spec.select))}`);
  const [counted] = (await r.conn.runAndReadAll(`SELECT COUNT(*) AS n FROM ${table}`)).getRowObjectsJS();
  r.table.row_count = Number(counted.n);
}

/** The entries of folder `from` that `keep` names, linked (files) into `to`, folders followed. */
function linkTree(from: string, to: string, keep: (name: string) => boolean): void {
  fs.mkdirSync(to, { recursive: true });
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    if (!keep(e.name)) continue;
    const source = path.join(from, e.name);
    if (e.isDirectory()) linkTree(source, path.join(to, e.name), () => true);
    else if (e.isFile()) linkOrCopy(source, path.join(to, e.name));
  }
}

/** A hard link (the data folders of one layer share a disk), or a copy where links are refused. */
function linkOrCopy(from: string, to: string): void {
  try {
    fs.linkSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
  }
}
