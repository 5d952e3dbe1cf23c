/** What the retention pass is asked and what it answers (the worker's activity, the CLI's output). */
import type { RetentionItem } from './local-retention';
import type { RETENTION_DAYS, RetentionKind } from './retention-periods';
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
}
