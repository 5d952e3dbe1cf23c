/** Items and bytes per kind (the retention report's totals). Workflow-safe. */
export function totalsByKind<K extends string>(
  kinds: readonly K[],
  items: readonly { kind: K; bytes: number }[],
): Record<K, { items: number; bytes: number }> {
  return Object.fromEntries(
    kinds.map((kind) => {
      const mine = items.filter((i) => i.kind === kind);
      return [kind, { items: mine.length, bytes: mine.reduce((n, i) => n + i.bytes, 0) }];
    }),
  ) as Record<K, { items: number; bytes: number }>;
}
