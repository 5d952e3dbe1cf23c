/**
 * Which dbt models are incremental, and how each finds the days to recompute
 * (docs/dbt-export.md#incremental-models): the tables plat rebuilds by day (partition-lineage.ts,
 * read from the SELECT by DuckDB's parser) whose inputs dbt can follow — a base table that is an
 * ODS source (its rows in plat's change log) or an incremental model, and LEFT JOINs of ODS
 * sources. Each gets its days as one SQL query in dbt's terms: the model's own day expression run
 * over the change log's rows since the model last read it, over a lower model's recomputed days,
 * and over the rows joining a changed row of a joined table (the probes plat's refresh runs,
 * partition-days.ts), with a backfill's range added when asked.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Prd } from '../../../shared/prd-schema';
import { fileNameFor } from '../../../shared/safe-file-name';
import { quoteIdent as q, quoteLiteral as lit } from '../../../shared/sql-quoting';
import { openDuckDb } from '../../warehouse/duckdb-module';
import { functionKinds } from '../../warehouse/refresh/function-kinds';
import { LayerNames } from '../../warehouse/refresh/layer-refresh';
import {
  deserialize,
  probe,
  tableNode,
  withBase,
  withOldVersions,
} from '../../warehouse/refresh/partition-days';
import { partitionLineage } from '../../warehouse/refresh/partition-lineage';
import { sqlSyntaxTree, syntaxNodes, type SyntaxNode } from '../../warehouse/sql-syntax-tree';
import type { LayerTableSpec } from '../../warehouse/warehouse-engine';
import { CHANGED_AT } from '../../warehouse/refresh/change-log';
import { ODS_SOURCE, toDbtSql } from './dbt-models';
import { STATE_TABLES, type IncrementalModel } from './dbt-incremental-macros';

/** What dbt's Jinja would read as its own. */
const JINJA = /\{[{%#]/;

/** The name the base's changed rows are read through in a probe. */
const PROBE_ROWS = 'plat_probe_rows';

type LayerSpecs = { layer: string; tables: LayerTableSpec[] }[];

/** Every model that can be kept incremental, by name, in build order. */
export async function incrementalModels(
  projectId: string,
  prd: Prd,
  layers: LayerSpecs,
): Promise<Map<string, IncrementalModel>> {
  const instance = await openDuckDb(':memory:', { threads: '1', memory_limit: '64MB' });
  const conn = await instance.connect();
  try {
    await conn.run('SET enable_external_access = false');
    const kinds = await functionKinds(conn);
    const odsFiles = new Map(prd.layers.ods.map((t) => [t.name, fileNameFor(t.source_tables[0])]));
    const names = new LayerNames(projectId);
    const models = new Map<string, IncrementalModel>();
    for (const { layer, tables } of layers)
      for (const spec of tables) {
        const fields = prd.layers[layer as 'dwd']?.find((t) => t.name === spec.name)?.fields ?? [];
        const dates = fields.filter((f) => /^DATE$/i.test(f.type)).map((f) => f.name);
        const tree = await sqlSyntaxTree(spec.select);
        if (tree.error || tree.statements.length !== 1) continue;
        const node = tree.statements[0].node;
        const lineage = partitionLineage(
          node,
          [...new Set([...spec.partition_by.filter((p) => dates.includes(p)), ...dates])],
          kinds,
        );
        if (!lineage.scoped) continue;
        const days = await daysQuery(conn, {
          projectId,
          model: spec.name,
          lineage,
          inputOf: (schema, table) => {
            const l = names.layerOf(schema);
            if (l === 'ods' && odsFiles.has(table)) return { ods: table, file: odsFiles.get(table)! };
            const lower = l && l !== 'ods' ? models.get(table) : undefined;
            return lower ? { model: table, column: lower.column } : undefined;
          },
        });
        if (days) models.set(spec.name, { column: lineage.column, days });
      }
    return models;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

type Input = { ods: string; file: string } | { model: string; column: string } | undefined;
type Scoped = Extract<ReturnType<typeof partitionLineage>, { scoped: true }>;

/** The days query of one model, or undefined when an input is one dbt cannot follow by day. */
async function daysQuery(
  conn: DuckDBConnection,
  m: {
    projectId: string;
    model: string;
    lineage: Scoped;
    inputOf: (schema: string, table: string) => Input;
  },
): Promise<string | undefined> {
  const { lineage, model } = m;
  const day = { ...lineage.expression, alias: 'plat_day' };
  const joined = joinedWithLoggedVersions(m);
  if (!joined) return undefined;
  const { froms, ctes } = joined;
  const withCtes = (sql: string) => (ctes.length ? `WITH ${ctes.join(', ')} ${sql}` : sql);
  const base = m.inputOf(lineage.base.schema, lineage.base.table);
  if (!base) return undefined;
  let rows: string;
  if ('ods' in base) {
    rows = `SELECT * FROM ${changeRows(base)} AS plat_c WHERE ${inWindow(model, 'plat_c')}`;
  } else {
    const other = [...syntaxNodes(lineage.expression)].find(
      (n) => n.class === 'COLUMN_REF' && (n.column_names as string[]).at(-1) !== base.column,
    );
    if (other) return undefined;
    rows = `SELECT d AS ${q(base.column)} FROM ${STATE_TABLES.days} WHERE model = ${lit(base.model)}`;
  }
  const rowsNode = tableNode(PROBE_ROWS, lineage.base.alias);
  const parts: string[] = [];
  // The day of the base's rows alone, or through the tables it joins when the day is theirs.
  for (const from of lineage.dayJoins.length
    ? froms.map((f) => withBase(f, lineage.base.alias, rowsNode))
    : [rowsNode]) {
    const probed = await deserialize(conn, probe(lineage.node, [day], from));
    // Jinja delimiters in a source's names would be read as dbt's: such a model is built whole.
    if (JINJA.test(probed)) return undefined;
    const ctesHere = [`${PROBE_ROWS} AS (${rows})`, ...ctes].join(', ');
    parts.push(`SELECT plat_day FROM (WITH ${ctesHere} ${toDbtSql(m.projectId, probed)})`);
  }
  for (const join of lineage.joins) {
    const input = m.inputOf(join.table.schema, join.table.table);
    if (!input || !('ods' in input)) return undefined;
    const keys = join.on.map((o, i) => ({ ...o.from, alias: `plat_key_${i}` }));
    const match = join.on.map((o, i) => `j.${q(o.to)} = s.plat_key_${i}`).join(' AND ');
    for (const from of froms) {
      const inner = await deserialize(conn, probe(lineage.node, [day, ...keys], from));
      if (JINJA.test(inner)) return undefined;
      parts.push(
        `SELECT plat_day FROM (${withCtes(toDbtSql(m.projectId, inner))}) s WHERE EXISTS (SELECT 1 FROM ${changeRows(input)} AS j WHERE ${inWindow(model, 'j')} AND ${match})`,
      );
    }
  }
  // A backfill (`--vars '{plat_from: …, plat_to: …}'`) recomputes its days in the models over the ODS.
  if ('ods' in base)
    parts.push(
      `{% if var('plat_from', none) %}SELECT CAST(r AS DATE) AS plat_day FROM range({{ plat_day_literal(var('plat_from')) }}, {{ plat_day_literal(var('plat_to')) }} + INTERVAL 1 DAY, INTERVAL 1 DAY) AS t(r){% else %}SELECT NULL::DATE AS plat_day WHERE false{% endif %}`,
    );
  return parts.join('\nUNION\n');
}

/**
 * The FROM clauses a model's probes read: its own and, when its day is read from a joined table,
 * the same with each joined source read with the old versions the change log holds since the model
 * last read it (a CTE each), as plat's own probes read the refresh's pending changes
 * (partition-days.ts); undefined when a joined table is no ODS source.
 */
function joinedWithLoggedVersions(m: {
  model: string;
  lineage: Scoped;
  inputOf: (schema: string, table: string) => Input;
}): { froms: SyntaxNode[]; ctes: string[] } | undefined {
  const written = m.lineage.node.from_table as SyntaxNode;
  if (!m.lineage.dayJoins.length) return { froms: [written], ctes: [] };
  const ctes: string[] = [];
  const views = new Map<string, SyntaxNode>();
  for (const [i, join] of m.lineage.joins.entries()) {
    const input = m.inputOf(join.table.schema, join.table.table);
    if (!input || !('ods' in input)) return undefined;
    const name = `plat_join_${i}`;
    ctes.push(
      `${name} AS (SELECT * FROM {{ source('${ODS_SOURCE}', '${input.ods}') }} UNION ALL BY NAME SELECT * FROM ${changeRows(input)} AS j WHERE ${inWindow(m.model, 'j')})`,
    );
    views.set(join.alias, tableNode(name, join.alias));
  }
  return { froms: withOldVersions(written, views), ctes };
}

/** The change log of an ODS table, through the project's macro (an empty relation before the first refresh). */
const changeRows = (input: { ods: string; file: string }) =>
  `{{ plat_changes('${input.file}', source('${ODS_SOURCE}', '${input.ods}')) }}`;

/** A change-log row not yet taken in by `model`, up to the run's stamp. */
const inWindow = (model: string, alias: string) =>
  `${alias}.${CHANGED_AT} > coalesce((SELECT max(changed_through) FROM ${STATE_TABLES.state} WHERE model = ${lit(model)}), '-infinity'::TIMESTAMP)` +
  ` AND ${alias}.${CHANGED_AT} <= (SELECT through FROM ${STATE_TABLES.window})`;
