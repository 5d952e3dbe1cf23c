/**
 * The rows a store read last, by id (docs/memory-search.md#speed-and-size): a search reads the rows
 * of its candidates from the lexical, entity, vector and neighbour lists in turn, largely the same
 * ones, and the next question on the same topic reads them again. A store whose process is its
 * data's only writer keeps them here and forgets a row on each write to it.
 */
import type { MemoryRecord } from '../../../shared/memory-model';

/** Rows kept at most, over two generations: a few MB, well under one user's index. */
const ROWS_KEPT = 20_000;

export class RecordCache {
  /**
   * Rows read since the last turn of generations, and those of the one before: a row read again
   * moves to the newer, and a turn drops the older whole, which costs nothing per row (dropping the
   * oldest entry of one Map row by row gets slower as its deleted slots pile up).
   */
  private newer = new Map<string, MemoryRecord>();
  private older = new Map<string, MemoryRecord>();

  constructor(private readonly capacity = ROWS_KEPT) {}

  /** The rows of `ids` (duplicates read once), those not kept read by `read` in one call and kept. */
  get(ids: string[], read: (missing: string[]) => MemoryRecord[]): Map<string, MemoryRecord> {
    const found = new Map<string, MemoryRecord>();
    const missing: string[] = [];
    for (const id of ids) {
      if (found.has(id)) continue;
      const row = this.newer.get(id) ?? this.older.get(id);
      if (row) {
        found.set(id, row);
        this.keep(row);
      } else missing.push(id);
    }
    if (!missing.length) return found;
    for (const row of read([...new Set(missing)])) {
      found.set(row.id, row);
      this.keep(row);
    }
    return found;
  }

  /** Forgets a row that is written (updated, deleted, or inserted under an id read before). */
  forget(id: string): void {
    this.newer.delete(id);
    this.older.delete(id);
  }

  private keep(row: MemoryRecord): void {
    if (this.newer.has(row.id)) return;
    if (this.newer.size >= this.capacity / 2) [this.older, this.newer] = [this.newer, new Map()];
    this.newer.set(row.id, row);
  }
}
