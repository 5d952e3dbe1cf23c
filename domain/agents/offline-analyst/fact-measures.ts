/**
 * The measures of one fact by column meaning: money summed (integer cents converted), revenue
 * derived on lines as quantity × unit price (× (1 − discount)), quantities, durations and sizes
 * summed, unit prices and rates averaged. Keys, codes, line numbers, years and flags never.
 */
import type { SourceColumn } from '../../../shared/source-schema';
import { isCents } from './column-meaning';
import { identifier, nameWords } from './name-words';
import type { TableAnalysis } from './table-roles';

/** A per-row value the DWD computes and the DWS aggregates. */
export interface RowMeasure {
  /** The DWD column, e.g. `line_revenue`, `amount`, `quantity`. */
  name: string;
  /** Expression over qualified source columns. */
  source: string;
  type: string;
  meaning: 'revenue' | 'money' | 'quantity' | 'duration' | 'size' | 'unit_price' | 'discount_rate' | 'rate';
  /** Plain words for descriptions: "revenue (quantity × unit_price × (1 − discount))". */
  label: string;
  /** What the DWD value is derived from, for the PRD. */
  formula: string;
}

/** The decimal scale of a column type (`decimal(10,2)` → 2), 0 for integers. */
function scaleOf(column: SourceColumn): number {
  const m = /\(\d+,(\d+)\)/.exec(column.type);
  return m ? Number(m[1]) : ['float', 'double', 'real'].includes(column.data_type) ? 4 : 0;
}

/** A money column in currency units: cents × 0.01 (exact DECIMAL arithmetic). */
function moneyExpr(table: string, column: SourceColumn): string {
  const ref = `${table}.${column.name}`;
  return isCents(column) ? `${ref} * 0.01` : ref;
}

/** `unit_price_cents` → `unit_price`; `Total` → `total`. */
function moneyName(column: SourceColumn): string {
  return identifier(
    nameWords(column.name)
      .filter((w) => w !== 'cents' && w !== 'cent' && w !== 'in')
      .join('_') || column.name,
  );
}

/**
 * Whether a discount column holds a percentage (0–100) rather than a fraction (0–1): by name, by
 * type (an integer cannot hold a fraction), then by the sampled values.
 */
function isPercent(table: TableAnalysis, column: SourceColumn): boolean {
  const words = nameWords(column.name);
  if (words.some((w) => ['pct', 'percent', 'percentage'].includes(w))) return true;
  if (/int$/.test(column.data_type)) return true;
  const values = table.table.sample_rows.map((r) => Number(r[column.name])).filter(Number.isFinite);
  return values.some((v) => v > 1);
}

const DECIMAL = (scale: number) => `DECIMAL(38,${Math.min(Math.max(scale, 2), 10)})`;

/** The per-row measures of a fact table. */
export function rowMeasures(fact: TableAnalysis): RowMeasure[] {
  const t = fact.table.name;
  const cols = (m: string) => fact.table.columns.filter((c) => fact.meaning.get(c.name) === m);
  const out: RowMeasure[] = [];
  const quantity = cols('quantity')[0];
  const price = cols('unit_price')[0];
  const discount = cols('discount_rate')[0];
  if (price) {
    const q = quantity ? `${t}.${quantity.name}` : undefined;
    const d = discount
      ? isPercent(fact, discount)
        ? `(1 - ${t}.${discount.name} * 0.01)`
        : `(1 - ${t}.${discount.name})`
      : undefined;
    const formula = [
      quantity?.name,
      price.name + (isCents(price) ? ' / 100' : ''),
      discount && `(1 − ${discount.name})`,
    ]
      .filter(Boolean)
      .join(' × ');
    out.push({
      name: 'line_revenue',
      source: [q, moneyExpr(t, price), d].filter(Boolean).join(' * '),
      type: DECIMAL(scaleOf(price) + (discount ? scaleOf(discount) + 2 : 0) + (isCents(price) ? 2 : 0)),
      meaning: 'revenue',
      label: 'revenue',
      formula: `revenue = ${formula}`,
    });
  }
  for (const c of cols('money')) {
    out.push({
      name: moneyName(c),
      source: moneyExpr(t, c),
      type: DECIMAL(scaleOf(c) + (isCents(c) ? 2 : 0)),
      meaning: 'money',
      label: moneyName(c).replace(/_/g, ' '),
      formula: `${moneyName(c)} = ${c.name}${isCents(c) ? ' / 100 (cents)' : ''}`,
    });
  }
  for (const [meaning, label] of [
    ['quantity', 'units'],
    ['duration', 'time'],
    ['size', 'size'],
  ] as const) {
    for (const c of cols(meaning)) {
      out.push({
        name: identifier(c.name),
        source: `${t}.${c.name}`,
        type: ['float', 'double', 'real', 'decimal'].includes(c.data_type) ? DECIMAL(scaleOf(c)) : 'BIGINT',
        meaning,
        label: `${identifier(c.name).replace(/_/g, ' ')} (${label})`,
        formula: `${identifier(c.name)} = ${c.name}`,
      });
    }
  }
  for (const meaning of ['unit_price', 'discount_rate', 'rate'] as const) {
    for (const c of cols(meaning)) {
      out.push({
        name: isCents(c) ? moneyName(c) : identifier(c.name),
        source: isCents(c) ? moneyExpr(t, c) : `${t}.${c.name}`,
        type: 'DOUBLE',
        meaning,
        label: (isCents(c) ? moneyName(c) : identifier(c.name)).replace(/_/g, ' '),
        formula: `averaged: ${c.name}`,
      });
    }
  }
  return out;
}
