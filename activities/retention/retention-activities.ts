/**
 * The daily retention pass (docs/monitoring.md#retention): removes what is past its period from the
 * data directory, and makes sure plat's log indices in OpenSearch and the Athena warehouse's buckets
 * carry their retention policies and lifecycle rules, where those are configured. With `dry_run`,
 * lists what would go and changes nothing.
 */
import { heartbeat } from '@temporalio/activity';
import {
  applyLocalRetention,
  planHostFiles,
  planLocalRetention,
  type LocalRetentionScope,
} from '../../domain/retention/local-retention';
import { RETENTION_DAYS } from '../../domain/retention/retention-periods';
import { applyLifecycleRules } from '../../domain/retention/s3-lifecycle';
import type { WarehouseS3Retention } from '../../domain/retention/warehouse-s3-retention';
import {
  retentionTotals,
  type HostRetentionReport,
  type RetentionReport,
  type RetentionRequest,
} from '../../domain/retention/retention-report';
import { HOST_BEAT_MS, type WorkerHostRegistry } from '../../domain/fleet/worker-host-registry';
import type { OpenSearchClient } from '../../domain/search-ops/opensearch-client';
import { ensurePlatLogIndices, PLAT_LOG_INDICES } from '../../domain/search-ops/plat-logs/plat-log-indices';

export function createRetentionActivities(deps: {
  retention: LocalRetentionScope;
  search?: OpenSearchClient;
  /** The Athena warehouse's buckets, whose lifecycle rules the pass keeps. */
  retentionS3?: WarehouseS3Retention;
  /** This worker's host and the registry of the others, whose files the workflow then covers. */
  host?: { id: string; registry: WorkerHostRegistry };
}) {
  const instant = (req: RetentionRequest) => {
    const now = new Date(req.now);
    if (Number.isNaN(now.getTime())) throw new Error(`retention: not an instant: ${req.now}`);
    return now;
  };
  return {
    /**
     * The pass: this host's files, the shared agent-log rows, OpenSearch's policies and S3's rules;
     * names the other live hosts for the workflow to send `applyHostRetention` to.
     */
    async applyRetention(req: RetentionRequest): Promise<RetentionReport> {
      const now = instant(req);
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
      // Hosts stamped within three beats: the ones whose workers will take the task now.
      const others = deps.host
        ? (await deps.host.registry.liveHosts(3 * HOST_BEAT_MS))
            .map((h) => h.host_id)
            .filter((id) => id !== deps.host!.id)
        : [];
      return {
        now: req.now,
        dry_run: req.dry_run,
        periods_days: RETENTION_DAYS,
        items,
        totals: retentionTotals(items),
        opensearch: { state, policies },
        s3_lifecycle: s3,
        notes: [
          'query results: none kept locally (the embedded engine answers queries directly)',
          'Temporal, MariaDB, OpenSearch, Prometheus and Alertmanager logs are theirs: not covered',
        ],
        ...(deps.host ? { host_id: deps.host.id, other_hosts: others } : {}),
      };
    },

    /** The pass over this host's own files (its logs and ODS), run on its host queue. */
    async applyHostRetention(req: RetentionRequest): Promise<HostRetentionReport> {
      const now = instant(req);
      const items = planHostFiles(deps.retention, now);
      heartbeat(items.length);
      if (!req.dry_run) await applyLocalRetention(deps.retention, items, now);
      return { host_id: deps.host?.id ?? 'this host', items };
    },
  };
}
