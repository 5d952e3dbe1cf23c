/**
 * The lifecycle engine's activity (docs/search-lifecycle.md#lifecycle-engine): one pass over every
 * managed index, on the workflow's clock. It does nothing where the cluster runs ISM (ISM applies the
 * same policies itself) or where no OpenSearch is configured, and says which.
 */
import { heartbeat, log } from '@temporalio/activity';
import type { PassSummary } from '../../domain/search-ops/lifecycle/lifecycle-pass';
import { SERVERLESS_HAS_NO_LIFECYCLE } from '../../domain/search-ops/lifecycle/lifecycle-manager';
import { lifecyclePass } from '../../domain/search-ops/lifecycle/lifecycle-pass';
import type { OpenSearchClient } from '../../domain/search-ops/opensearch-client';
import { ISM_PLUGIN } from '../../domain/search-ops/rolling-index-bootstrap';

export interface LifecycleDeps {
  /** The cluster, when OPENSEARCH_URL is set. */
  search?: OpenSearchClient;
}

export type LifecyclePassResult =
  ({ engine: 'plat' } & PassSummary) | { engine: 'none' | 'ism'; skipped: string };

export function createLifecycleActivities(deps: LifecycleDeps) {
  return {
    /** One engine pass; `now` is the workflow's time (ms). */
    async runLifecyclePass(input: { now: number }): Promise<LifecyclePassResult> {
      if (!deps.search) return { engine: 'none', skipped: 'no OpenSearch is configured (OPENSEARCH_URL)' };
      if (deps.search.awsService === 'aoss') return { engine: 'none', skipped: SERVERLESS_HAS_NO_LIFECYCLE };
      if ((await deps.search.plugins()).includes(ISM_PLUGIN))
        return { engine: 'ism', skipped: 'the cluster runs ISM, which applies the policies itself' };
      const summary = await lifecyclePass(deps.search, input.now, {
        onProgress: (stepped, total) => heartbeat({ stepped, total }),
      });
      for (const { message, ...e } of summary.events) log.info(`lifecycle: ${message}`, e);
      return { engine: 'plat', ...summary };
    },
  };
}

export type LifecycleActivities = ReturnType<typeof createLifecycleActivities>;
