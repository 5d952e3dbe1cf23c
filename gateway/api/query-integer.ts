/**
 * Whole numbers in a query string (`?limit=20`). The value must be decimal digits: `z.coerce.number()`
 * would also take `since=` (an empty string, as 0), blanks, `0x10` and `1e3`, none of which the
 * document's `integer` allows. The document still says `integer`, with its bounds and default.
 */
import { z } from 'zod';

/** The JSON Schema each query integer is documented with (see `documentedQueryInteger`). */
const documented = new WeakMap<object, Record<string, unknown>>();

/** A query integer from `min` to `max` (default: the largest safe integer), `fallback` when absent. */
export function queryInteger(min: number, max: number | undefined, fallback: number) {
  const value = z
    .number()
    .int()
    .min(min)
    .max(max ?? Number.MAX_SAFE_INTEGER);
  const schema = z
    .string()
    .regex(/^\d+$/, 'a whole number, in decimal digits')
    .transform(Number)
    .pipe(value)
    .default(fallback);
  documented.set(schema, {
    type: 'integer',
    minimum: min,
    maximum: max ?? Number.MAX_SAFE_INTEGER,
    default: fallback,
  });
  return schema;
}

/** The JSON Schema of `schema` if it is a query integer: for the OpenAPI document. */
export function documentedQueryInteger(schema: object): Record<string, unknown> | undefined {
  return documented.get(schema);
}
