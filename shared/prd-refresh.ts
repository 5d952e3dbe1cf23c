/**
 * The PRD's refresh plan: for each source table the ODS copies, how a refresh tells what changed
 * since the last one, with the evidence that decided it (docs/offline-analyst.md#change-detection).
 * A person may edit it like any part of the PRD; these are the rules an edit must keep.
 */
import { z } from 'zod';
import { columnReference } from './prd-sql/expression-sql';

/**
 * How changed rows are found: by a timestamp the source sets on every insert and update
 * (`updated_at`), by a key new rows take in increasing order (`key`: updates are not seen), or not
 * at all: the table is read whole (`full`).
 */
export const refreshDetections = ['updated_at', 'key', 'full'] as const;
export type RefreshDetection = (typeof refreshDetections)[number];

/**
 * How deleted rows are found: by comparing the source's keys with the warehouse's (`key_set`), with
 * the table read whole (`reread`), or not at all (`not_seen`: the table has no key to compare).
 */
export const refreshDeletes = ['key_set', 'reread', 'not_seen'] as const;

export const prdRefreshSchema = z
  .object({
    /** A source table, as the ODS names it in `source_tables`. */
    table: z.string().min(1),
    detect: z.enum(refreshDetections),
    /** The column read for changes: the timestamp or the key; none when the table is read whole. */
    column: z.string().min(1).optional(),
    deletes: z.enum(refreshDeletes),
    /** What in the source decided it (a declaration, the order of the data, the table's size). */
    evidence: z.string().default(''),
  })
  .strict();

export type PrdRefresh = z.output<typeof prdRefreshSchema>;

/** What the rules read of a PRD: its refresh plan and its ODS tables. */
interface RefreshedPrd {
  refresh: PrdRefresh[];
  layers: { ods: { source_tables: string[]; fields: { source: string }[] }[] };
}

/**
 * Each broken rule of the plan, at the index of its entry: one entry per table, on a table the ODS
 * copies, and a column (for `updated_at` and `key`) that its ODS copies too.
 */
export function refreshProblems(prd: RefreshedPrd): { index: number; field: string; message: string }[] {
  const problems: { index: number; field: string; message: string }[] = [];
  const seen = new Set<string>();
  prd.refresh.forEach((entry, index) => {
    const ods = prd.layers.ods.find((t) => t.source_tables.includes(entry.table));
    if (!ods) {
      problems.push({
        index,
        field: 'table',
        message: `${entry.table} is not a source table the ODS copies`,
      });
      return;
    }
    if (seen.has(entry.table))
      problems.push({ index, field: 'table', message: `${entry.table} has an earlier refresh entry` });
    seen.add(entry.table);
    if ((entry.detect === 'full') !== (entry.deletes === 'reread'))
      problems.push({
        index,
        field: 'deletes',
        message: 'deletes is reread exactly when the table is read whole (detect full)',
      });
    if (entry.detect === 'full') {
      if (entry.column !== undefined)
        problems.push({ index, field: 'column', message: 'a table read whole names no column' });
      return;
    }
    if (entry.column === undefined)
      problems.push({ index, field: 'column', message: `detect ${entry.detect} needs the column it reads` });
    else if (!ods.fields.some((f) => f.source === columnReference(entry.table, entry.column!)))
      problems.push({
        index,
        field: 'column',
        message: `${entry.column} is not a column of ${entry.table} the ODS copies`,
      });
  });
  return problems;
}
