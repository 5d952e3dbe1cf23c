/**
 * The warehouse stages as the workflow runs them, straight from the stage table
 * (docs/architecture.md#the-stage-table): each stage's activity is called with the project's request,
 * its result kept on the view under the stage's `view` key, and the line below is what the project's
 * phase and events say when it completes. A stage in the table without a line here, or whose activity
 * the warehouse worker does not register, or whose result does not fit its key on the view, is a
 * compile error.
 */
import { ApplicationFailure, patched } from '@temporalio/workflow';
import type { WarehouseActivities } from '../../activities/analysis/warehouse-activities';
import { ANALYSIS_STAGES, type AnalysisStage } from '../../shared/analysis-stages';
import type { Prd } from '../../shared/prd-schema';
import type { ProjectView } from '../../shared/project-model';
import type { ProjectProgress } from './project-progress';

/** A stage after data integration: one activity whose result the view keeps. */
type WarehouseStage = Extract<(typeof ANALYSIS_STAGES)[number], { view: string }>;
type WarehousePhase = WarehouseStage['phase'];
type StageOf<P extends WarehousePhase> = Extract<WarehouseStage, { phase: P }>;
type ResultOf<P extends WarehousePhase> = WarehouseActivities[StageOf<P>['activities'][number]] extends (
  ...args: never[]
) => Promise<infer R>
  ? R
  : never;
type WarehouseView = NonNullable<ProjectView['warehouse']>;

/** How a stage's result reads on the project, and what more it changes. */
interface StageOutcome<R> {
  /** The phase's message when the stage completes. */
  summary(result: R): string;
  /** A failure that stops the project after this result (the result stays on the view). */
  blocks?(result: R): ApplicationFailure | undefined;
  /** What the result changes beyond its key on the view. */
  alsoRecord?(result: R, progress: ProjectProgress): void;
}

const OUTCOMES: {
  [P in WarehousePhase]: StageOutcome<ResultOf<P>> &
    (ResultOf<P> extends WarehouseView[StageOf<P>['view']] ? unknown : { resultDoesNotFitTheView: never });
} = {
  data_modeling: {
    summary: (m) => m.layers.map((l) => `${l.database}: ${l.tables.length} tables`).join('; '),
    alsoRecord: (m, progress) => {
      if (m.usage.length) progress.addCost(m.usage);
    },
  },
  data_governance: {
    summary: (g) =>
      `${g.rules_passed}/${g.rules_total} quality rules passed${g.rules_failed ? `, ${g.rules_failed} warnings failed` : ''}; ${g.catalog_tables} tables in the catalog`,
    blocks: (g) =>
      g.blocking_failed.length
        ? ApplicationFailure.nonRetryable(
            `blocking quality rules failed: ${g.blocking_failed.join('; ')}`,
            'BlockingQualityRuleFailed',
          )
        : undefined,
  },
  query_building: {
    summary: (m) => `${m.valid.length}/${m.metrics_total} metrics valid`,
  },
  visualization: {
    summary: (v) => `${v.dashboards} dashboards, ${v.charts} charts`,
    alsoRecord: (v, progress) => (progress.view.bi_dashboard_url = v.url),
  },
  analytics_advisor: {
    summary: (p) => `data profile scored ${p.overall_score}/100 with ${p.insights} key insights`,
  },
  production_pipeline: {
    summary: (p) => `${p.files.length} template files`,
  },
};

/** The warehouse stages in the order they run. */
const WAREHOUSE_STAGES = ANALYSIS_STAGES.filter((s): s is WarehouseStage => 'view' in s);

/** Every warehouse stage in turn, each recorded on the view as it completes. */
export async function buildWarehouse(
  progress: ProjectProgress,
  request: { project_id: string; prd: Prd },
  activitiesOf: (stage: AnalysisStage) => WarehouseActivities,
): Promise<void> {
  for (const stage of WAREHOUSE_STAGES) {
    if (addedAfterThisProjectPassed(stage)) {
      // Nothing is saved here: a save is an activity, which the project's history does not hold.
      progress.setPhase(stage.phase, 'skipped', 'added to plat after this project had passed this point');
      continue;
    }
    await runStage(progress, stage, request, activitiesOf(stage));
  }
}

/** A stage with a patch (`since`) that this project's history did not take: it came too late. */
function addedAfterThisProjectPassed(stage: AnalysisStage): boolean {
  return stage.since !== undefined && !patched(stage.since);
}

async function runStage<P extends WarehousePhase>(
  progress: ProjectProgress,
  stage: StageOf<P>,
  request: { project_id: string; prd: Prd },
  activities: WarehouseActivities,
): Promise<void> {
  const outcome = OUTCOMES[stage.phase as P] as StageOutcome<ResultOf<P>>;
  const record = (result: ResultOf<P>) => {
    progress.view.warehouse = { ...progress.view.warehouse, [stage.view]: result };
    outcome.alsoRecord?.(result, progress);
  };
  const [activity] = stage.activities;
  const run = activities[activity] as (r: typeof request) => Promise<ResultOf<P>>;
  await progress.stage(
    stage.phase,
    async () => {
      const result: ResultOf<P> = await run(request);
      const failure = outcome.blocks?.(result);
      if (failure) {
        record(result);
        throw failure;
      }
      return result;
    },
    outcome.summary,
    record,
  );
}
