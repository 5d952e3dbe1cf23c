/**
 * Keys by evidence in the values (docs/offline-analyst.md#keys-and-references-by-values): a column
 * whose values are set on every row and never repeat is a key whatever its name; a column whose
 * sampled values are all found in another table's key references it. Sources exported without
 * declared keys (flat files, spreadsheets, warehouses) are joined by what their data shows.
 */
import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { SourceColumn, SourceTable, ValueReference } from '../../shared/source-schema';
import { quoteMysqlIdent } from '../../shared/sql-quoting';

/** MySQL's integer types (`data_type`, without size). */
export const INTEGER = /^(tinyint|smallint|mediumint|int|integer|bigint)$/;
const TEXT = /^(char|varchar)$/;
/** Key columns are integers or short text. */
const keyType = (c: SourceColumn) =>
  INTEGER.test(c.data_type) || (TEXT.test(c.data_type) && !/\((\d{3,})\)/.test(c.type));
const sameKind = (a: SourceColumn, b: SourceColumn) =>
  (INTEGER.test(a.data_type) && INTEGER.test(b.data_type)) ||
  (TEXT.test(a.data_type) && TEXT.test(b.data_type));

/** How an identifier's name ends, in the languages the analyst reads (`id`, `key`, `code`, `no`, `nummer`…). */
const ID_LIKE = /(id|key|code|codigo|codice|no|nr|num|number|nummer|numero)$/;

/** Distinct sampled values of a column probed for inclusion, at most. */
const PROBE_VALUES = 40;
/** Inclusion probes a source gets, at most (the likeliest pairs first). */
const MAX_PROBES = 400;

/** The sampled values of each column, as the explorer read them. */
export type ColumnSamples = Map<string, unknown[]>;

/** `customer_id`, `CustomerID`, `customer.id` → `customerid`. */
const flat = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The columns of a table without a declared single-column primary key that are set on every row
 * and unique over the whole table (one scan), tried only where the sample shows no repeat.
 */
export async function uniqueColumns(
  db: Connection,
  table: SourceTable,
  samples: ColumnSamples,
): Promise<string[]> {
  // A table with a declared primary key has its key; only undeclared ones are looked for.
  if (table.row_count === 0 || table.primary_key.length > 0) return [];
  const candidates = table.columns.filter((c) => {
    const values = samples.get(c.name) ?? [];
    const set = values.filter((v) => v !== null && v !== undefined && v !== '');
    return (
      keyType(c) &&
      set.length === values.length &&
      set.length >= 2 &&
      new Set(set.map(String)).size === set.length
    );
  });
  if (!candidates.length) return [];
  const parts = candidates.flatMap((c, i) => [
    `COUNT(DISTINCT ${quoteMysqlIdent(c.name)}) AS d${i}`,
    `COUNT(${quoteMysqlIdent(c.name)}) AS n${i}`,
  ]);
  const [[row]] = await db.query<RowDataPacket[]>(
    `SELECT ${parts.join(', ')} FROM ${quoteMysqlIdent(table.name)}`,
  );
  return candidates
    .filter((_, i) => Number(row[`d${i}`]) === table.row_count && Number(row[`n${i}`]) === table.row_count)
    .map((c) => c.name);
}

/** A table's single-column keys: its declared primary key, or the unique columns its values show. */
const keysOf = (t: SourceTable): string[] =>
  t.primary_key.length === 1 ? t.primary_key : (t.unique_columns ?? []);

interface Probe {
  table: SourceTable;
  column: SourceColumn;
  target: SourceTable;
  key: SourceColumn;
  values: unknown[];
  /** The column is named like the key, or like the target table. */
  named: boolean;
}

/**
 * References that no foreign key declares, found by value inclusion: for each column that could
 * hold a key, its distinct sampled values looked up in each other table's key of the same kind. A
 * text column references a key holding nine in ten of its values; an integer column (small numbers
 * match any key by chance) only where its name also says so. A column named exactly like a key it
 * matches in part (a fifth or more: optional details) references it too.
 */
export async function valueReferences(
  db: Connection,
  tables: SourceTable[],
  samples: Map<string, ColumnSamples>,
): Promise<ValueReference[]> {
  const probes = probesOf(tables, samples);
  // Named pairs first, then text: the likeliest references are probed within the budget.
  probes.sort((a, b) => Number(b.named) - Number(a.named));
  const found: ValueReference[] = [];
  for (const p of probes.slice(0, MAX_PROBES)) {
    const [[row]] = await db.query<RowDataPacket[]>(
      `SELECT COUNT(DISTINCT ${quoteMysqlIdent(p.key.name)}) AS n FROM ${quoteMysqlIdent(p.target.name)} WHERE ${quoteMysqlIdent(p.key.name)} IN (?)`,
      [p.values],
    );
    const share = Number(row.n) / p.values.length;
    const exact = flat(p.column.name) === flat(p.key.name);
    if (share >= 0.9 || (exact && share >= 0.2))
      found.push({
        table: p.table.name,
        column: p.column.name,
        references_table: p.target.name,
        references_column: p.key.name,
        included: Math.round(share * 1000) / 1000,
        sampled: p.values.length,
        named: p.named,
      });
  }
  return bestPerColumn(found);
}

/** The pairs worth probing: each column that may hold another table's key values, with that key. */
function probesOf(tables: SourceTable[], samples: Map<string, ColumnSamples>): Probe[] {
  const declared = new Set(
    tables.flatMap((t) => t.foreign_keys.flatMap((fk) => fk.columns.map((c) => `${t.name}\u0000${c}`))),
  );
  const probes: Probe[] = [];
  for (const table of tables) {
    const own = new Set(keysOf(table));
    for (const column of table.columns) {
      if (!keyType(column) || own.has(column.name) || declared.has(`${table.name}\u0000${column.name}`))
        continue;
      const values = [
        ...new Set(
          (samples.get(table.name)?.get(column.name) ?? []).filter(
            (v) => v !== null && v !== undefined && v !== '',
          ),
        ),
      ].slice(0, PROBE_VALUES);
      if (values.length < 2) continue;
      for (const target of tables) {
        if (target === table || target.row_count === 0) continue;
        // A key with no index of its own is looked up by scanning: only when the names agree, on big tables.
        const indexed = target.primary_key.length === 1;
        if (
          !indexed &&
          target.row_count > 200_000 &&
          !flat(column.name).includes(flat(target.name).replace(/s$/, ''))
        )
          continue;
        for (const keyName of keysOf(target)) {
          const key = target.columns.find((c) => c.name === keyName);
          if (!key || !sameKind(column, key)) continue;
          const c = flat(column.name);
          const k = flat(key.name);
          const bare = ['id', 'key', 'code', 'no', 'nr', 'num'].includes(k);
          const stem = flat(target.name).replace(/(es|s)$/, '');
          // Named alike: the key's own name (`customer_id`, `salesRepEmployeeNumber`), or for a bare
          // `id` the target's name before it (`customer_id` → customers.id).
          const named =
            c === k ||
            (!bare && k.length >= 4 && c.endsWith(k)) ||
            (bare && stem.length >= 3 && c === `${stem}${k}`);
          // Small integers fall inside any key's range: an integer reference needs an identifier's
          // name on both sides (`customer_id`, `order_no`), not a measure's (`total_quantity`).
          if (INTEGER.test(column.data_type) && (!named || !ID_LIKE.test(k))) continue;
          probes.push({ table, column, target, key, values, named });
        }
      }
    }
  }
  return probes;
}

/** One target a column: named before unnamed, then the larger share, then the smaller table. */
function bestPerColumn(found: ValueReference[]): ValueReference[] {
  const best = new Map<string, ValueReference>();
  for (const r of found) {
    const k = `${r.table}\u0000${r.column}`;
    const was = best.get(k);
    const rank = (x: ValueReference) => [Number(x.named), x.included];
    if (!was || rank(r)[0] > rank(was)[0] || (rank(r)[0] === rank(was)[0] && rank(r)[1] > rank(was)[1]))
      best.set(k, r);
  }
  return [...best.values()];
}
