/**
 * A reader of the copy that waits for rows the source does not send (docs/security.md#sources): a
 * lane is ready for rows (its query runs, nothing holds its reads) and none came for `idleMs`. The
 * clock runs only while the lane is ready, so a full pipe or the row pacer never counts as a stall,
 * and it is read every few seconds rather than re-armed on every row.
 */
export interface RowWatch {
  /** Rows the lane has received so far. */
  rows(): number;
  /** Whether the lane is waiting for the source now (a query runs and nothing holds its reads). */
  waiting(): boolean;
}

/** Calls `onStall` once the watched lane waited `idleMs` in all without a row; returns the stop. */
export function watchRows(watch: RowWatch, idleMs: number, onStall: () => void): () => void {
  const tick = Math.max(10, Math.min(5_000, Math.floor(idleMs / 4)));
  let seen = watch.rows();
  let idle = 0;
  const timer = setInterval(() => {
    const rows = watch.rows();
    if (rows !== seen || !watch.waiting()) {
      seen = rows;
      idle = 0;
      return;
    }
    idle += tick;
    if (idle >= idleMs) {
      clearInterval(timer);
      onStall();
    }
  }, tick);
  timer.unref();
  return () => clearInterval(timer);
}
