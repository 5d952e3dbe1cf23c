/** What the retention pass is asked and what it answers (the worker's activity, the CLI's output). */
import type { RetentionItem } from './local-retention';
import { RETENTION_DAYS, type RetentionKind } from './retention-periods';
import { totalsByKind } from '../../shared/totals-by-kind';
import type { BucketLifecycle } from './s3-lifecycle';

export interface RetentionRequest {
  /** The pass's instant (the workflow's clock): periods count back from it. */
  now: string;
  dry_run: boolean;
}

export interface RetentionReport {
  now: string;
  dry_run: boolean;
  periods_days: typeof RETENTION_DAYS;
  /** What was removed (with `dry_run`: what would be). */
  items: RetentionItem[];
  totals: Record<RetentionKind, { items: number; bytes: number }>;
  /** plat's log indices in OpenSearch and the retention their policies apply. */
  opensearch: {
    state: 'not configured' | 'policies applied' | 'would apply policies';
    policies: Record<string, number>;
  };
  /** The Athena warehouse's buckets and plat's lifecycle rules on them (none: not configured). */
  s3_lifecycle: BucketLifecycle[];
  notes: string[];
  /** The host whose worker ran the pass (its files are among `items`). */
  host_id?: string;
  /** Every host whose files the pass covered, or could not reach (docs/fleet.md#when-a-host-is-lost). */
  hosts?: { host_id: string; state: 'done' | 'not reached'; items: number }[];
  /** Other live hosts, whose files the workflow then sends the pass to. */
  other_hosts?: string[];
}

/** What one host's files came to (`applyHostRetention`). */
export interface HostRetentionReport {
  host_id: string;
  items: RetentionItem[];
}

/** Items and bytes per kind. */
export function retentionTotals(items: RetentionItem[]): RetentionReport['totals'] {
  return totalsByKind(Object.keys(RETENTION_DAYS) as RetentionKind[], items);
}
