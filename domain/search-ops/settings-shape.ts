/**
 * Comparing what OpenSearch answers with what plat asked for: settings come back nested or flat,
 * with or without the `index.` prefix, and objects in any key order.
 */

/** `{index: {blocks: {write: 'true'}}}` → `{'index.blocks.write': 'true'}` (flat keys pass through). */
export function flattenSettings(obj: object, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) Object.assign(out, flattenSettings(v, key));
    else out[key] = v;
  }
  return out;
}

/** The ISM rollover alias set in index or template settings, however they are spelt. */
export function rolloverAliasIn(settings: object | undefined): string | undefined {
  const flat = flattenSettings(settings ?? {});
  return (flat['index.plugins.index_state_management.rollover_alias'] ??
    flat['plugins.index_state_management.rollover_alias']) as string | undefined;
}

/** A value with every object's keys sorted, for comparison; `dropNullish` also drops null/undefined keys. */
export function sortKeys(value: unknown, dropNullish = false): unknown {
  if (Array.isArray(value)) return value.map((v) => sortKeys(v, dropNullish));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => !dropNullish || (v !== undefined && v !== null))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, sortKeys(v, dropNullish)]),
    );
  return value;
}
