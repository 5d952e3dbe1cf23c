/**
 * analysisProject (workflow id = project id): PRD → human decision → warehouse stages.
 * Durable: a worker restart while the project waits for approval loses nothing.
 */
import {
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  log,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { AnalysisActivities } from '../activities/analysis/analysis-activities';
import type { WarehouseActivities } from '../activities/analysis/warehouse-activities';
import { accumulatedUsage, addUsage, type UsageRecord } from '../shared/cost-ledger';
import { initialProjectView } from '../shared/initial-project-view';
import { prdSchema, type Prd } from '../shared/prd-schema';
import {
  PHASES,
  type AnalysisProjectInput,
  type Decision,
  type EventType,
  type PhaseName,
  type PhaseStatus,
  type ProjectEvent,
  type ProjectStatus,
  type ProjectView,
} from '../shared/project-model';
import { PROJECT_PHASE_ATTR, PROJECT_STATUS_ATTR } from '../shared/search-attributes';
import {
  approveSignal,
  decideUpdate,
  modifySignal,
  rejectSignal,
  statusQuery,
  type DecisionRequest,
} from './analysis-project-messages';

const { generatePrd } = proxyActivities<AnalysisActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { maximumAttempts: 3, initialInterval: '2 seconds', nonRetryableErrorTypes: ['SourceAccessDenied'] },
});
const { ingestOds } = proxyActivities<AnalysisActivities>({
  startToCloseTimeout: '6 hours',
  // The copy heartbeats every 10 s: a dead worker is noticed in half a minute and the copy resumes.
  heartbeatTimeout: '30 seconds',
  retry: {
    maximumAttempts: 5,
    initialInterval: '5 seconds',
    nonRetryableErrorTypes: ['SourceAccessDenied', 'RowCountMismatch'],
  },
});
const {
  buildWarehouseModel,
  governWarehouse,
  validateMetricSql,
  buildDashboards,
  profileData,
  generatePipeline,
} = proxyActivities<WarehouseActivities>({
  startToCloseTimeout: '2 hours',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds', nonRetryableErrorTypes: ['ModelBuildFailed'] },
});
const { recordProgress } = proxyActivities<AnalysisActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 10, initialInterval: '1 second' },
});

interface PendingDecision {
  decision: Decision;
  prd?: Prd;
  reason?: string;
}

export async function analysisProject(input: AnalysisProjectInput): Promise<ProjectView> {
  const now = () => new Date().toISOString();
  const view: ProjectView = { ...initialProjectView(input), updated_at: now() };
  let pending: PendingDecision | undefined;
  let eventSeq = 0;
  let unsaved: ProjectEvent[] = [];

  const waiting = () => view.status === 'waiting_approval' && pending === undefined;
  const event = (type: EventType, message: string, payload?: Record<string, unknown>) => {
    unsaved.push({
      event_key: `${view.project_id}:wf:${++eventSeq}`,
      project_id: view.project_id,
      event_type: type,
      phase: view.phase,
      status: view.status,
      message,
      timestamp: now(),
      payload,
    });
  };
  const save = async () => {
    view.updated_at = now();
    view.duration_seconds = Math.round((Date.parse(view.updated_at) - Date.parse(view.created_at)) / 1000);
    upsertSearchAttributes([
      { key: PROJECT_STATUS_ATTR, value: view.status },
      { key: PROJECT_PHASE_ATTR, value: view.phase },
    ]);
    const events = unsaved;
    unsaved = [];
    await recordProgress(view, events);
  };
  const setPhase = (phase: PhaseName, status: PhaseStatus, message?: string) => {
    const details = view.phase_details[phase];
    if (status === 'running') details.started_at = now();
    if (['completed', 'failed', 'skipped'].includes(status)) details.ended_at = now();
    view.phases[phase] = status;
    if (message) details.message = message;
    view.phase = phase;
    event('phase_changed', `${phase}: ${status}${message ? ` (${message})` : ''}`, {
      started_at: details.started_at,
      ...(details.ended_at ? { ended_at: details.ended_at } : {}),
      phase_status: status,
    });
  };
  const addCost = (usage: UsageRecord[]) => {
    view.cost = addUsage(view.cost, usage, now());
    view.accumulated_usage = accumulatedUsage(view.cost);
    view.cost_usd = view.cost.project_total.estimated_usd;
    event(
      'cost_update',
      `cost ${view.cost_usd.toFixed(4)} USD, ${view.cost.project_total.total_tokens} tokens`,
      {
        cost: view.cost,
      },
    );
  };
  /** Runs one stage: phase running, the work, phase completed with a one-line summary. */
  const stage = async <T>(phase: PhaseName, work: () => Promise<T>, summary: (r: T) => string) => {
    setPhase(phase, 'running');
    await save();
    const result = await work();
    setPhase(phase, 'completed', summary(result));
    await save();
    return result;
  };
  const finish = (status: ProjectStatus, type: EventType, message: string) => {
    view.status = status;
    view.message = message;
    event(type, message);
  };

  setHandler(statusQuery, () => view);
  setHandler(approveSignal, () => {
    if (waiting()) pending = { decision: 'approve' };
    else log.warn('approve ignored: no PRD is waiting for a decision', { status: view.status });
  });
  setHandler(modifySignal, (edited) => {
    const parsed = prdSchema.safeParse(edited);
    if (!waiting()) log.warn('modify ignored: no PRD is waiting for a decision', { status: view.status });
    else if (!parsed.success)
      log.warn('modify ignored: the edited PRD is invalid', { issues: parsed.error.issues.slice(0, 5) });
    else pending = { decision: 'modify', prd: parsed.data };
  });
  setHandler(rejectSignal, (arg) => {
    if (waiting()) pending = { decision: 'reject', reason: arg?.reason };
    else log.warn('reject ignored: no PRD is waiting for a decision', { status: view.status });
  });
  setHandler(
    decideUpdate,
    async (req: DecisionRequest) => {
      pending = toPending(req);
      await condition(() => view.decision !== undefined);
      return { project_id: view.project_id, decision: req.decision, status: view.status };
    },
    {
      validator: (req: DecisionRequest) => {
        if (!waiting()) {
          throw ApplicationFailure.create({
            type: 'NoDecisionPending',
            message: `project ${view.project_id} is ${view.status}: no PRD is waiting for a decision`,
          });
        }
        toPending(req);
      },
    },
  );

  try {
    setPhase('prd', 'running');
    await save();
    const { prd, usage } = await generatePrd({
      project_id: view.project_id,
      description: input.description,
      source: input.source,
    });
    view.prd = prd;
    addCost(usage);

    view.status = 'waiting_approval';
    view.message = `PRD ready (${prd.industry.name}, ${prd.fact_tables.length} fact tables): approve, modify or reject it`;
    setPhase('prd', 'waiting_approval');
    event('hitl_required', view.message, {
      decision_options: ['approve', 'modify', 'reject'],
      analyst: prd.analyst,
    });
    await save();

    await condition(() => pending !== undefined);
    const decision = pending!;
    view.decision = { decision: decision.decision, reason: decision.reason, decided_at: now() };
    if (decision.decision === 'reject') {
      setPhase('prd', 'completed', 'PRD rejected');
      for (const phase of PHASES.slice(1)) {
        view.phases[phase] = 'skipped';
        view.phase_details[phase] = { message: 'PRD rejected' };
      }
      finish(
        'terminated',
        'project_terminated',
        `PRD rejected${decision.reason ? `: ${decision.reason}` : ''}`,
      );
      await save();
      return view;
    }
    if (decision.prd) view.prd = decision.prd;
    view.status = 'running';
    setPhase('prd', 'completed', decision.decision === 'modify' ? 'PRD edited and approved' : 'PRD approved');
    await save();

    setPhase('data_ingestion', 'running');
    await save();
    const ods = await ingestOds({ project_id: view.project_id, source: input.source, prd: view.prd! });
    view.warehouse = { ...view.warehouse, ods };
    setPhase(
      'data_ingestion',
      'completed',
      `${ods.tables.length} tables, ${ods.rows_copied} rows into ${ods.database}${ods.warnings.length ? `; ${ods.warnings.length} warnings` : ''}`,
    );
    await save();

    const prdNow = view.prd!;
    const request = { project_id: view.project_id, prd: prdNow };
    const modeling = await stage(
      'data_modeling',
      () => buildWarehouseModel(request),
      (m) => m.layers.map((l) => `${l.database}: ${l.tables.length} tables`).join('; '),
    );
    view.warehouse = { ...view.warehouse, modeling };
    if (modeling.usage.length) addCost(modeling.usage);
    const governance = await stage(
      'data_governance',
      async () => {
        const g = await governWarehouse(request);
        view.warehouse = { ...view.warehouse, governance: g };
        if (g.blocking_failed.length) {
          throw ApplicationFailure.nonRetryable(
            `blocking quality rules failed: ${g.blocking_failed.join('; ')}`,
            'BlockingQualityRuleFailed',
          );
        }
        return g;
      },
      (g) =>
        `${g.rules_passed}/${g.rules_total} quality rules passed${g.rules_failed ? `, ${g.rules_failed} warnings failed` : ''}; ${g.catalog_tables} tables in the catalog`,
    );
    const metrics = await stage(
      'query_building',
      () => validateMetricSql(request),
      (m) => `${m.valid.length}/${m.metrics_total} metrics valid`,
    );
    view.warehouse = { ...view.warehouse, governance, metrics };
    const visualization = await stage(
      'visualization',
      () => buildDashboards(request),
      (v) => `${v.dashboards} dashboards, ${v.charts} charts`,
    );
    view.warehouse = { ...view.warehouse, visualization };
    view.bi_dashboard_url = visualization.url;

    const profile = await stage(
      'analytics_advisor',
      () => profileData(request),
      (p) => `data profile scored ${p.overall_score}/100 with ${p.insights} key insights`,
    );
    view.warehouse = { ...view.warehouse, profile };
    const pipeline = await stage(
      'production_pipeline',
      () => generatePipeline(request),
      (p) => `${p.files.length} template files`,
    );
    view.warehouse = { ...view.warehouse, pipeline };
    finish(
      'completed',
      'project_completed',
      `warehouse built: ${ods.rows_copied} rows in ODS, ${metrics.valid.length} valid metrics, dashboard at ${visualization.url}`,
    );
    await save();
    return view;
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(async () => {
        markUnfinished(view, 'skipped', 'cancelled', now());
        finish('cancelled', 'project_cancelled', 'project cancelled');
        await save();
      });
      throw err;
    }
    const message =
      err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    view.error = { phase: view.phase, message };
    view.phases[view.phase] = 'failed';
    view.phase_details[view.phase].ended_at = now();
    markUnfinished(view, 'skipped', `${view.phase} failed`, now());
    finish('failed', 'project_failed', `${view.phase} failed: ${message}`);
    await save();
    throw ApplicationFailure.nonRetryable(`phase ${view.phase} failed: ${message}`, 'ProjectFailed');
  }

  function toPending(req: DecisionRequest): PendingDecision {
    if (req.decision === 'modify') {
      const parsed = prdSchema.safeParse(req.prd);
      if (!parsed.success) {
        throw ApplicationFailure.create({
          type: 'InvalidPrd',
          message: 'the edited PRD is invalid',
          details: [parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))],
        });
      }
      return { decision: 'modify', prd: parsed.data };
    }
    return { decision: req.decision, reason: req.reason };
  }
}

/** Ends every phase not yet finished; one that had started gets `ended_at` too. */
function markUnfinished(view: ProjectView, status: PhaseStatus, message: string, at: string): void {
  for (const phase of PHASES) {
    const current = view.phases[phase];
    if (current === 'pending' || current === 'running' || current === 'waiting_approval') {
      const details = view.phase_details[phase];
      view.phases[phase] = status;
      view.phase_details[phase] = { ...details, ...(details.started_at ? { ended_at: at } : {}), message };
    }
  }
}
