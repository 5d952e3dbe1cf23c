/**
 * The activity options of each stage, from the stage table (docs/architecture.md#the-stage-table),
 * as the workflow hands them to Temporal.
 */
import type { ActivityOptions } from '@temporalio/workflow';
import {
  ANALYSIS_STAGES,
  type AnalysisStage,
  type PhaseName,
  type StageActivityOptions,
} from '../../shared/analysis-stages';

/** The options of `phase`'s activities, or of its `activity` where the table gives that one its own. */
export function stageOptions(phase: PhaseName, activity?: string): ActivityOptions {
  const stage: AnalysisStage = ANALYSIS_STAGES.find((s) => s.phase === phase)!;
  return activityOptions((activity && stage.activityOptions?.[activity]) || stage.options);
}

/** A table entry's options as Temporal's type has them (its lists are not read-only). */
export function activityOptions(options: StageActivityOptions): ActivityOptions {
  return {
    ...options,
    retry: { ...options.retry, nonRetryableErrorTypes: [...options.retry.nonRetryableErrorTypes] },
  };
}
