/**
 * The rows a store read last, by id (docs/memory-search.md#speed-and-size): a search reads the rows
 * of its candidates from the lexical, entity, vector and neighbour lists in turn, largely the same
 * ones, and the next question on the same topic reads them again. A store whose process is its
 * data's only writer keeps them here and forgets a row on each write to it.
 */
import type { MemoryRecord } from '../../../shared/memory-model';

/**
 * Characters of rows kept at most, over two generations (about 20 MB), whatever their number: a
 * tenant may store texts of 200,000 characters and metadata up to the request limit, and the
 * service's memory is every tenant's.
 */
const CHARS_KEPT = 10_000_000;
/** A row longer than this is read again when asked for, as it was before rows were kept. */
const LONGEST_KEPT = 8_000;
/** What a row costs beside its text and metadata (the record object, its fields, the keys). */
const ROW_OVERHEAD = 300;

/** A row read from the store, with its text's and metadata's length as stored. */
export interface ReadRow {
  record: MemoryRecord;
  chars: number;
}

interface KeptRow {
  record: MemoryRecord;
  weight: number;
}

/** A generation of kept rows and the characters they weigh. */
class Generation {
  readonly rows = new Map<string, KeptRow>();
  weight = 0;

  delete(id: string): void {
    const row = this.rows.get(id);
    if (!row) return;
    this.rows.delete(id);
    this.weight -= row.weight;
  }
}

export class RecordCache {
  /**
   * Rows read since the last turn of generations, and those of the one before: a row read again
   * moves to the newer, and a turn drops the older whole, which costs nothing per row (dropping the
   * oldest entry of one Map row by row gets slower as its deleted slots pile up).
   */
  private newer = new Generation();
  private older = new Generation();

  constructor(
    private readonly charsKept = CHARS_KEPT,
    private readonly longestKept = LONGEST_KEPT,
  ) {}

  /** The rows of `ids` (duplicates read once), those not kept read by `read` in one call and kept. */
  get(ids: string[], read: (missing: string[]) => ReadRow[]): Map<string, MemoryRecord> {
    const found = new Map<string, MemoryRecord>();
    const missing = new Set<string>();
    for (const id of ids) {
      if (found.has(id)) continue;
      const row = this.newer.rows.get(id) ?? this.older.rows.get(id);
      if (row) {
        found.set(id, row.record);
        this.keep(row);
      } else missing.add(id);
    }
    if (!missing.size) return found;
    for (const { record, chars } of read([...missing])) {
      found.set(record.id, record);
      if (chars <= this.longestKept) this.keep({ record, weight: chars + ROW_OVERHEAD });
    }
    return found;
  }

  /** Forgets a row that is written (updated, deleted, or inserted under an id read before). */
  forget(id: string): void {
    this.newer.delete(id);
    this.older.delete(id);
  }

  private keep(row: KeptRow): void {
    const id = row.record.id;
    if (this.newer.rows.has(id)) return;
    if (this.newer.weight + row.weight > this.charsKept / 2)
      [this.older, this.newer] = [this.newer, new Generation()];
    this.newer.rows.set(id, row);
    this.newer.weight += row.weight;
  }
}
