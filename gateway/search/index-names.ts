/**
 * Index, alias and pattern names as OpenSearch accepts them in a path, checked before a request is
 * sent (the cluster answers some malformed names with a 500): one name, or a comma-separated list of
 * names and `*` patterns, without spaces, control characters or `\ / ? " < > | #`, none starting with `_` or `+`.
 */
import { z } from 'zod';

const part = String.raw`[^\s\x00-\x1f\x7f-\x9f\\/?"<>|#,_+][^\s\x00-\x1f\x7f-\x9f\\/?"<>|#,]*`;

/** A name, or (`list`) a comma-separated list of names and patterns. */
export function indexExpression(what: string, list = true) {
  return z
    .string()
    .max(255)
    .regex(
      new RegExp(list ? `^${part}(,${part})*$` : `^${part}$`),
      'index or alias names (e.g. app-logs, app-logs-*): no spaces, control characters or \\ / ? " < > | #, not starting with _ or +',
    )
    .describe(what);
}
