/**
 * analysisProject (workflow id = project id): PRD → human decision → warehouse stages.
 * Durable: a worker restart while the project waits for approval loses nothing. The bookkeeping
 * (view, events, phases, cost) is in `project-progress.ts`, the decision's handlers in
 * `approval-gate.ts`; this file is the sequence of stages. Before changing the order of anything
 * that issues a command here, read docs/architecture.md#changing-workflow-code.
 */
import {
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  patched,
  proxyActivities,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { AnalysisActivities } from '../../activities/analysis/analysis-activities';
import type { WarehouseActivities } from '../../activities/analysis/warehouse-activities';
import type { OdsPartActivities } from '../../activities/analysis/ods-part-activities';
import type { OdsPartCopy } from '../../domain/warehouse/ods-assembly';
import type { Prd } from '../../shared/prd-schema';
import type { AnalysisStage } from '../../shared/analysis-stages';
import type { AnalysisProjectInput, OdsSummary, ProjectView } from '../../shared/project-model';
import { ApprovalGate } from './approval-gate';
import { ProjectProgress } from './project-progress';
import { claimHost, HostLost, onHost, type ProjectHost } from './project-host';
import { activityOptions, stageOptions } from './stage-options';
import { buildWarehouse } from './warehouse-stages';
import { workloadActivities } from '../fleet/workload-activities';

/**
 * Projects started after this patch run their stages by workload queue and on the host holding their
 * files (docs/fleet.md#task-queues); older ones finish on the single queue they started on.
 */
const FLEET_PATCH = 'project-host-queues';
/**
 * Projects copying their source after this patch plan the copy and take it in parts
 * (docs/fleet.md#ingestion-in-parts); older ones copy it in one activity.
 */
const PARTS_PATCH = 'ods-in-parts';
/**
 * Projects reusing an earlier project's ODS after this patch do so in an activity of their own and,
 * when it cannot be reused, copy in parts too; older ones reuse or copy in the one activity.
 */
const REUSE_PATCH = 'ods-reuse-in-parts';
/** Parts copied at once: enough for two workers' host slots (4 each by default). */
const PARTS_IN_FLIGHT = 8;

// Each stage's limits and retries are in the stage table (shared/analysis-stages.ts).
const PRD_OPTIONS = stageOptions('prd');
const INGEST_OPTIONS = stageOptions('data_ingestion');
const PLAN_OPTIONS = stageOptions('data_ingestion', 'planOdsCopy');
const REUSE_OPTIONS = stageOptions('data_ingestion', 'reuseEarlierOds');
const FINISH_OPTIONS = stageOptions('data_ingestion', 'finishOds');

/** Where each stage's activities run. */
interface Stages {
  prd: Pick<AnalysisActivities, 'generatePrd'>;
  ods: Pick<AnalysisActivities, 'ingestOds'>;
  /** The copy in parts (projects on a host only). */
  parts?: {
    reuse: Pick<OdsPartActivities, 'reuseEarlierOds'>;
    plan: Pick<OdsPartActivities, 'planOdsCopy'>;
    copy: Pick<OdsPartActivities, 'copyOdsPart'>;
    finish: Pick<OdsPartActivities, 'finishOds'>;
  };
  /** The activities of one warehouse stage, called with that stage's options. */
  warehouse: (stage: AnalysisStage) => WarehouseActivities;
}

/** A project started before FLEET_PATCH: every activity on the workflow's own queue. */
const singleQueue: Stages = {
  prd: proxyActivities<AnalysisActivities>(PRD_OPTIONS),
  ods: proxyActivities<AnalysisActivities>(INGEST_OPTIONS),
  warehouse: (stage) => proxyActivities<WarehouseActivities>(activityOptions(stage.options)),
};

/**
 * The PRD on the agents queue; the copy on the queue of the host that holds the files, and the later
 * stages there too, or with Athena (nothing to read from the host's disk) on the shared warehouse queue.
 */
const fleetPrd = () => workloadActivities<AnalysisActivities>('agents', PRD_OPTIONS);
function hostStages(host: ProjectHost): Omit<Stages, 'prd'> {
  // Every stage heartbeats every 5 s: a host that dies mid-stage is noticed within seconds.
  const warehouseOptions = (stage: AnalysisStage): ActivityOptions => ({
    ...activityOptions(stage.options),
    heartbeatTimeout: '30 seconds',
  });
  return {
    ods: onHost<AnalysisActivities>(host, { ...INGEST_OPTIONS, heartbeatTimeout: '15 seconds' }),
    parts: {
      reuse: onHost<OdsPartActivities>(host, REUSE_OPTIONS),
      plan: onHost<OdsPartActivities>(host, PLAN_OPTIONS),
      copy: onHost<OdsPartActivities>(host, { ...INGEST_OPTIONS, heartbeatTimeout: '15 seconds' }),
      finish: onHost<OdsPartActivities>(host, FINISH_OPTIONS),
    },
    warehouse: (stage) =>
      host.stages_anywhere
        ? workloadActivities<WarehouseActivities>('warehouse', warehouseOptions(stage))
        : onHost<WarehouseActivities>(host, warehouseOptions(stage)),
  };
}

export async function analysisProject(input: AnalysisProjectInput): Promise<ProjectView> {
  const progress = new ProjectProgress(input);
  const { view } = progress;
  const gate = new ApprovalGate(view);
  const fleet = patched(FLEET_PATCH);
  try {
    const prd = await writePrd(progress, input, fleet ? fleetPrd() : singleQueue.prd);
    const decision = await gate.decision();
    view.decision = {
      decision: decision.decision,
      reason: decision.reason,
      decided_at: new Date().toISOString(),
    };
    if (decision.decision === 'reject') {
      progress.setPhase('prd', 'completed', 'PRD rejected');
      progress.skipAfterPrd('PRD rejected');
      progress.finish(
        'terminated',
        'project_terminated',
        `PRD rejected${decision.reason ? `: ${decision.reason}` : ''}`,
      );
      await progress.save();
      return view;
    }
    view.prd = decision.prd ?? prd;
    view.status = 'running';
    progress.setPhase(
      'prd',
      'completed',
      decision.decision === 'modify' ? 'PRD edited and approved' : 'PRD approved',
    );
    await progress.save();

    const ods = fleet ? await buildOnAHost(progress, input) : await buildAll(progress, input, singleQueue);
    progress.finish(
      'completed',
      'project_completed',
      `warehouse built: ${ods.rows_copied} rows in ODS, ${view.warehouse!.metrics!.valid.length} valid metrics, dashboard at ${view.bi_dashboard_url}`,
    );
    await progress.save();
    return view;
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(async () => {
        progress.markUnfinished('skipped', 'cancelled');
        progress.finish('cancelled', 'project_cancelled', 'project cancelled');
        await progress.save();
      });
      throw err;
    }
    const message =
      err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    progress.failCurrentPhase(message);
    progress.finish('failed', 'project_failed', `${view.phase} failed: ${message}`);
    await progress.save();
    throw ApplicationFailure.nonRetryable(`phase ${view.phase} failed: ${message}`, 'ProjectFailed');
  }
}

/** The PRD stage: the agent explores the source and writes the PRD, then the project waits for a person. */
async function writePrd(
  progress: ProjectProgress,
  input: AnalysisProjectInput,
  agents: Stages['prd'],
): Promise<Prd> {
  const { view } = progress;
  progress.setPhase('prd', 'running');
  await progress.save();
  const { prd, usage } = await agents.generatePrd({
    project_id: view.project_id,
    description: input.description,
    source: input.source,
  });
  view.prd = prd;
  progress.addCost(usage);

  view.status = 'waiting_approval';
  view.message = `PRD ready (${prd.industry.name}, ${prd.fact_tables.length} fact tables): approve, modify or reject it`;
  progress.setPhase('prd', 'waiting_approval');
  progress.event('hitl_required', view.message, {
    decision_options: ['approve', 'modify', 'reject'],
    analyst: prd.analyst,
  });
  // Durable: a decision sent as soon as the store says waiting_approval must find the gate open in the
  // workflow's history, even if this worker dies at once.
  await progress.save({ durable: true });
  return prd;
}

/**
 * Ingestion and the warehouse stages on the host a worker of the ingestion queue claims. When that
 * host is lost, its files are gone with it: the project says so and starts over from the source on
 * another host.
 */
async function buildOnAHost(progress: ProjectProgress, input: AnalysisProjectInput): Promise<OdsSummary> {
  const { view } = progress;
  const lost: string[] = [];
  for (;;) {
    const host = await claimHost({ project_id: view.project_id, reuse_from: input.reuse_ods_from, lost });
    view.warehouse = { ...view.warehouse, host: host.host_id };
    try {
      return await buildAll(progress, input, hostStages(host));
    } catch (err) {
      if (!(err instanceof HostLost)) throw err;
      lost.push(host.host_id);
      progress.startOverAfterPrd(
        `${err.message}: its copy of the data is lost with it; copying the source again on another host`,
        { host_lost: host.host_id },
      );
      await progress.save();
    }
  }
}

/** Data integration, then the warehouse stages, each recorded on the view as it completes. */
async function buildAll(
  progress: ProjectProgress,
  input: AnalysisProjectInput,
  stages: Omit<Stages, 'prd'>,
): Promise<OdsSummary> {
  const { view } = progress;
  const ods = await progress.stage(
    'data_ingestion',
    () =>
      // Each patch is asked under the same condition as when it was added: recorded histories replay.
      stages.parts && (input.reuse_ods_from ? patched(REUSE_PATCH) : patched(PARTS_PATCH))
        ? reuseOrCopyInParts(progress, input, stages.parts)
        : stages.ods.ingestOds({
            project_id: view.project_id,
            source: input.source,
            prd: view.prd!,
            reuse_ods: { requested: input.reuse_ods, from: input.reuse_ods_from },
          }),
    odsSummary,
    (ods) => (view.warehouse = { ...view.warehouse, ods }),
  );
  await buildWarehouse(progress, { project_id: view.project_id, prd: view.prd! }, stages.warehouse);
  return ods;
}

/**
 * With `reuse_ods` and a completed project of the same source on this host, its ODS; otherwise (or
 * when it cannot be reused, which the summary's warnings say) the source copied in parts.
 */
async function reuseOrCopyInParts(
  progress: ProjectProgress,
  input: AnalysisProjectInput,
  parts: NonNullable<Stages['parts']>,
): Promise<OdsSummary> {
  const { view } = progress;
  if (!input.reuse_ods_from)
    return copyInParts(progress, input, parts, input.reuse_ods ? [NOTHING_TO_REUSE] : []);
  const reuse = await parts.reuse.reuseEarlierOds({
    project_id: view.project_id,
    prd: view.prd!,
    from: input.reuse_ods_from,
  });
  if ('reused' in reuse) return reuse.reused;
  return copyInParts(progress, input, parts, [
    `reuse_ods: ${reuse.unusable}; copied from the source instead`,
  ]);
}

const NOTHING_TO_REUSE =
  'reuse_ods: none of your completed projects reads this source; copied from the source';

/**
 * Data integration in parts: the plan, every part side by side (each an activity any worker of the
 * host takes, retried on its own), then the merge and the checks.
 */
async function copyInParts(
  progress: ProjectProgress,
  input: AnalysisProjectInput,
  parts: NonNullable<Stages['parts']>,
  notes: string[],
): Promise<OdsSummary> {
  const { view } = progress;
  const request = { project_id: view.project_id, source: input.source };
  const plan = await parts.plan.planOdsCopy({ ...request, prd: view.prd! });
  const n = plan.parts.length;
  if (n > 1) {
    progress.say(
      `copying about ${plan.estimated_rows} rows in ${n} parts of about ${plan.part_rows} rows, side by side`,
      { parts: n, estimated_rows: plan.estimated_rows },
    );
    await progress.save();
  }
  // A window of parts in flight, not all at once: a part queued behind many others on the host would
  // outwait its schedule-to-start limit, and a queued retry would come back without its checkpoint.
  const copies: OdsPartCopy[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, PARTS_IN_FLIGHT) }, async () => {
      for (let i = next++; i < n; i = next++)
        copies[i] = await parts.copy.copyOdsPart({ ...request, part: plan.parts[i], parts: n });
    }),
  );
  return parts.finish.finishOds({
    project_id: view.project_id,
    prd: view.prd!,
    copies,
    notes,
  });
}

function odsSummary(ods: OdsSummary): string {
  const warnings = ods.warnings.length ? `; ${ods.warnings.length} warnings` : '';
  const reused = ods.reused_from
    ? ` (reused from ${ods.reused_from.project_id}, copied from the source ${ods.reused_from.copied_at})`
    : '';
  const parts = ods.parts && ods.parts > 1 ? ` in ${ods.parts} parts` : '';
  return `${ods.tables.length} tables, ${ods.rows_copied} rows into ${ods.database}${parts}${reused}${warnings}`;
}
