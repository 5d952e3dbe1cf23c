/**
 * Data integration in parts (docs/fleet.md#ingestion-in-parts): the copy is planned, each part is an
 * activity of its own that any worker of the project's host takes (heartbeating, resumable), and a
 * last activity merges the parts into the ODS and applies the one-snapshot rule. One file each under
 * `ingestion/`, bound here to their dependencies.
 */
import { bindDeps } from '../bind-deps';
import { heartbeating } from '../heartbeating';
import { copyOdsPart } from './ingestion/copy-ods-part';
import { finishOds } from './ingestion/finish-ods';
import type { IngestionDeps } from './ingestion/ingestion-deps';
import { planOdsCopy } from './ingestion/plan-ods-copy';
import { reuseEarlierOds } from './ingestion/reuse-earlier-ods';

export type { CopyOdsPartRequest, FinishOdsRequest } from './ingestion/ingestion-deps';

/** The reuse, the copy's plan, parts and finish; the part heartbeats its own checkpoint, the others every 5 s. */
export function createOdsPartActivities(deps: IngestionDeps) {
  const bound = bindDeps(deps, { reuseEarlierOds, planOdsCopy, copyOdsPart, finishOds });
  return {
    reuseEarlierOds: heartbeating(bound.reuseEarlierOds),
    planOdsCopy: heartbeating(bound.planOdsCopy),
    copyOdsPart: bound.copyOdsPart,
    finishOds: heartbeating(bound.finishOds),
  };
}

export type OdsPartActivities = ReturnType<typeof createOdsPartActivities>;
