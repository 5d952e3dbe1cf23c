/**
 * The metadata keys only the memory service writes (`plat_evokes`, `plat_asserts` …): each holds the
 * service's reading of a memory's latest text, so a new text sets it or drops the old one.
 */

/** `metadata` with `key` set to `value`, or without `key` when `value` is undefined. */
export function withServiceKey(
  metadata: Record<string, unknown>,
  key: string,
  value: unknown,
): Record<string, unknown> {
  if (value !== undefined) return { ...metadata, [key]: value };
  if (!(key in metadata)) return metadata;
  return Object.fromEntries(Object.entries(metadata).filter(([k]) => k !== key));
}
