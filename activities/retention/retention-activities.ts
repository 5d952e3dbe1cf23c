/**
 * The daily retention pass (docs/monitoring.md#retention): removes what is past its period from the
 * data directory, and makes sure plat's log indices in OpenSearch and the Athena warehouse's buckets
 * carry their retention policies and lifecycle rules, where those are configured. With `dry_run`,
 * lists what would go and changes nothing.
 */
import { heartbeat } from '@temporalio/activity';
import {
  applyLocalRetention,
  planLocalRetention,
  type LocalRetentionScope,
} from '../../domain/retention/local-retention';
import { RETENTION_DAYS, type RetentionKind } from '../../domain/retention/retention-periods';
import { applyLifecycleRules } from '../../domain/retention/s3-lifecycle';
import type { WarehouseS3Retention } from '../../domain/retention/warehouse-s3-retention';
import type { RetentionReport, RetentionRequest } from '../../domain/retention/retention-report';
import type { OpenSearchClient } from '../../domain/search-ops/opensearch-client';
import { ensurePlatLogIndices, PLAT_LOG_INDICES } from '../../domain/search-ops/plat-logs/plat-log-indices';

export function createRetentionActivities(deps: {
  retention: LocalRetentionScope;
  search?: OpenSearchClient;
  /** The Athena warehouse's buckets, whose lifecycle rules the pass keeps. */
  retentionS3?: WarehouseS3Retention;
}) {
  return {
    async applyRetention(req: RetentionRequest): Promise<RetentionReport> {
      const now = new Date(req.now);
      if (Number.isNaN(now.getTime())) throw new Error(`applyRetention: not an instant: ${req.now}`);
      const items = await planLocalRetention(deps.retention, now);
      heartbeat(items.length);
      if (!req.dry_run) await applyLocalRetention(deps.retention, items, now);
      const policies = Object.fromEntries(
        Object.entries(PLAT_LOG_INDICES).map(([name, spec]) => [name, spec.retention_days]),
      );
      let state: RetentionReport['opensearch']['state'] = 'not configured';
      if (deps.search) {
        if (!req.dry_run) await ensurePlatLogIndices(deps.search);
        state = req.dry_run ? 'would apply policies' : 'policies applied';
      }
      const s3 = deps.retentionS3
        ? await applyLifecycleRules(deps.retentionS3.client, deps.retentionS3.buckets, req.dry_run)
        : [];
      const totals = Object.fromEntries(
        (Object.keys(RETENTION_DAYS) as RetentionKind[]).map((kind) => {
          const mine = items.filter((i) => i.kind === kind);
          return [kind, { items: mine.length, bytes: mine.reduce((n, i) => n + i.bytes, 0) }];
        }),
      ) as RetentionReport['totals'];
      return {
        now: req.now,
        dry_run: req.dry_run,
        periods_days: RETENTION_DAYS,
        items,
        totals,
        opensearch: { state, policies },
        s3_lifecycle: s3,
        notes: [
          'query results: none kept locally (the embedded engine answers queries directly)',
          'Temporal, MariaDB, OpenSearch, Prometheus and Alertmanager logs are theirs: not covered',
        ],
      };
    },
  };
}
