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

interface Row {
  alarm: string;
  fingerprint: string;
  status: AlarmStatus;
  starts_at: string;
  ends_at: string | null;
  summary: string;
  labels_json: string;
  received_at: string;
}

export class AlarmStore {
  constructor(private readonly db: MetadataDb) {}

  /** Stores the notifications not stored yet; answers how many were new. */
  record(notifications: Omit<AlarmNotification, 'received_at'>[]): number {
    const insert = this.db.prepare(
      `INSERT OR IGNORE INTO alarm_notifications
         (alarm, fingerprint, status, starts_at, ends_at, summary, labels_json, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const now = new Date().toISOString();
    let added = 0;
    const all = this.db.transaction(() => {
      for (const n of notifications) {
        const info = insert.run(
          n.alarm,
          n.fingerprint,
          n.status,
          n.starts_at,
          n.ends_at,
          n.summary,
          JSON.stringify(n.labels),
          now,
        );
        added += info.changes;
      }
    });
    all();
    return added;
  }

  /** Every alarm of the catalog, and any other alert Alertmanager sent, with its current state. */
  states(): AlarmState[] {
    const latest = this.db
      .prepare(
        `SELECT n.* FROM alarm_notifications n
         JOIN (SELECT fingerprint, MAX(id) AS id FROM alarm_notifications GROUP BY fingerprint) l ON l.id = n.id`,
      )
      .all() as Row[];
    const counts = new Map(
      (
        this.db.prepare('SELECT alarm, COUNT(*) AS n FROM alarm_notifications GROUP BY alarm').all() as {
          alarm: string;
          n: number;
        }[]
      ).map((r) => [r.alarm, r.n]),
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
  history(alarm: string, limit: number): AlarmNotification[] {
    const rows = this.db
      .prepare('SELECT * FROM alarm_notifications WHERE alarm = ? ORDER BY id DESC LIMIT ?')
      .all(alarm, limit) as Row[];
    return rows.map(({ labels_json, ...r }) => ({ ...r, labels: JSON.parse(labels_json) }));
  }
}
