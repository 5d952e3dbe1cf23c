/**
 * A cap on how fast one copy reads its source (PLAT_INGEST_MAX_ROWS_PER_SECOND): the readers of a
 * copy count their rows here and pause their connection while they are ahead of the rate, so a busy
 * production database is not read flat out (docs/fleet.md#ingestion-in-parts).
 */

/** Rows counted between two looks at the clock: the check costs nothing per row. */
const CHECK_EVERY = 256;
/** Shorter waits are not worth a timer; the next check catches up. */
const MIN_WAIT_MS = 5;

/** Paces the rows of one copy (all its readers together) to at most `rowsPerSecond`. */
export class RowPacer {
  private rows = 0;
  private readonly started = performance.now();

  constructor(readonly rowsPerSecond: number) {
    if (!(rowsPerSecond > 0)) throw new RangeError(`rows per second must be positive, not ${rowsPerSecond}`);
  }

  /**
   * Counts one row read; returns how many milliseconds the reader should wait before reading more
   * (0 while the copy is within its rate).
   */
  take(): number {
    if (++this.rows % CHECK_EVERY !== 0) return 0;
    const ahead = (this.rows / this.rowsPerSecond) * 1000 - (performance.now() - this.started);
    return ahead >= MIN_WAIT_MS ? ahead : 0;
  }
}

/** A new copy's pacer for `rowsPerSecond`; none when it is 0 or unset (no cap). */
export function rowPacer(rowsPerSecond?: number): RowPacer | undefined {
  return rowsPerSecond ? new RowPacer(rowsPerSecond) : undefined;
}
