/**
 * The measures of one fact by column meaning: money summed (integer cents converted, text parsed),
 * revenue derived on lines as quantity × unit price (× (1 − discount)), the price being the row's
 * own, or the referenced product's list price (a line or a flat sale; never stock moving), or the
 * row's price alone when a row is one unit;
 * quantities, durations and sizes summed, unit prices and rates averaged. Keys, codes, line
 * numbers, years and flags never.
 */
import type { SourceColumn, SourceTable } from '../../../shared/source-schema';
import { isCents, mayGoBelowZero } from './column-meaning';
import { columnWords, identifier, singularWords, tableNoun } from './name-words';
import { FACT_ROLES, type TableAnalysis } from './table-roles';
import { columnReference } from '../../../shared/prd-sql/expression-sql';
import { isTextColumn, textMoneyExpression, textMoneyScale } from './text-money';

/** A per-row value the DWD computes and the DWS aggregates. */
export interface RowMeasure {
  /** The DWD column, e.g. `line_revenue`, `amount`, `quantity`. */
  name: string;
  /** The measure in words, snake case (`net_amount` of `o_netamount`): names its aggregates. */
  reading: string;
  /** Expression over qualified source columns. */
  source: string;
  type: string;
  meaning:
    | 'revenue'
    | 'money'
    | 'quantity'
    | 'duration'
    | 'size'
    | 'flow'
    | 'level'
    | 'unit_price'
    | 'discount_rate'
    | 'rate';
  /** Plain words for descriptions: "revenue (quantity × unit_price × (1 − discount))". */
  label: string;
  /** What the DWD value is derived from, for the PRD. */
  formula: string;
  /** A flow whose values go below 0 (a net change): summed, but no count. */
  signed?: boolean;
}

/** The decimal scale of a column type (`decimal(10,2)` → 2), 0 for integers. */
function scaleOf(column: SourceColumn): number {
  const m = /\(\d+,(\d+)\)/.exec(column.type);
  return m ? Number(m[1]) : ['float', 'double', 'real'].includes(column.data_type) ? 4 : 0;
}

/**
 * A money column in currency units: cents × 0.01 (exact DECIMAL arithmetic); text ('$1,234.50')
 * parsed into DECIMAL at the scale its values are written with.
 */
function moneyExpr(table: SourceTable, column: SourceColumn): string {
  if (isTextColumn(column)) return textMoneyExpression(table.name, column.name, moneyScale(table, column));
  const ref = columnReference(table.name, column.name);
  return isCents(column) ? `${ref} * 0.01` : ref;
}

/** A number column as a number: text ('12', '3,5') parsed as the money reading does, else as is. */
const numberOf = (table: SourceTable, column: SourceColumn): string =>
  isTextColumn(column)
    ? textMoneyExpression(table.name, column.name, textMoneyScale(table, column))
    : columnReference(table.name, column.name);

/** `unit_price_cents` → `unit_price`; `Total` → `total`; `x_netamount` → `net_amount`. */
function moneyName(table: SourceTable, column: SourceColumn): string {
  return identifier(
    columnWords(table, column.name)
      .filter((w) => w !== 'cents' && w !== 'cent' && w !== 'in')
      .join('_') || column.name,
  );
}

/** A column's words as a name (`l_qty` → `quantity`, `o_netamount` → `net_amount`), for aggregates. */
const readingOf = (table: SourceTable, column: SourceColumn): string =>
  identifier(columnWords(table, column.name).join('_') || column.name);

/**
 * Whether a discount column holds a percentage (0–100) rather than a fraction (0–1): by name, by
 * type (an integer cannot hold a fraction), then by the sampled values.
 */
function isPercent(table: TableAnalysis, column: SourceColumn): boolean {
  const words = columnWords(table.table, column.name);
  if (words.some((w) => ['pct', 'percent', 'percentage'].includes(w))) return true;
  if (/int$/.test(column.data_type)) return true;
  const values = table.table.sample_rows.map((r) => Number(r[column.name])).filter(Number.isFinite);
  return values.some((v) => v > 1);
}

/**
 * The decimals money in this column has in currency units: its declared scale (text: the most its
 * values are written with), cents as 2, at least 2.
 */
const moneyScale = (table: SourceTable, column: SourceColumn): number =>
  isTextColumn(column)
    ? textMoneyScale(table, column)
    : Math.min(Math.max(isCents(column) ? 2 : scaleOf(column), 2), 10);

/** The most decimals an exact product keeps (a float price's products are no more exact than this). */
const MAX_EXACT_SCALE = 12;
const DECIMAL = (scale: number) => `DECIMAL(38,${Math.min(Math.max(scale, 2), MAX_EXACT_SCALE)})`;

/** The columns of a fact with one meaning, in column order. */
const columnsMeaning = (fact: TableAnalysis, meaning: string): SourceColumn[] =>
  fact.table.columns.filter((c) => fact.meaning.get(c.name) === meaning);

/**
 * The quantity itself (`quantity`, `qty`) before one qualified by a later step (`qty_invoiced`,
 * `qty_sent`): an order line's value is what was ordered. A quantity set to 0 on every row (the
 * explorer's total is 0) counts nothing: it prices no row.
 */
function orderedQuantity(fact: TableAnalysis): SourceColumn | undefined {
  const { table } = fact;
  const quantities = columnsMeaning(fact, 'quantity').filter(
    (c) => !(table.row_count > 0 && table.sums?.[c.name] !== undefined && Number(table.sums[c.name]) === 0),
  );
  return quantities.find((c) => !columnWords(table, c.name).some((w) => LATER_STEPS.has(w))) ?? quantities[0];
}

/** A price column and the table holding it (the fact, or the product a line references). */
type PriceColumn = { holder: SourceTable; column: SourceColumn };

/** What a row's revenue multiplies: its quantity (none when a row is one unit), price and discount. */
interface Sale {
  quantity?: SourceColumn;
  price: PriceColumn;
  /** Set when the price is the list price of the row the sale references through `via`. */
  listed?: PriceColumn & { via: string };
  discount?: SourceColumn;
}

/** The `line_revenue` measure: quantity × price × (1 − discount) in exact decimals. */
function revenueMeasure(fact: TableAnalysis, { quantity, price, listed, discount }: Sale): RowMeasure {
  const t = fact.table.name;
  const q = quantity ? numberOf(fact.table, quantity) : undefined;
  const d = discount
    ? isPercent(fact, discount)
      ? `(1 - ${columnReference(t, discount.name)} * 0.01)`
      : `(1 - ${columnReference(t, discount.name)})`
    : undefined;
  const priceName = listed ? `${price.holder.name}.${price.column.name}` : price.column.name;
  const formula = [
    quantity?.name,
    priceName + (isCents(price.column) ? ' / 100' : ''),
    discount && `(1 − ${discount.name})`,
  ]
    .filter(Boolean)
    .join(' × ');
  // How the price reached the row: its own, the referenced product's list price, or one unit a row.
  const basis = listed
    ? `, the price of the ${tableNoun(listed.holder.name)} each ${t} row references through ${listed.via}`
    : quantity
      ? ''
      : `, one row being one unit (${t} has no quantity column)`;
  // The source's arithmetic in exact decimals: nothing is rounded before the sum, so the total
  // reconciles with the source's own SUM(quantity * price * (1 - discount)) to the cent.
  const scale = Math.min(
    (quantity ? (isTextColumn(quantity) ? textMoneyScale(fact.table, quantity) : scaleOf(quantity)) : 0) +
      moneyScale(price.holder, price.column) +
      (discount ? scaleOf(discount) + (isPercent(fact, discount) ? 2 : 0) : 0),
    MAX_EXACT_SCALE,
  );
  const label = listed ? 'list-price revenue' : 'revenue';
  return {
    name: 'line_revenue',
    reading: 'line_revenue',
    source: `CAST(${[q, moneyExpr(price.holder, price.column), d].filter(Boolean).join(' * ')} AS ${DECIMAL(scale)})`,
    type: DECIMAL(scale),
    meaning: 'revenue',
    label,
    formula: `${label} = ${formula}${basis}, in exact decimals (nothing rounded before the sum)`,
  };
}

/**
 * A money column: the DWD keeps it under its own name (it is the copied column; text money's copy
 * is renamed `<name>_text`); cents become a new column in currency units.
 */
function moneyMeasure(table: SourceTable, c: SourceColumn): RowMeasure {
  return {
    name: isCents(c) ? moneyName(table, c) : identifier(c.name),
    reading: moneyName(table, c),
    source: moneyExpr(table, c),
    type: DECIMAL(moneyScale(table, c)),
    meaning: 'money',
    label: moneyName(table, c).replace(/_/g, ' '),
    formula: `${moneyName(table, c)} = ${c.name}${isCents(c) ? ' / 100 (cents)' : isTextColumn(c) ? ' read from text as DECIMAL' : ''}`,
  };
}

/** The summed meanings besides money, each with the word its label ends in. */
const SUMMED = [
  ['quantity', 'units'],
  ['duration', 'time'],
  ['size', 'size'],
  ['flow', 'count'],
  ['level', 'level'],
] as const;

/** A quantity, duration, size, flow or level column, summed as is. */
function summedMeasure(
  table: SourceTable,
  c: SourceColumn,
  [meaning, label]: (typeof SUMMED)[number],
): RowMeasure {
  return {
    name: identifier(c.name),
    reading: readingOf(table, c),
    source: numberOf(table, c),
    type: isTextColumn(c)
      ? DECIMAL(textMoneyScale(table, c))
      : ['float', 'double', 'real', 'decimal'].includes(c.data_type)
        ? DECIMAL(scaleOf(c))
        : 'BIGINT',
    meaning,
    label: `${readingOf(table, c).replace(/_/g, ' ')} (${label})`,
    formula: `${identifier(c.name)} = ${c.name}`,
    ...(meaning === 'flow' && mayGoBelowZero(table, c) ? { signed: true } : {}),
  };
}

/** The averaged meanings. */
const AVERAGED = ['unit_price', 'discount_rate', 'rate'] as const;

/** A unit price, discount or rate column, averaged. */
function averagedMeasure(
  table: SourceTable,
  c: SourceColumn,
  meaning: (typeof AVERAGED)[number],
): RowMeasure {
  const reading = isCents(c) ? moneyName(table, c) : readingOf(table, c);
  return {
    name: isCents(c) ? moneyName(table, c) : identifier(c.name),
    reading,
    source: isCents(c) || isTextColumn(c) ? moneyExpr(table, c) : columnReference(table.name, c.name),
    // A price is money: kept at its scale (its average is rounded to it above DWD).
    type: meaning === 'unit_price' ? DECIMAL(moneyScale(table, c)) : 'DOUBLE',
    meaning,
    label: reading.replace(/_/g, ' '),
    formula: `averaged: ${c.name}`,
  };
}

/**
 * The per-row measures of a fact table. `byName` (every table analysed) lets a line without a price
 * of its own take the list price of the product it references.
 */
export function rowMeasures(fact: TableAnalysis, byName?: Map<string, TableAnalysis>): RowMeasure[] {
  const cols = (m: string) => columnsMeaning(fact, m);
  const quantity = orderedQuantity(fact);
  // Revenue is quantity × the selling price: a price column before a unit cost.
  const prices = cols('unit_price');
  const own = prices.find((c) => columnWords(fact.table, c.name).includes('price')) ?? prices[0];
  // A sale with a quantity but no price and no money of its own, a line of a dated header or a flat
  // event with its own date: the price of the product it references (list price). Stock levels
  // (snapshots) and movements are no sales.
  const listed =
    !own &&
    !cols('money').length &&
    quantity &&
    ['line', 'event'].includes(fact.role) &&
    byName &&
    !movesStock(fact, quantity, byName)
      ? referencedPrice(fact, byName)
      : undefined;
  const price = own ? { holder: fact.table, column: own } : listed;
  const discount = cols('discount_rate')[0];
  return [
    ...(price ? [revenueMeasure(fact, { quantity, price, listed, discount })] : []),
    ...cols('money').map((c) => moneyMeasure(fact.table, c)),
    ...SUMMED.flatMap((summed) => cols(summed[0]).map((c) => summedMeasure(fact.table, c, summed))),
    ...AVERAGED.flatMap((meaning) => cols(meaning).map((c) => averagedMeasure(fact.table, c, meaning))),
  ];
}

/** Words that qualify a quantity by a step after the order (`qty_invoiced`, `quantity_shipped`). */
const LATER_STEPS = new Set([
  'invoiced',
  'shipped',
  'sent',
  'delivered',
  'received',
  'recd',
  'returned',
  'done',
  'dispatched',
  'picked',
  'allocated',
  'backordered',
  'cancelled',
  'canceled',
  'reqd',
  'required',
]);

/** Words of a table, or of its date, that say stock moved, was counted or was received, not sold. */
const MOVEMENT_WORDS = new Set([
  'stock',
  'inventory',
  'move',
  'moved',
  'movement',
  'adjustment',
  'adjust',
  'adjusted',
  'transfer',
  'transferred',
  'received',
  'restock',
  'restocked',
  'replenishment',
  'shrinkage',
  'writeoff',
  'count',
  'counted',
]);
/** Words of a quantity that is a change of stock (`qty_change`, `quantity_on_hand`), not units sold. */
const STOCK_QUANTITY_WORDS = new Set(['change', 'delta', 'adjustment', 'hand', 'stock', 'moved', 'received']);

/**
 * Whether a fact records stock moving (`stock_moves`, `inventory_adjustments`, a transfer from one
 * store to another, lines of a `stock_transfers` header): by the words of its name, its header's,
 * its date and its quantity, and by a pair of keys from and to one table.
 */
function movesStock(
  fact: TableAnalysis,
  quantity: SourceColumn,
  byName: Map<string, TableAnalysis>,
): boolean {
  const t = fact.table;
  const header = fact.header ? byName.get(fact.header) : undefined;
  const words = [
    ...singularWords(t.name),
    ...(header ? singularWords(header.table.name) : []),
    ...(fact.ownDate ? columnWords(t, fact.ownDate.column) : []),
  ];
  if (words.some((w) => MOVEMENT_WORDS.has(w))) return true;
  if (columnWords(t, quantity.name).some((w) => STOCK_QUANTITY_WORDS.has(w))) return true;
  const keyWords = (r: TableAnalysis['references'][number]) =>
    r.columns.length === 1 ? columnWords(t, r.columns[0]) : [];
  return fact.references.some(
    (from) =>
      keyWords(from).some((w) => ['from', 'source', 'origin'].includes(w)) &&
      fact.references.some(
        (to) =>
          to.references_table === from.references_table &&
          keyWords(to).some((w) => ['to', 'destination', 'target'].includes(w)),
      ),
  );
}

/**
 * The selling price of the row a sale references through a declared single-column key (a product's
 * `list_price`): a column saying _price_ on a table that is no fact. Costs are not prices.
 */
function referencedPrice(
  fact: TableAnalysis,
  byName: Map<string, TableAnalysis>,
): { holder: SourceTable; column: SourceColumn; via: string } | undefined {
  for (const r of fact.references) {
    if (r.origin !== 'declared' || r.columns.length !== 1) continue;
    const target = byName.get(r.references_table);
    if (!target || FACT_ROLES.has(target.role)) continue;
    const prices = target.table.columns.filter(
      (c) =>
        target.meaning.get(c.name) === 'unit_price' &&
        columnWords(target.table, c.name).some((w) => ['price', 'msrp', 'fare'].includes(w)),
    );
    // A list price first: the catalogue's selling price.
    const column =
      prices.find((c) =>
        columnWords(target.table, c.name).some((w) => ['list', 'retail', 'msrp'].includes(w)),
      ) ?? prices[0];
    if (column) return { holder: target.table, column, via: `${fact.table.name}.${r.columns[0]}` };
  }
  return undefined;
}
