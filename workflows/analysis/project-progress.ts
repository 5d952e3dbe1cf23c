/**
 * The bookkeeping of one analysis project inside its workflow: the project view, the events not yet
 * stored, phase transitions with their timers, cost, and saving both through the `recordProgress`
 * activity (local, but for the save that opens the approval gate) while keeping the search attributes
 * current. Deterministic: workflow time only.
 */
import {
  patched,
  proxyActivities,
  proxyLocalActivities,
  upsertSearchAttributes,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { AnalysisActivities } from '../../activities/analysis/analysis-activities';
import { accumulatedUsage, addUsage, type UsageRecord } from '../../shared/cost-ledger';
import { initialProjectView } from '../../shared/initial-project-view';
import {
  PHASES,
  type AnalysisProjectInput,
  type EventType,
  type PhaseName,
  type PhaseStatus,
  type ProjectEvent,
  type ProjectStatus,
  type ProjectView,
} from '../../shared/project-model';
import { PROJECT_PHASE_ATTR, PROJECT_STATUS_ATTR } from '../../shared/search-attributes';

const SAVE_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 10, initialInterval: '1 second' },
};
/**
 * Projects started after this patch save their progress in a local activity, run by the worker of the
 * workflow task itself (docs/architecture.md#saving-progress); older ones schedule an activity per save.
 */
const LOCAL_SAVE_PATCH = 'progress-local-activity';
const scheduled = proxyActivities<AnalysisActivities>(SAVE_OPTIONS);
const local = proxyLocalActivities<AnalysisActivities>(SAVE_OPTIONS);

const now = () => new Date().toISOString();

/** The project view and its events, changed by the workflow and saved at each step. */
export class ProjectProgress {
  readonly view: ProjectView;
  private eventSeq = 0;
  private unsaved: ProjectEvent[] = [];
  private readonly recordProgress: AnalysisActivities['recordProgress'];

  constructor(input: AnalysisProjectInput) {
    this.view = { ...initialProjectView(input), updated_at: now() };
    this.recordProgress = patched(LOCAL_SAVE_PATCH) ? local.recordProgress : scheduled.recordProgress;
  }

  /** Queues an event of the current phase and status; `save` stores it. */
  event(type: EventType, message: string, payload?: Record<string, unknown>): void {
    const { view } = this;
    this.unsaved.push({
      event_key: `${view.project_id}:wf:${++this.eventSeq}`,
      project_id: view.project_id,
      event_type: type,
      phase: view.phase,
      status: view.status,
      message,
      timestamp: now(),
      payload,
    });
  }

  /**
   * Stores the view and the queued events (idempotent by event key) and updates the search attributes.
   * `durable`: through an ordinary activity, which the server starts only once the workflow task that
   * scheduled it has completed, so what the store then shows is in the history already. A local save
   * is written while its workflow task runs: were the worker to die before the task completed, the
   * store would show a state the workflow has not durably reached (docs/architecture.md#saving-progress).
   */
  async save({ durable = false }: { durable?: boolean } = {}): Promise<void> {
    const { view } = this;
    view.updated_at = now();
    view.duration_seconds = Math.round((Date.parse(view.updated_at) - Date.parse(view.created_at)) / 1000);
    upsertSearchAttributes([
      { key: PROJECT_STATUS_ATTR, value: view.status },
      { key: PROJECT_PHASE_ATTR, value: view.phase },
    ]);
    const events = this.unsaved;
    this.unsaved = [];
    await (durable ? scheduled.recordProgress : this.recordProgress)(view, events);
  }

  /** Moves a phase to `status`, stamping its start or end, with a `phase_changed` event. */
  setPhase(phase: PhaseName, status: PhaseStatus, message?: string): void {
    const { view } = this;
    const details = view.phase_details[phase];
    if (status === 'running') details.started_at = now();
    if (['completed', 'failed', 'skipped'].includes(status)) details.ended_at = now();
    view.phases[phase] = status;
    if (message) details.message = message;
    view.phase = phase;
    this.event('phase_changed', `${phase}: ${status}${message ? ` (${message})` : ''}`, {
      started_at: details.started_at,
      ...(details.ended_at ? { ended_at: details.ended_at } : {}),
      phase_status: status,
    });
  }

  /** The running phase's message, also logged (e.g. how a copy was split). */
  say(message: string, payload?: Record<string, unknown>): void {
    const { view } = this;
    view.phase_details[view.phase].message = message;
    view.message = message;
    this.event('log_entry', message, payload);
  }

  /** Adds model usage to the cost record, with a `cost_update` event. */
  addCost(usage: UsageRecord[]): void {
    const { view } = this;
    view.cost = addUsage(view.cost, usage, now());
    view.accumulated_usage = accumulatedUsage(view.cost);
    view.cost_usd = view.cost.project_total.estimated_usd;
    // `added`: this update's own tokens, which every replica's token counter can add up alone.
    const added = usage.reduce(
      (sum, u) => ({
        input_tokens: sum.input_tokens + u.input_tokens,
        output_tokens: sum.output_tokens + u.output_tokens,
      }),
      { input_tokens: 0, output_tokens: 0 },
    );
    this.event(
      'cost_update',
      `cost ${view.cost_usd.toFixed(4)} USD, ${view.cost.project_total.total_tokens} tokens`,
      { cost: view.cost, added },
    );
  }

  /**
   * Runs one stage: phase running (saved), the work, `record` puts its result on the view, then the
   * phase completes with a one-line summary (saved with the result).
   */
  async stage<T>(
    phase: PhaseName,
    work: () => Promise<T>,
    summary: (r: T) => string,
    record?: (r: T) => void,
  ): Promise<T> {
    this.setPhase(phase, 'running');
    await this.save();
    const result = await work();
    record?.(result);
    this.setPhase(phase, 'completed', summary(result));
    await this.save();
    return result;
  }

  /**
   * Everything after the PRD is done again (its host was lost with the files): those phases go back
   * to pending, what they built leaves the view, and a log entry says why.
   */
  startOverAfterPrd(message: string, payload: Record<string, unknown>): void {
    const { view } = this;
    for (const p of PHASES.slice(1)) {
      view.phases[p] = 'pending';
      view.phase_details[p] = {};
    }
    view.phase = 'data_ingestion';
    view.phase_details.data_ingestion.message = message;
    view.message = message;
    view.warehouse = {};
    view.bi_dashboard_url = null;
    this.event('log_entry', message, payload);
  }

  /** Sets the project's final (or waiting) status and message, with the event that announces it. */
  finish(status: ProjectStatus, type: EventType, message: string): void {
    this.view.status = status;
    this.view.message = message;
    this.event(type, message);
  }

  /** Every phase after the PRD skipped because the PRD was rejected. */
  skipAfterPrd(message: string): void {
    for (const phase of PHASES.slice(1)) {
      this.view.phases[phase] = 'skipped';
      this.view.phase_details[phase] = { message };
    }
  }

  /** The current phase failed with `message`; every unfinished phase is skipped. */
  failCurrentPhase(message: string): void {
    const { view } = this;
    view.error = { phase: view.phase, message };
    view.phases[view.phase] = 'failed';
    view.phase_details[view.phase].ended_at = now();
    this.markUnfinished('skipped', `${view.phase} failed`);
  }

  /** Ends every phase not yet finished; one that had started gets `ended_at` too. */
  markUnfinished(status: PhaseStatus, message: string): void {
    const { view } = this;
    const at = now();
    for (const phase of PHASES) {
      const current = view.phases[phase];
      if (current === 'pending' || current === 'running' || current === 'waiting_approval') {
        const details = view.phase_details[phase];
        view.phases[phase] = status;
        view.phase_details[phase] = { ...details, ...(details.started_at ? { ended_at: at } : {}), message };
      }
    }
  }
}
