/**
 * What Alertmanager told plat about each alarm (docs/monitoring.md#delivery): every firing and
 * resolution, once each. Alertmanager repeats a firing notification until it resolves; the repeat
 * carries the same fingerprint and start, so it is not stored again.
 */
import type { MetadataDb } from '../metadata-store/metadata-db';
import { ALARMS, type AlarmDefinition } from './alarm-catalog';

export type AlarmStatus = 'firing' | 'resolved';

/** One firing or resolution of one alert instance. */
export interface AlarmNotification {
  alarm: string;
  /** Alertmanager's identity of the instance (its label set). */
  fingerprint: string;
  status: AlarmStatus;
  starts_at: string;
  /** When it resolved (resolutions only). */
  ends_at: string | null;
  summary: string;
  labels: Record<string, string>;
  received_at: string;
}

/** An alarm of the catalog with its current state. */
export interface AlarmState extends AlarmDefinition {
  /** `ok` also when plat has never heard of the alarm. */
  state: 'firing' | 'ok';
  /** When the current state began (the firing's start, or the last resolution's end). */
  since: string | null;
  /** The summary of the latest notification. */
  summary: string | null;
  notifications: number;
}

/** A notification as its row: the labels as JSON. */
type Row = Omit<AlarmNotification, 'labels'> & { labels_json: string };

export class AlarmStore {
  constructor(private readonly metadata: MetadataDb) {}

  private get db() {
    return this.metadata.db;
  }

  /** Stores the notifications not stored yet; answers how many were new. */
  async record(notifications: Omit<AlarmNotification, 'received_at'>[]): Promise<number> {
    if (!notifications.length) return 0;
    const now = new Date().toISOString();
    const added = await this.db
      .insertInto('alarm_notifications')
      .values(
        notifications.map((n) => ({
          alarm: n.alarm,
          fingerprint: n.fingerprint,
          status: n.status,
          starts_at: n.starts_at,
          ends_at: n.ends_at,
          summary: n.summary,
          labels_json: JSON.stringify(n.labels),
          received_at: now,
        })),
      )
      .onConflict((oc) => oc.columns(['fingerprint', 'status', 'starts_at']).doNothing())
      .returning('id')
      .execute();
    return added.length;
  }

  /** Every alarm of the catalog, and any other alert Alertmanager sent, with its current state. */
  async states(): Promise<AlarmState[]> {
    const newest = this.db
      .selectFrom('alarm_notifications')
      .select((eb) => ['fingerprint', eb.fn.max('id').as('id')])
      .groupBy('fingerprint')
      .as('l');
    const latest = (await this.db
      .selectFrom('alarm_notifications as n')
      .innerJoin(newest, 'l.id', 'n.id')
      .selectAll('n')
      .execute()) as Row[];
    const counts = new Map(
      (
        await this.db
          .selectFrom('alarm_notifications')
          .select((eb) => ['alarm', eb.fn.countAll<number>().as('n')])
          .groupBy('alarm')
          .execute()
      ).map((r) => [r.alarm, Number(r.n)]),
    );
    const known = new Set(ALARMS.map((a) => a.name));
    const others = [...new Set(latest.map((r) => r.alarm))].filter((name) => !known.has(name));
    const definitions: AlarmDefinition[] = [
      ...ALARMS,
      ...others.map((name) => ({
        name,
        metric: 'an alert outside plat’s catalog, routed to plat-alerts',
        threshold: '-',
        period: '-',
        severity: 'warning' as const,
        hint: 'see its rule in Prometheus',
      })),
    ];
    return definitions.map((def) => {
      const instances = latest.filter((r) => r.alarm === def.name);
      const firing = instances.filter((r) => r.status === 'firing');
      const newest = [...instances].sort((a, b) => b.received_at.localeCompare(a.received_at))[0];
      const since = firing.length
        ? firing.map((r) => r.starts_at).sort()[0]
        : (instances
            .map((r) => r.ends_at ?? r.starts_at)
            .sort()
            .at(-1) ?? null);
      return {
        ...def,
        state: firing.length ? 'firing' : 'ok',
        since,
        summary: newest?.summary ?? null,
        notifications: counts.get(def.name) ?? 0,
      };
    });
  }

  /** The alarm's notifications, newest first. */
  async history(alarm: string, limit: number): Promise<AlarmNotification[]> {
    const rows = (await this.db
      .selectFrom('alarm_notifications')
      .selectAll()
      .where('alarm', '=', alarm)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute()) as Row[];
    return rows.map(({ labels_json, ...r }) => ({ ...r, labels: JSON.parse(labels_json) }));
  }
}
