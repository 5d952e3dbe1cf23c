/**
 * Whole numbers in a query string (`?limit=20`). The value must be decimal digits: `z.coerce.number()`
 * would also take `since=` (an empty string, as 0), blanks, `0x10` and `1e3`, none of which the
 * document's `integer` allows. The document still says `integer`, with its bounds and default.
 */
import { z } from 'zod';

/** What a query integer allows, and its value when the query does not give one. */
export interface QueryIntegerBounds {
  min: number;
  max?: number;
  fallback: number;
}

/** The JSON Schema each query integer is documented with (see `documentedQueryInteger`). */
const documented = new WeakMap<object, Record<string, unknown>>();

/** A query integer from `min` to `max` (default: the largest safe integer), `fallback` when absent. */
export function queryInteger({ min, max = Number.MAX_SAFE_INTEGER, fallback }: QueryIntegerBounds) {
  const schema = z
    .string()
    .regex(/^\d+$/, 'a whole number, in decimal digits')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .default(fallback);
  documented.set(schema, { type: 'integer', minimum: min, maximum: max, default: fallback });
  return schema;
}

/** The JSON Schema of `schema` if it is a query integer: for the OpenAPI document. */
export function documentedQueryInteger(schema: object): Record<string, unknown> | undefined {
  return documented.get(schema);
}
