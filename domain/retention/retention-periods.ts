/**
 * How long plat keeps what it writes (docs/monitoring.md#retention): agent logs 30 days, API access
 * logs and worker ("function") logs 14 days, raw-data (ODS) objects 90 days, query results 30 days;
 * a project's source password 7 days after the project ended (nothing reads it once the project's
 * workflow is over; the days leave an operator time to reset a failed workflow).
 */
export const RETENTION_DAYS = {
  agent_logs: 30,
  access_logs: 14,
  function_logs: 14,
  ods_objects: 90,
  query_results: 30,
  source_passwords: 7,
} as const;

export type RetentionKind = keyof typeof RETENTION_DAYS;

export const DAY_MS = 86_400_000;

/** Anything last written before this instant is past its period at `now`. */
export function retentionCutoff(kind: RetentionKind, now: Date): Date {
  return new Date(now.getTime() - RETENTION_DAYS[kind] * DAY_MS);
}

/** Whole days between `then` and `now`. */
export function ageInDays(then: Date, now: Date): number {
  return Math.floor((now.getTime() - then.getTime()) / DAY_MS);
}

/** One thing a retention pass found past its period (and deletes, unless it only plans). */
export interface RetentionItem {
  kind: RetentionKind;
  /** A file or directory path, `metadata: agent_logs`, or `secret: <parameter name>`. */
  target: string;
  /** What it is, for people. */
  detail: string;
  bytes: number;
  age_days: number;
  /** The host whose file it is, when the pass ran on several hosts. */
  host?: string;
}
