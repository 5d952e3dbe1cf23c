/**
 * Writes started from synchronous callbacks (a tool call, a copied table), run one after another in
 * the order they were queued. The activity awaits `drain()` before it returns, so none is lost and
 * a failed write fails the attempt instead of vanishing.
 */
export class OrderedWrites {
  private tail: Promise<void> = Promise.resolve();
  private failure: unknown;

  /** Queues a write after those queued before it. */
  push(write: () => Promise<unknown>): void {
    this.tail = this.tail.then(async () => {
      if (this.failure !== undefined) return;
      try {
        await write();
      } catch (err) {
        this.failure = err;
      }
    });
  }

  /** Resolves when every queued write is done; throws the first that failed. */
  async drain(): Promise<void> {
    await this.tail;
    if (this.failure !== undefined) throw this.failure;
  }
}
