/**
 * The N:1 join tree of a source table: every table reachable along foreign keys (declared or
 * inferred), each by its shortest path (breadth first; ties broken by declaration order). The
 * analyst names a fact's attributes by these paths and data modeling writes the same LEFT JOINs,
 * so both must use this one function.
 */

/** A foreign key, declared or inferred: `table(columns)` references `references_table(references_columns)`. */
export interface JoinKey {
  table: string;
  columns: string[];
  references_table: string;
  references_columns: string[];
}

/** One LEFT JOIN: from a table already joined to the table it references. */
export interface JoinStep {
  from: string;
  columns: string[];
  to: string;
  toColumns: string[];
}

/** Every reachable table → the step that reaches it (null for the base). */
export function joinTree(keys: JoinKey[], base: string, maxDepth = 6): Map<string, JoinStep | null> {
  const outgoing = new Map<string, JoinKey[]>();
  for (const k of keys) outgoing.set(k.table, [...(outgoing.get(k.table) ?? []), k]);
  const via = new Map<string, JoinStep | null>([[base, null]]);
  let frontier = [base];
  for (let depth = 0; depth < maxDepth && frontier.length; depth++) {
    const next: string[] = [];
    for (const current of frontier) {
      for (const k of outgoing.get(current) ?? []) {
        if (via.has(k.references_table)) continue;
        via.set(k.references_table, {
          from: current,
          columns: k.columns,
          to: k.references_table,
          toColumns: k.references_columns,
        });
        next.push(k.references_table);
      }
    }
    frontier = next;
  }
  return via;
}

/** The steps from the base of `tree` to `target`, in join order; undefined when unreachable. */
export function pathTo(tree: Map<string, JoinStep | null>, target: string): JoinStep[] | undefined {
  if (!tree.has(target)) return undefined;
  const path: JoinStep[] = [];
  for (let step = tree.get(target); step; step = tree.get(step.from)) path.unshift(step);
  return path;
}

/** `order_items.order_id -> orders.order_id`: a step as people read it. */
export const describeStep = (s: JoinStep): string =>
  `${s.from}.${s.columns.join('+')} -> ${s.to}.${s.toColumns.join('+')}`;

/** Keys of both kinds, declared first, without repeating a (table, columns) pair. */
export function mergeJoinKeys(...lists: JoinKey[][]): JoinKey[] {
  const seen = new Set<string>();
  const out: JoinKey[] = [];
  for (const k of lists.flat()) {
    const id = `${k.table}(${k.columns.join(',')})`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(k);
  }
  return out;
}
