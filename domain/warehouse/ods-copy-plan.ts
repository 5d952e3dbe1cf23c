/**
 * How a source is split into copy parts that any worker of the project's host can take
 * (docs/fleet.md#ingestion-in-parts): a small source is one part (one activity, one shared
 * snapshot); a large one is split so that each part holds about `partRows` rows: small tables packed
 * together, a big table with an integer key cut into key ranges. The plan reads no rows: the server's
 * row estimates and each big table's lowest and highest key.
 */
import type { SourceTable } from '../../shared/source-schema';
import { fileNameFor, pathInside } from '../../shared/safe-file-name';
import { splitColumn } from './pk-ranges';

/** Whole tables copied in one snapshot, one Parquet file each. */
export interface OdsTablesPart {
  id: string;
  kind: 'tables';
  tables: string[];
  estimated_rows: number;
}

/** One key range of a big table (`range` is its WHERE predicate), merged with the others when all are done. */
export interface OdsRangePart {
  id: string;
  kind: 'range';
  table: string;
  range: string;
  /** Position of the range in its table (0-based) and how many ranges the table has. */
  index: number;
  of: number;
  estimated_rows: number;
}

export type OdsPart = OdsTablesPart | OdsRangePart;

export interface OdsCopyPlan {
  parts: OdsPart[];
  /** The server's estimate over every table to copy (InnoDB's is approximate). */
  estimated_rows: number;
  part_rows: number;
}

/** A table is never cut into more ranges than this (beyond it, parts grow instead). */
export const MAX_RANGES_PER_TABLE = 64;

/**
 * The parts of a copy of `tables`. `estimates` are the server's row estimates by table; `ranges`
 * returns up to `n` WHERE predicates covering a table (one empty predicate when it cannot be cut).
 */
export async function planOdsParts(
  tables: SourceTable[],
  estimates: Map<string, number>,
  partRows: number,
  ranges: (table: SourceTable, n: number) => Promise<string[]>,
): Promise<OdsCopyPlan> {
  const rowsOf = (t: SourceTable) => Math.max(0, estimates.get(t.name) ?? 0);
  const total = tables.reduce((n, t) => n + rowsOf(t), 0);
  if (total <= partRows || tables.length === 0) {
    return {
      parts: [{ id: 'p1', kind: 'tables', tables: tables.map((t) => t.name), estimated_rows: total }],
      estimated_rows: total,
      part_rows: partRows,
    };
  }
  const parts: (Omit<OdsTablesPart, 'id'> | Omit<OdsRangePart, 'id'>)[] = [];
  const whole: SourceTable[] = [];
  for (const table of [...tables].sort((a, b) => rowsOf(b) - rowsOf(a))) {
    const rows = rowsOf(table);
    const wanted = Math.min(MAX_RANGES_PER_TABLE, Math.ceil(rows / partRows));
    const predicates = wanted >= 2 && splitColumn(table) ? await ranges(table, wanted) : [''];
    if (predicates.length < 2) {
      whole.push(table);
      continue;
    }
    predicates.forEach((range, index) =>
      parts.push({
        kind: 'range',
        table: table.name,
        range,
        index,
        of: predicates.length,
        estimated_rows: Math.round(rows / predicates.length),
      }),
    );
  }
  // First fit, biggest first: few parts, none much over partRows unless one table is.
  const bins: { tables: string[]; rows: number }[] = [];
  for (const table of whole) {
    const rows = rowsOf(table);
    const bin = bins.find((b) => b.rows + rows <= partRows);
    if (bin) {
      bin.tables.push(table.name);
      bin.rows += rows;
    } else bins.push({ tables: [table.name], rows });
  }
  for (const bin of bins) parts.push({ kind: 'tables', tables: bin.tables, estimated_rows: bin.rows });
  return {
    parts: parts.map((p, i) => ({ ...p, id: `p${i + 1}` }) as OdsPart),
    estimated_rows: total,
    part_rows: partRows,
  };
}

/**
 * Where a range part's file goes, under the ODS directory, until the table's ranges are merged; named
 * by `attempt` too, so an attempt given up on never overwrites its retry's file. The table's folder is
 * its encoded name (docs/architecture.md#file-names-from-source-names).
 */
export function rangePartFile(odsDir: string, part: OdsRangePart, attempt: string): string {
  return pathInside(
    odsDir,
    'parts',
    fileNameFor(part.table),
    `${part.index}.${fileNameFor(attempt)}.parquet`,
  );
}
