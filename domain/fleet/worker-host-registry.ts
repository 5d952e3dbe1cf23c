/**
 * Which hosts are alive: every worker that serves a host queue stamps its host's row in
 * `worker_hosts` every few seconds. A project whose host queue stops answering asks here whether
 * the host is only busy or gone (docs/fleet.md#when-a-host-is-lost). Stamps and ages are read on the
 * database's clock, so hosts whose clocks disagree still judge each other right.
 */
import { sql, type RawBuilder } from 'kysely';
import * as os from 'node:os';
import type { MetadataDb } from '../metadata-store/metadata-db';
import type { WorkerHostsTable } from '../metadata-store/metadata-tables';

/** How often a live worker stamps its host. */
export const HOST_BEAT_MS = 5_000;

export interface WorkerHost {
  host_id: string;
  hostname: string;
  workloads: string[];
  started_at: string;
  last_seen_at: string;
  stopped_at?: string;
}

export class WorkerHostRegistry {
  constructor(private readonly metadata: MetadataDb) {}

  /** The database's time as ISO-8601 UTC text (the form every stamp is stored in). */
  private now(): RawBuilder<string> {
    return this.metadata.dialect === 'postgres'
      ? sql<string>`to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
  }

  /** The database's time, in ms since the epoch. */
  async databaseTime(): Promise<number> {
    const { rows } = await sql<{ now: string }>`SELECT ${this.now()} AS now`.execute(this.metadata.db);
    return Date.parse(rows[0].now);
  }

  /** Marks the host seen now (and running: a drained host that starts again is back). */
  async beat(hostId: string, workloads: string[], startedAt: string): Promise<void> {
    const now = this.now();
    await this.metadata.db
      .insertInto('worker_hosts')
      .values({
        host_id: hostId,
        hostname: os.hostname(),
        workloads: workloads.join(','),
        started_at: startedAt,
        last_seen_at: now,
        stopped_at: null,
      })
      .onConflict((oc) =>
        oc.column('host_id').doUpdateSet((eb) => ({
          hostname: eb.ref('excluded.hostname'),
          workloads: eb.ref('excluded.workloads'),
          started_at: eb.ref('excluded.started_at'),
          last_seen_at: eb.ref('excluded.last_seen_at'),
          stopped_at: null,
        })),
      )
      .execute();
  }

  /** Records a clean stop (the host may come back; until then its projects wait, then move). */
  async stopped(hostId: string): Promise<void> {
    await this.metadata.db
      .updateTable('worker_hosts')
      .set({ stopped_at: this.now() })
      .where('host_id', '=', hostId)
      .execute();
  }

  async get(hostId: string): Promise<WorkerHost | undefined> {
    const row = await this.metadata.db
      .selectFrom('worker_hosts')
      .selectAll()
      .where('host_id', '=', hostId)
      .executeTakeFirst();
    return row && toHost(row);
  }

  async list(): Promise<WorkerHost[]> {
    const rows = await this.metadata.db.selectFrom('worker_hosts').selectAll().orderBy('host_id').execute();
    return rows.map(toHost);
  }

  /** The hosts seen within `withinMs` and not draining: where new work may go. */
  async liveHosts(withinMs: number): Promise<WorkerHost[]> {
    const now = await this.databaseTime();
    return (await this.list()).filter((h) => !h.stopped_at && now - Date.parse(h.last_seen_at) <= withinMs);
  }

  /** Seen within `withinMs`: a busy host still stamps its row, a dead or stopped one does not. */
  async alive(hostId: string, withinMs: number): Promise<boolean> {
    const host = await this.get(hostId);
    return !!host && (await this.databaseTime()) - Date.parse(host.last_seen_at) <= withinMs;
  }

  /**
   * Stamps the host now and then every HOST_BEAT_MS while `polling()` says its workers still take
   * tasks. A draining host stops stamping at once and is marked stopped, so no new project is placed
   * on it during its grace time.
   */
  async keepBeating(
    hostId: string,
    workloads: string[],
    polling: () => boolean,
    onError: (err: unknown) => void,
  ): Promise<{ stop(clean: boolean): Promise<void> }> {
    const startedAt = new Date().toISOString();
    await this.beat(hostId, workloads, startedAt);
    let inFlight: Promise<void> = Promise.resolve();
    let marked = false;
    const markStopped = () => {
      marked = true;
      inFlight = inFlight.then(() => this.stopped(hostId)).catch(onError);
    };
    const timer = setInterval(() => {
      if (!polling()) {
        clearInterval(timer);
        markStopped();
        return;
      }
      // One stamp at a time, so a late stamp never lands after the stop mark.
      inFlight = inFlight.then(() => this.beat(hostId, workloads, startedAt)).catch(onError);
    }, HOST_BEAT_MS);
    timer.unref();
    return {
      stop: async (clean) => {
        clearInterval(timer);
        if (clean && !marked) markStopped();
        await inFlight;
      },
    };
  }
}

function toHost(row: WorkerHostsTable): WorkerHost {
  return {
    host_id: row.host_id,
    hostname: row.hostname,
    workloads: row.workloads ? row.workloads.split(',') : [],
    started_at: row.started_at,
    last_seen_at: row.last_seen_at,
    ...(row.stopped_at ? { stopped_at: row.stopped_at } : {}),
  };
}
