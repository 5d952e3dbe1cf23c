/**
 * The refresh plan the analyst proposes (docs/offline-analyst.md#change-detection): for each table
 * the ODS copies, how a refresh finds what changed, decided by what the source declares and by the
 * order of its data, never by a column's name.
 */
import type { PrdRefresh } from '../../../shared/prd-refresh';
import type { Prd } from '../../../shared/prd-schema';
import type { KeyOrder, SourceColumn, SourceSnapshot, SourceTable } from '../../../shared/source-schema';
import { backwardShare } from '../../sources/key-order';

const ON_UPDATE = /\bon update current_timestamp\b/;
const AUTO_INCREMENT = /\bauto_increment\b/;
const TIMESTAMP_TYPES = /^(timestamp|datetime)$/;
/** The share of steps back in time a key's last rows may take and still be in order (a few keyed late). */
const MAX_BACKWARD_SHARE = 0.02;
/** Rows below which a scan of the table costs the source too little to be worth a word in the plan. */
export const SCAN_WORTH_SAYING_ROWS = 100_000;
/** Steps forward in time the last rows must take before their order says anything. */
const MIN_FORWARD_STEPS = 20;

/** One entry per source table in `tables` (those the ODS copies), in that order. */
export function refreshPlan(snapshot: SourceSnapshot, tables: string[]): PrdRefresh[] {
  const byName = new Map(snapshot.tables.map((t) => [t.name, t]));
  return [...new Set(tables)].flatMap((name) => {
    const table = byName.get(name);
    return table ? [tableRefresh(table)] : [];
  });
}

/** `prd` with the plan for the tables its ODS copies, unless its author gave one. */
export function withRefreshPlan(prd: Prd, snapshot: SourceSnapshot): Prd {
  if (prd.refresh.length) return prd;
  return {
    ...prd,
    refresh: refreshPlan(
      snapshot,
      prd.layers.ods.flatMap((t) => t.source_tables),
    ),
  };
}

function tableRefresh(table: SourceTable): PrdRefresh {
  const detected = updateTimestamp(table) ?? increasingKey(table);
  if (!detected)
    return { table: table.name, detect: 'full', deletes: 'reread', evidence: wholeTableEvidence(table) };
  const keys = table.primary_key.length ? table.primary_key : (table.unique_columns ?? []).slice(0, 1);
  const deletes = keys.length
    ? { deletes: 'key_set' as const, evidence: `deleted rows found by comparing keys (${keys.join(', ')})` }
    : { deletes: 'not_seen' as const, evidence: 'deleted rows are not seen: no key to compare' };
  return {
    table: table.name,
    ...detected,
    deletes: deletes.deletes,
    evidence: `${detected.evidence}; ${deletes.evidence}`,
  };
}

type Detected = Pick<PrdRefresh, 'detect' | 'column' | 'evidence'>;

/**
 * A timestamp the source itself sets whenever a row changes (declared ON UPDATE CURRENT_TIMESTAMP),
 * an indexed one first: the source then finds the changed rows without reading the table.
 */
function updateTimestamp(table: SourceTable): Detected | undefined {
  const kept = table.columns.filter(
    (c) => TIMESTAMP_TYPES.test(c.data_type) && ON_UPDATE.test(c.extra ?? ''),
  );
  const indexed = (c: SourceColumn) => table.indexed_columns?.includes(c.name);
  const column = kept.find(indexed) ?? kept[0];
  if (!column) return undefined;
  return {
    detect: 'updated_at',
    column: column.name,
    evidence: `${column.name} is set by the source whenever a row changes (ON UPDATE CURRENT_TIMESTAMP)${indexEvidence(table, column)}`,
  };
}

/**
 * What reading the changed rows costs the source: a range of an index, or (the column leading no
 * index) a scan of the whole table each refresh, which an index would spare.
 */
function indexEvidence(table: SourceTable, column: SourceColumn): string {
  if (!table.indexed_columns || table.row_count < SCAN_WORTH_SAYING_ROWS) return '';
  if (table.indexed_columns.includes(column.name))
    return `; ${column.name} leads an index, so the source finds the changed rows without reading the table`;
  return `; ${column.name} leads no index, so each refresh makes the source scan all ${table.row_count} rows to find the changed ones (an index on ${column.name} would spare that)`;
}

/** Whether the source declares the column a counter it hands out itself (AUTO_INCREMENT). */
export const declaredCounter = (column: SourceColumn): boolean => AUTO_INCREMENT.test(column.extra ?? '');

/** What the order of a key's last rows along a date shows, in words. */
export const keyOrderEvidence = (order: KeyOrder): string =>
  `the last ${order.rows} rows by ${order.key} follow ${order.along} in time ` +
  `(${order.forward} steps forward, ${order.backward} back)`;

/** A one-column integer key that new rows take in increasing order: declared, or shown by the data. */
function increasingKey(table: SourceTable): Detected | undefined {
  const key =
    table.primary_key.length === 1 ? table.columns.find((c) => c.name === table.primary_key[0]) : undefined;
  if (key && declaredCounter(key))
    return {
      detect: 'key',
      column: key.name,
      evidence: `${key.name} is AUTO_INCREMENT: new rows take higher keys (changes to rows already copied are not seen)`,
    };
  const order = table.key_order;
  if (!order || order.forward < MIN_FORWARD_STEPS || backwardShare(order) > MAX_BACKWARD_SHARE)
    return undefined;
  return {
    detect: 'key',
    column: order.key,
    evidence: `${keyOrderEvidence(order)}: new rows take higher keys (changes to rows already copied are not seen)`,
  };
}

function wholeTableEvidence(table: SourceTable): string {
  const order = table.key_order;
  const disorder =
    order && order.forward + order.backward > 0
      ? `; the last rows by ${order.key} go back in time along ${order.along} in ${order.backward} of ${order.forward + order.backward} steps`
      : '';
  return `${table.row_count} rows, and no column the source keeps current or a key that grows with time${disorder}: read whole`;
}
