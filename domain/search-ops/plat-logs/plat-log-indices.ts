/**
 * plat's own logs in OpenSearch (docs/search-lifecycle.md#plats-own-logs): two rolling indices
 * bootstrapped by the same code users run, each with a retention policy: agent logs 30 days, API
 * access logs 14 days (the platform's retention requirements).
 */
import { RETENTION_DAYS } from '../../retention/retention-periods';
import type { OpenSearchClient } from '../opensearch-client';
import { setUpRollingIndex, type SetupReport } from '../lifecycle/rolling-index-setup';

export const AGENT_LOGS = 'plat-agent-logs';
export const ACCESS_LOGS = 'plat-access-logs';

const keyword = { type: 'keyword' };
const long = { type: 'long' };
const timestamp = { type: 'date' };

export const PLAT_LOG_INDICES = {
  [AGENT_LOGS]: {
    retention_days: RETENTION_DAYS.agent_logs,
    properties: {
      '@timestamp': timestamp,
      log_key: keyword,
      project_id: keyword,
      agent: keyword,
      phase: keyword,
      tool: keyword,
      // Tool parameters differ per tool: kept in the document, not mapped field by field.
      params: { type: 'object', enabled: false },
      summary: {
        type: 'text',
        term_vector: 'with_positions_offsets',
        fields: { keyword: { type: 'keyword', ignore_above: 256 } },
      },
      duration_ms: long,
      input_tokens: long,
      output_tokens: long,
    },
  },
  [ACCESS_LOGS]: {
    retention_days: RETENTION_DAYS.access_logs,
    properties: {
      '@timestamp': timestamp,
      method: keyword,
      path: keyword,
      status: { type: 'short' },
      duration_ms: long,
      user_id: keyword,
    },
  },
} as const;

/**
 * Bootstraps both indices with their policies (idempotent). Two plat processes may start at once:
 * the one that loses a creation race runs again and finds everything in place.
 */
export async function ensurePlatLogIndices(client: OpenSearchClient): Promise<SetupReport[]> {
  const reports: SetupReport[] = [];
  for (const [name, spec] of Object.entries(PLAT_LOG_INDICES)) {
    const setUp = () =>
      setUpRollingIndex(
        client,
        name,
        { shards: 1, replicas: 1, refresh_interval: '5s', properties: spec.properties, dynamic: false },
        { policy: 'retention', retention_days: spec.retention_days },
      );
    let report: SetupReport;
    try {
      report = await setUp();
      if (report.conflicts.length) report = await setUp();
    } catch {
      report = await setUp();
    }
    if (report.conflicts.length) throw new Error(`cannot set up ${name}: ${report.conflicts.join('; ')}`);
    reports.push(report);
  }
  return reports;
}
