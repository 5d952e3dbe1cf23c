/**
 * Ships log documents to a write alias in the background: buffered, sent with `_bulk` every second
 * (or sooner when the buffer fills), never blocking the request or activity that logged. Nothing is
 * lost while OpenSearch is briefly away: the buffer is kept and sent again, up to a bound beyond which
 * the oldest documents are dropped and counted. Writes require the alias (`require_alias`), so a
 * missing alias never becomes a concrete index of that name.
 */
import type { OpenSearchClient } from '../opensearch-client';

export interface LogShipperOptions {
  /** Runs once before the first write (bootstrapping the alias); retried after a failure. */
  ensure?: () => Promise<unknown>;
  flushMs?: number;
  /** Documents kept while the cluster is away; older ones are dropped beyond it. */
  maxBuffered?: number;
  onError?: (err: unknown) => void;
}

type Doc = { id?: string; source: Record<string, unknown> };

export class LogShipper {
  private buffer: Doc[] = [];
  private ensured = false;
  /** Reported once per outage, not once a second. */
  private failing = false;
  private flushing?: Promise<void>;
  private readonly timer: NodeJS.Timeout;
  /** Documents dropped because the buffer overflowed while the cluster was unreachable. */
  dropped = 0;
  /** Documents the cluster accepted. */
  shipped = 0;

  constructor(
    private readonly client: OpenSearchClient,
    readonly alias: string,
    private readonly opts: LogShipperOptions = {},
  ) {
    this.timer = setInterval(() => void this.flush(), opts.flushMs ?? 1000);
    this.timer.unref();
  }

  /** Queues a document; `id` makes a re-sent document (an activity retry) a no-op. */
  ship(source: Record<string, unknown>, id?: string): void {
    this.buffer.push({ id, source });
    const max = this.opts.maxBuffered ?? 10_000;
    if (this.buffer.length > max) {
      this.dropped += this.buffer.length - max;
      this.buffer.splice(0, this.buffer.length - max);
    }
    if (this.buffer.length >= 500) void this.flush();
  }

  /** Sends what is buffered; resolves when the cluster has it (or the attempt failed). */
  async flush(): Promise<void> {
    // A send already under way (the timer's) took only what was buffered when it began: wait for
    // it, then send what came after, so a flush covers everything shipped before it.
    if (this.flushing) await this.flushing;
    this.flushing ??= this.send().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  /** Stops the timer after a last flush. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async send(): Promise<void> {
    if (!this.buffer.length) return;
    const batch = this.buffer.splice(0);
    try {
      if (!this.ensured && this.opts.ensure) await this.opts.ensure();
      this.ensured = true;
      const lines = batch.flatMap((d) => [
        JSON.stringify({ create: { _index: this.alias, ...(d.id ? { _id: d.id } : {}) } }),
        JSON.stringify(d.source),
      ]);
      const res = await this.client.bulk<{
        errors: boolean;
        items: { create: { status: number; error?: { type: string; reason: string } } }[];
      }>(`${lines.join('\n')}\n`, 'require_alias=true');
      // 409: a document sent before (same id): already there.
      const failed = res.items.filter((i) => i.create.error && i.create.status !== 409);
      this.shipped += batch.length - failed.length;
      this.failing = false;
      if (failed.length)
        this.opts.onError?.(
          new Error(
            `${failed.length} log documents refused by ${this.alias}: ${failed[0].create.error!.reason}`,
          ),
        );
    } catch (err) {
      // Away or refusing everything: keep the batch, ahead of what came in meanwhile.
      this.buffer.unshift(...batch);
      if (!this.failing) this.opts.onError?.(err);
      this.failing = true;
    }
  }
}
