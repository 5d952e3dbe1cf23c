/**
 * The most a query's answer may weigh, on every host (docs/security.md#cost-limits): rows past
 * this much JSON are cut and the answer marked truncated, whether the gateway answers from its own
 * files or through the host that holds them (Temporal refuses payloads over 2 MB).
 */
import type { QueryRows } from './warehouse-engine';

/** Bytes of JSON an answer's rows may take. */
export const MAX_ANSWER_BYTES = 1_500_000;

/**
 * Bytes of JSON one statement of a session (metric checks, quality rules, the profile) may bring
 * back from its warehouse process: those read more rows than an answer, but no statement's rows may
 * weigh on the worker what a tenant's SQL makes them.
 */
export const MAX_SESSION_ANSWER_BYTES = 32_000_000;

/** `out` with as many rows as fit in {@link MAX_ANSWER_BYTES}. */
export function fitAnswer(out: QueryRows, maxBytes = MAX_ANSWER_BYTES): QueryRows {
  let bytes = Buffer.byteLength(JSON.stringify(out.columns));
  for (let i = 0; i < out.rows.length; i++) {
    bytes += Buffer.byteLength(JSON.stringify(out.rows[i])) + 1;
    if (bytes > maxBytes) return { ...out, rows: out.rows.slice(0, i), truncated: true };
  }
  return out;
}
