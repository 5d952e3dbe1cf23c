/**
 * Activities of the warehouse stages after approval: data modeling, data governance, query
 * building, visualization, the analytics advisor and the production pipeline, one file each under
 * `warehouse/` (docs/architecture.md#the-stage-table). Each writes its full report as a project
 * artifact (served by the API) and returns a summary for the project view.
 */
import { bindDeps } from '../bind-deps';
import { allHeartbeating } from '../heartbeating';
import { buildDashboards } from './warehouse/build-dashboards';
import { buildWarehouseModel } from './warehouse/build-warehouse-model';
import { generatePipeline } from './warehouse/generate-pipeline';
import { governWarehouse } from './warehouse/govern-warehouse';
import { profileData } from './warehouse/profile-data';
import { validateMetricSql } from './warehouse/validate-metric-sql';
import type { WarehouseActivityDeps } from './warehouse/warehouse-deps';

export type { ModelScripts, WarehouseActivityDeps, WarehouseStageRequest } from './warehouse/warehouse-deps';

/** The warehouse stages' activities, bound to their dependencies, each heartbeating while it runs. */
export function createWarehouseActivities(deps: WarehouseActivityDeps) {
  return allHeartbeating(
    bindDeps(deps, {
      buildWarehouseModel,
      governWarehouse,
      validateMetricSql,
      buildDashboards,
      profileData,
      generatePipeline,
    }),
  );
}

export type WarehouseActivities = ReturnType<typeof createWarehouseActivities>;
