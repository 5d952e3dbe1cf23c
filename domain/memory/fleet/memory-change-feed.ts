/**
 * How each memory-service instance keeps its in-process indexes current with the writes of every
 * other instance (docs/fleet.md#memory): writers append to `memory_changes` under one transaction
 * lock, so change numbers follow commit order; every instance replays the changes after its cursor
 * onto the users it has loaded, woken by NOTIFY within milliseconds and polling besides. All index
 * changes (replays and the publication of a freshly loaded user) run one at a time here.
 */
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { PostgresNotifications } from '../../metadata-store/postgres-notifications';
import type { Partition, UserIndexes } from '../store/user-indexes';
import { vectorOf } from '../store/user-indexes';
import { pruneChanges } from './memory-change-pruning';
import type { SharedMemoryChangesTable, MemoryTables } from '../store/memory-schema';

type Change = Selectable<SharedMemoryChangesTable>;

export const MEMORY_CHANGES_CHANNEL = 'plat_memory_changes';
/** The lock writers take right before numbering their change, held until commit. */
const FEED_LOCK = 'plat-memory-changes';
/** Polling period besides notifications (a notification can be lost while reconnecting). */
const POLL_MS = 500;
const PAGE = 1000;
/** Changes older than this are pruned: a live instance is never that far behind. */
const KEEP_CHANGES_MS = 24 * 3600_000;

/** Appends a change in the writer's transaction, numbered in commit order, and announces it. */
export async function appendChange(
  tx: Transaction<MemoryTables>,
  change: Omit<Change, 'seq' | 'at'>,
): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${FEED_LOCK}))`.execute(tx);
  await tx
    .insertInto('memory_changes')
    .values({ ...change, at: new Date().toISOString() })
    .execute();
  await sql`SELECT pg_notify(${MEMORY_CHANGES_CHANNEL}, '')`.execute(tx);
}

export class MemoryChangeFeed {
  private cursor = 0;
  private tail: Promise<unknown> = Promise.resolve();
  private timer?: NodeJS.Timeout;
  private stopListening?: () => void;
  private lastPrune = 0;
  private lastWarning = 0;
  private gapCount = 0;
  private closed = false;

  constructor(
    private readonly db: Kysely<MemoryTables>,
    private readonly indexes: () => UserIndexes,
    private readonly notifications?: PostgresNotifications,
  ) {}

  /** Starts following from the newest change (users load their rows as they are now). */
  async start(): Promise<void> {
    this.cursor = await this.newestSeq(this.db);
    this.stopListening = await this.notifications?.listen(MEMORY_CHANGES_CHANNEL, () => void this.quietly());
    const poll = () => {
      if (this.closed) return;
      void this.quietly().finally(() => {
        if (this.closed) return;
        this.timer = setTimeout(poll, POLL_MS);
        this.timer.unref();
      });
    };
    poll();
  }

  /** The newest change number a transaction sees (pruned ones included: numbers never go back). */
  async newestSeq(db: Kysely<MemoryTables>): Promise<number> {
    const { rows } = await sql<{ seq: number | null }>`
      SELECT greatest((SELECT max(seq) FROM memory_changes),
                      (SELECT max(through_seq) FROM memory_changes_pruned)) AS seq`.execute(db);
    return Number(rows[0]?.seq ?? 0);
  }

  /** Changes this instance found pruned before it read them (each made it reload its users). */
  get gaps(): number {
    return this.gapCount;
  }

  /**
   * A catch-up nobody waits for (a notification, the poll): a failure (the database restarting)
   * is retried by the next poll, and must not end the process.
   */
  private async quietly(): Promise<void> {
    try {
      await this.catchUp();
      await this.prune();
    } catch (err) {
      if (!this.closed && Date.now() - this.lastWarning > 60_000) {
        this.lastWarning = Date.now();
        console.warn(`memory change feed: ${(err as Error).message}; retrying every ${POLL_MS} ms`);
      }
    }
  }

  /**
   * Replays every change committed so far; resolves once they are on the loaded users' indexes.
   * A gap (changes pruned past the cursor, so never to be read) drops every loaded user's indexes
   * and loads them again from their rows, instead of leaving them without those changes.
   */
  async catchUp(): Promise<void> {
    const reload = await this.exclusive(async () => {
      let forgotten: string[] = [];
      for (;;) {
        const { changes, prunedThrough } = await this.changesAfter(this.cursor);
        if (prunedThrough > this.cursor) {
          forgotten = [...forgotten, ...this.indexes().forgetAll()];
          this.gapCount++;
          console.warn(
            `memory change feed: changes up to #${prunedThrough} were pruned before this instance ` +
              `read them (its cursor was #${this.cursor}); reloading ${forgotten.length} users from their rows`,
          );
          this.cursor = prunedThrough;
        }
        await this.apply(changes, (userId) => this.indexes().peek(userId));
        // Never back below the mark (a change numbered under it can outlive pruning: clocks differ).
        if (changes.length) this.cursor = Math.max(this.cursor, Number(changes[changes.length - 1].seq));
        if (changes.length < PAGE) return forgotten;
      }
    });
    if (reload.length)
      void this.indexes()
        .reload(reload)
        .catch(() => {});
  }

  /**
   * A page of changes after `cursor` and the pruned mark, in one statement (one snapshot): a
   * change pruned after the read is in the page, one pruned before it is under the mark.
   */
  private async changesAfter(cursor: number): Promise<{ changes: Change[]; prunedThrough: number }> {
    const { rows } = await sql<Partial<Change> & { pruned_through: number }>`
      SELECT mark.pruned_through, c.*
      FROM (SELECT coalesce(max(through_seq), 0) AS pruned_through FROM memory_changes_pruned) mark
      LEFT JOIN LATERAL (
        SELECT * FROM memory_changes WHERE seq > ${cursor} ORDER BY seq LIMIT ${PAGE}
      ) c ON true`.execute(this.db);
    return {
      changes: rows.filter((r) => r.seq != null) as Change[],
      prunedThrough: Number(rows[0]?.pruned_through ?? 0),
    };
  }

  /**
   * After a write committed: its change on this instance's indexes (read your writes). A failure
   * here does not undo the committed write, so it is not the writer's error: the poll retries.
   */
  async afterWrite(): Promise<void> {
    await this.quietly();
  }

  /**
   * Publishes a user's freshly read indexes (their rows as of change `p.appliedSeq`) after
   * replaying what this instance has seen since, so no change falls between the read and the feed.
   */
  publish(userId: string, p: Partition, publish: () => Partition): Promise<Partition> {
    return this.exclusive(async () => {
      if (p.appliedSeq < this.cursor) {
        const backlog = await this.db
          .selectFrom('memory_changes')
          .selectAll()
          .where('user_id', '=', userId)
          .where('seq', '>', p.appliedSeq)
          .where('seq', '<=', this.cursor)
          .orderBy('seq')
          .execute();
        await this.apply(backlog, () => p);
      }
      return publish();
    });
  }

  /** Runs `fn` after every index change queued before it, alone. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn);
    this.tail = run.catch(() => {});
    return run;
  }

  private async apply(
    changes: Change[],
    partitionOf: (userId: string) => Partition | undefined,
  ): Promise<void> {
    const relevant = changes.filter((c) => {
      const p = partitionOf(c.user_id);
      return p !== undefined && Number(c.seq) > p.appliedSeq;
    });
    if (!relevant.length) return;
    const ids = [...new Set(relevant.filter((c) => c.op !== 'DELETE').map((c) => c.memory_id))];
    const rows = ids.length
      ? await this.db
          .selectFrom('memories')
          .select(['id', 'agent_id', 'run_id', 'created_at', 'vector', 'valid_from', 'valid_to'])
          .where('id', 'in', ids)
          .execute()
      : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const indexes = this.indexes();
    for (const c of relevant) {
      const p = partitionOf(c.user_id)!;
      const row = byId.get(c.memory_id);
      const indexed = p.vectors.slotOf(c.memory_id) !== undefined;
      if (c.op === 'DELETE' || !row) {
        // Deleted (now, or by a later change this replay will reach): out of the indexes.
        if (indexed) indexes.unindex(p, c.memory_id, c.old_memory ?? '');
      } else if (c.op === 'ADD' || !indexed) {
        if (!indexed) indexes.index(p, { ...row, memory: c.new_memory ?? '' }, vectorOf(row.vector));
      } else {
        indexes.index(p, { ...row, memory: c.new_memory ?? '' }, vectorOf(row.vector), {
          memory: c.old_memory ?? '',
        });
      }
      p.appliedSeq = Number(c.seq);
    }
  }

  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < 600_000) return;
    this.lastPrune = Date.now();
    await pruneChanges(this.db, new Date(Date.now() - KEEP_CHANGES_MS));
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.stopListening?.();
  }
}
