/**
 * Retention on the local data directory (docs/monitoring.md#retention): what is past its period at
 * `now`, and removing it. Plans first, so a dry run lists exactly what a real run removes:
 * - the gateway's and the memory service's daily log files (API access logs) and the worker's
 *   (function logs), a day's file once its last possible line is older than the period;
 * - agent-log rows of the metadata store;
 * - each project's ODS, once its newest file is older than the period (the schema it was read with
 *   stays, so the project still says what its source looked like);
 * - each ended project's source password (source-password-retention.ts).
 * Query results are not kept locally: the embedded engine answers them directly.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sql } from 'kysely';
import type { MetadataDb } from '../metadata-store/metadata-db';
import type { ParameterStore } from '../secrets/parameter-store';
import { isProjectDirName, layerDir } from '../warehouse/warehouse-layout';
import { parseDailyLogName } from './daily-log-names';
import { ageInDays, retentionCutoff, type RetentionItem, type RetentionKind } from './retention-periods';
import { applySourcePasswords, planSourcePasswords } from './source-password-retention';

/** One thing past its period. */
export type { RetentionItem } from './retention-periods';

export interface LocalRetentionScope {
  /** Where the launcher writes plat's daily log files. */
  logDir: string;
  warehouseRoot: string;
  db: MetadataDb;
  /** The parameter store whose ended projects' source passwords go (none: not covered). */
  secrets?: ParameterStore;
}

/** Which retention period a service's log has. */
const LOG_KIND: Record<string, RetentionKind> = {
  gateway: 'access_logs',
  memory: 'access_logs',
  worker: 'function_logs',
};

export async function planLocalRetention(scope: LocalRetentionScope, now: Date): Promise<RetentionItem[]> {
  return [
    ...logFiles(scope.logDir, now),
    ...(await agentLogRows(scope.db, now)),
    ...odsDirs(scope.warehouseRoot, now),
    ...(scope.secrets ? await planSourcePasswords(scope.secrets, scope.db, now) : []),
  ];
}

/** The files of this host alone (its logs and ODS), for a pass run on every host. */
export function planHostFiles(
  scope: Pick<LocalRetentionScope, 'logDir' | 'warehouseRoot'>,
  now: Date,
): RetentionItem[] {
  return [...logFiles(scope.logDir, now), ...odsDirs(scope.warehouseRoot, now)];
}

/** Removes the planned `items`; `now` must be the instant they were planned at. */
export async function applyLocalRetention(
  scope: LocalRetentionScope,
  items: RetentionItem[],
  now: Date,
): Promise<void> {
  for (const item of items) {
    if (item.kind === 'agent_logs' || item.kind === 'source_passwords') continue;
    if (item.kind === 'ods_objects') {
      for (const file of odsDataFiles(item.target)) fs.rmSync(file, { force: true });
    } else {
      fs.rmSync(item.target, { force: true });
    }
  }
  if (items.some((i) => i.kind === 'agent_logs')) {
    const cutoff = retentionCutoff('agent_logs', now).toISOString();
    await scope.db.db.deleteFrom('agent_logs').where('timestamp', '<', cutoff).execute();
  }
  if (scope.secrets) await applySourcePasswords(scope.secrets, items);
}

/** plat's services' daily log files (daily-log-names.ts) whose last line is past the period. */
function logFiles(logDir: string, now: Date): RetentionItem[] {
  if (!fs.existsSync(logDir)) return [];
  const items: RetentionItem[] = [];
  for (const name of fs.readdirSync(logDir)) {
    const log = parseDailyLogName(name);
    const kind = log && LOG_KIND[log.service];
    if (!log || !kind || log.lastLine >= retentionCutoff(kind, now)) continue;
    const file = path.join(logDir, name);
    items.push({
      kind,
      target: file,
      detail: `${log.service} log of ${log.earlier ? 'the days before ' : ''}${log.day}`,
      bytes: fs.statSync(file).size,
      age_days: ageInDays(log.lastLine, now),
    });
  }
  return items;
}

async function agentLogRows(metadata: MetadataDb, now: Date): Promise<RetentionItem[]> {
  const cutoff = retentionCutoff('agent_logs', now).toISOString();
  const row = await metadata.db
    .selectFrom('agent_logs')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.min('timestamp').as('oldest'),
      sql<number>`COALESCE(SUM(LENGTH(params_json) + LENGTH(summary)), 0)`.as('bytes'),
    ])
    .where('timestamp', '<', cutoff)
    .executeTakeFirstOrThrow();
  if (!Number(row.n)) return [];
  return [
    {
      kind: 'agent_logs',
      target: 'metadata: agent_logs',
      detail: `${row.n} agent-log entries`,
      bytes: Number(row.bytes),
      age_days: ageInDays(new Date(row.oldest!), now),
    },
  ];
}

/**
 * The ODS's data: everything in the layer's directory but the source schema it was read with,
 * including the key-range files of a copy in parts (`parts/<table>/…`) that never got merged.
 */
function odsDataFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name !== 'source-schema.json')
    .map((name) => path.join(dir, name))
    .filter((file) => fs.statSync(file).isFile());
}

function odsDirs(warehouseRoot: string, now: Date): RetentionItem[] {
  if (!fs.existsSync(warehouseRoot)) return [];
  const items: RetentionItem[] = [];
  const cutoff = retentionCutoff('ods_objects', now);
  // Projects' own directories only: not the sessions' spill folder, not a link leading elsewhere.
  const projects = fs
    .readdirSync(warehouseRoot, { withFileTypes: true })
    .filter((e) => e.isDirectory() && isProjectDirName(e.name))
    .map((e) => e.name);
  for (const project of projects) {
    const dir = layerDir(warehouseRoot, project, 'ods');
    const files = odsDataFiles(dir);
    if (!files.length) continue;
    const stats = files.map((f) => fs.statSync(f));
    const newest = new Date(Math.max(...stats.map((s) => s.mtimeMs)));
    if (newest >= cutoff) continue;
    items.push({
      kind: 'ods_objects',
      target: dir,
      detail: `ODS of ${project}: ${files.length} file${files.length === 1 ? '' : 's'}`,
      bytes: stats.reduce((n, s) => n + s.size, 0),
      age_days: ageInDays(newest, now),
    });
  }
  return items;
}
