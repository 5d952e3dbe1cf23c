/**
 * The activities of a refresh (docs/refresh.md#the-refresh-workflow): its start and end, recorded on
 * the project, the source's changes merged into the ODS, and the layers rebuilt. One file each under
 * `refresh/`, bound here to their dependencies; the two that work on files heartbeat every 5 s.
 */
import { bindDeps } from '../bind-deps';
import { heartbeating } from '../heartbeating';
import { rebuildProjectWarehouse } from './refresh/rebuild-project-warehouse';
import type { RefreshDeps } from './refresh/refresh-deps';
import { refreshProjectOds } from './refresh/refresh-project-ods';
import { finishRefresh, startRefresh } from './refresh/start-refresh';

export type { RecordRefreshRequest, RefreshRequest } from './refresh/refresh-deps';
export type { RefreshTarget } from './refresh/start-refresh';
export type { OdsRefreshSummary } from './refresh/refresh-project-ods';

export function createRefreshActivities(deps: RefreshDeps) {
  const bound = bindDeps(deps, { startRefresh, finishRefresh, refreshProjectOds, rebuildProjectWarehouse });
  return {
    startRefresh: bound.startRefresh,
    finishRefresh: bound.finishRefresh,
    refreshProjectOds: heartbeating(bound.refreshProjectOds),
    rebuildProjectWarehouse: heartbeating(bound.rebuildProjectWarehouse),
  };
}

export type RefreshActivities = ReturnType<typeof createRefreshActivities>;
