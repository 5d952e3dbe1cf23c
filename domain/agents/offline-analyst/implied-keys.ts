/**
 * Foreign keys a schema implies without declaring them: a column named like another table's
 * single-column primary key (`orders.customerNumber` → `customers.customerNumber`), or like the
 * table plus `id` when that table's key is a bare `id` (`orders.customer_id` → `customer.id`), of a
 * compatible type. Declared keys always win; a column is given at most one inferred target.
 */
import type { PrdRelationship } from '../../../shared/prd-schema';
import type { SourceColumn, SourceSnapshot, SourceTable } from '../../../shared/source-schema';
import { columnWords, nameWords, normalizedColumn, normalizedName, singular } from './name-words';
import { INTEGER } from '../../sources/value-keys';

const TEXT = /^(char|varchar)$/;

/** MySQL types that can hold the same key values (INT vs BIGINT yes, INT vs VARCHAR no). */
function compatible(a: SourceColumn, b: SourceColumn): boolean {
  if (INTEGER.test(a.data_type) && INTEGER.test(b.data_type)) return true;
  if (TEXT.test(a.data_type) && TEXT.test(b.data_type)) return true;
  return a.data_type === b.data_type;
}

/** `customers`, `Customer`, `tbl_customer` → `customer`. */
function tableStem(table: string): string {
  const words = nameWords(table).filter((w) => !['tbl', 'tb', 't', 'dim', 'fact'].includes(w));
  return words.map(singular).join('');
}

/** Every relationship the warehouse may join on: the declared foreign keys, then the inferred ones. */
export function relationshipsOf(snapshot: SourceSnapshot): PrdRelationship[] {
  const declared: PrdRelationship[] = snapshot.tables.flatMap((t) =>
    t.foreign_keys.map((fk) => ({
      table: t.name,
      columns: fk.columns,
      references_table: fk.references_table,
      references_columns: fk.references_columns,
      origin: 'declared' as const,
      evidence: 'declared foreign key',
    })),
  );
  const byPkName = new Map<string, SourceTable[]>();
  const byStem = new Map<string, SourceTable>();
  for (const t of snapshot.tables) {
    if (t.primary_key.length !== 1) continue;
    // A key is known by its full name and without its table's prefix (`cat_id`, and `l_orderkey` as `orderkey`).
    for (const pk of new Set([normalizedName(t.primary_key[0]), normalizedColumn(t, t.primary_key[0])])) {
      byPkName.set(pk, [...(byPkName.get(pk) ?? []), t]);
      if (pk === 'id') byStem.set(tableStem(t.name), t);
    }
  }
  const inferred: PrdRelationship[] = [];
  for (const t of snapshot.tables) {
    const covered = new Set(t.foreign_keys.flatMap((fk) => fk.columns));
    for (const column of t.columns) {
      // A table's own single-column key names itself, not a reference (1:1 extensions stay unlinked).
      if (covered.has(column.name) || (t.primary_key.length === 1 && t.primary_key[0] === column.name))
        continue;
      const target = impliedTarget(t, column, byPkName, byStem);
      if (!target) continue;
      const pk = target.columns.find((c) => c.name === target.primary_key[0])!;
      if (!compatible(column, pk)) continue;
      inferred.push({
        table: t.name,
        columns: [column.name],
        references_table: target.name,
        references_columns: [pk.name],
        origin: 'inferred',
        evidence: `${t.name}.${column.name} is named like ${target.name}'s primary key ${pk.name} (${column.type} → ${pk.type}); not declared`,
      });
    }
  }
  // A composite key named column for column (`order_no` + `trans_type` of `sales_orders`): the
  // strongest name evidence there is; it replaces a single-column guess on those columns.
  const composite = compositeReferences(snapshot, declared);
  const covered = new Set(composite.flatMap((r) => r.columns.map((c) => `${r.table}\u0000${c}`)));
  inferred.splice(
    0,
    inferred.length,
    ...inferred.filter((r) => !covered.has(`${r.table}\u0000${r.columns[0]}`)),
    ...composite,
  );
  // References the values show (sampled values found in another table's key), where neither a
  // declared key nor a name already says where the column points.
  const named = new Set(
    [...declared, ...inferred].flatMap((r) => r.columns.map((c) => `${r.table}\u0000${c}`)),
  );
  const shown: PrdRelationship[] = (snapshot.value_references ?? [])
    .filter((v) => !named.has(`${v.table}\u0000${v.column}`))
    .map((v) => ({
      table: v.table,
      columns: [v.column],
      references_table: v.references_table,
      references_columns: [v.references_column],
      origin: 'inferred' as const,
      evidence: `${Math.round(100 * v.included)}% of ${v.sampled} distinct sampled values of ${v.table}.${v.column} are found in ${v.references_table}.${v.references_column}, ${
        snapshot.tables.find((t) => t.name === v.references_table)?.primary_key.length === 1
          ? 'its primary key'
          : 'which is set on every row and never repeats'
      }${v.named ? ', and the names agree' : ''}; not declared`,
    }));
  return [...declared, ...inferred, ...shown];
}

/**
 * References to a composite primary key that a table holds every column of, by name and compatible
 * type (`sales_order_details.order_no, trans_type` → `sales_orders`); undeclared.
 */
function compositeReferences(snapshot: SourceSnapshot, declared: PrdRelationship[]): PrdRelationship[] {
  const out: PrdRelationship[] = [];
  const declaredCols = new Set(declared.flatMap((r) => r.columns.map((c) => `${r.table}\u0000${c}`)));
  for (const target of snapshot.tables.filter((t) => t.primary_key.length >= 2)) {
    const keyColumns = target.primary_key.map((k) => target.columns.find((c) => c.name === k)!);
    // A key with a date in it names a version valid from that day (a price list), not an entity.
    if (keyColumns.some((k) => /^(date|datetime|timestamp)$/.test(k.data_type))) continue;
    for (const t of snapshot.tables) {
      if (t === target) continue;
      const held = keyColumns.map((k) =>
        t.columns.find(
          (c) => normalizedColumn(t, c.name) === normalizedColumn(target, k.name) && compatible(c, k),
        ),
      );
      if (held.some((c) => !c) || held.some((c) => declaredCols.has(`${t.name}\u0000${c!.name}`))) continue;
      // Its own key is the same columns: a 1:1 extension or a sibling, not a reference.
      if (t.primary_key.length === held.length && held.every((c) => t.primary_key.includes(c!.name)))
        continue;
      out.push({
        table: t.name,
        columns: held.map((c) => c!.name),
        references_table: target.name,
        references_columns: keyColumns.map((k) => k.name),
        origin: 'inferred',
        evidence: `${t.name} holds every column of ${target.name}'s key (${keyColumns.map((k) => k.name).join(', ')}) under the same names; not declared`,
      });
    }
  }
  return out;
}

function impliedTarget(
  table: SourceTable,
  column: SourceColumn,
  byPkName: Map<string, SourceTable[]>,
  byStem: Map<string, SourceTable>,
): SourceTable | undefined {
  const names = [...new Set([normalizedName(column.name), normalizedColumn(table, column.name)])];
  // The table's own single key (customers.customerNumber) is not a reference to itself.
  for (const name of names) {
    const sameName = (byPkName.get(name) ?? []).filter((t) => t.name !== table.name);
    if (sameName.length === 1 && name !== 'id') return sameName[0];
  }
  const name = names[names.length - 1];
  // A role prefix before another table's key: salesRepEmployeeNumber → employees.employeeNumber.
  const suffixed = [...byPkName].filter(
    ([pk, tables]) =>
      pk.length >= 6 && pk !== 'id' && name.endsWith(pk) && name !== pk && tables.length === 1,
  );
  if (suffixed.length === 1 && suffixed[0][1][0].name !== table.name) return suffixed[0][1][0];
  const words = columnWords(table, column.name);
  if (words.length >= 2 && words[words.length - 1] === 'id') {
    const target = byStem.get(words.slice(0, -1).map(singular).join(''));
    if (target && target.name !== table.name) return target;
  }
  return undefined;
}

/** The relationships as a lookup: table → its N:1 references. */
export function referencesByTable(relationships: PrdRelationship[]): Map<string, PrdRelationship[]> {
  const map = new Map<string, PrdRelationship[]>();
  for (const r of relationships) map.set(r.table, [...(map.get(r.table) ?? []), r]);
  return map;
}
