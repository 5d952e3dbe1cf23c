/**
 * One engine step for one managed index, with ISM's semantics (docs/search-lifecycle.md#lifecycle-engine):
 * a new record initialises into the default state; a state's actions run in order, one cluster-changing
 * action per pass; a failed action is retried after its backoff, up to its retry count, then waits for
 * `retry`; once all actions completed, the first transition whose conditions are met moves the index
 * to its next state. Bookkeeping (initialisation, transitions) chains within the pass.
 */
import { actionName, type IsmPolicy } from '../ism-policy';
import { parseDuration, parseSize } from '../ism-units';
import { runAction, STEP_NAMES, type ActionContext, type ActionOutcome } from './lifecycle-actions';
import type { ManagedIndex } from './managed-index';

/** What happened to one index in a pass, for the pass summary and the workflow's history. */
export interface IndexEvent {
  index: string;
  kind: 'initialized' | 'action_completed' | 'transitioned' | 'failed' | 'deleted' | 'gone';
  state?: string;
  action?: string;
  message: string;
}

export interface StepResult {
  /** The new record; undefined when the index left management (deleted by its policy, or gone). */
  record?: ManagedIndex;
  events: IndexEvent[];
  /** An index a rollover created. */
  new_index?: string;
}

/** ISM's defaults for an action without `retry`: 3 retries, exponential backoff from 1 minute. */
const DEFAULT_RETRY = { count: 3, backoff: 'exponential', delay: '1m' } as const;
/** More steps than any policy chains in one pass: a guard against a transition cycle. */
const MAX_CHAINED_STEPS = 16;

type ActionSpec = IsmPolicy['states'][number]['actions'][number];
type State = IsmPolicy['states'][number];

export async function advanceIndex(
  current: ManagedIndex,
  ctx: Omit<ActionContext, 'record'> & {
    /** Asked before each cluster-changing action; false defers it to a later pass. */
    mayAct?: () => boolean;
  },
  run: typeof runAction = runAction,
): Promise<StepResult> {
  const rec: ManagedIndex = structuredClone(current);
  const { now } = ctx;
  const events: IndexEvent[] = [];
  const event = (kind: IndexEvent['kind'], message: string, action?: string) =>
    events.push({ index: rec.index, kind, state: rec.state?.name, action, message });
  if (!rec.enabled || rec.policy_completed) return { record: rec, events };

  if (!rec.state) {
    rec.state = { name: rec.policy.default_state, start_time: now };
    rec.step = { name: 'initialization', start_time: now, step_status: 'completed' };
    rec.info = { message: `Successfully initialized policy: ${rec.policy_id}` };
    event('initialized', rec.info.message);
  }

  let acted = false;
  let newIndex: string | undefined;
  for (let i = 0; i < MAX_CHAINED_STEPS; i++) {
    const state = rec.policy.states.find((s) => s.name === rec.state!.name);
    if (!state) {
      fail(rec, now, 'transition', `state ${rec.state.name} is not in policy ${rec.policy_id}`);
      event('failed', rec.info!.message);
      break;
    }
    const cursor = actionCursor(rec, state.actions.length);
    if (cursor < state.actions.length) {
      const spec = state.actions[cursor] as ActionSpec;
      const name = actionName(spec);
      if (rec.action?.index !== cursor || rec.action.name !== name) {
        rec.action = startedAction(name, cursor, now);
        rec.step = { name: STEP_NAMES[name] ?? name, start_time: now, step_status: 'starting' };
      }
      if (acted || !retryDue(rec, spec, now)) break;
      // The pass's budget of cluster changes is spent: the action runs at a later pass.
      if (ctx.mayAct && !ctx.mayAct()) break;
      consumeRetry(rec, now);
      if (spec.timeout && now - rec.action.start_time > parseDuration(spec.timeout)!) {
        fail(rec, now, name, `action ${name} timed out after ${spec.timeout}`);
        event('failed', rec.info!.message, name);
        break;
      }
      acted = true;
      let outcome: ActionOutcome;
      try {
        outcome = await run(name, (spec[name] ?? {}) as Record<string, unknown>, { ...ctx, record: rec });
      } catch (err) {
        fail(rec, now, name, err instanceof Error ? err.message : String(err));
        event('failed', rec.info!.message, name);
        break;
      }
      if (!actionCompleted(rec, name, outcome, now)) break;
      if (name === 'rollover') newIndex = outcome.new_index;
      event(outcome.deleted ? 'deleted' : 'action_completed', outcome.message, name);
      if (outcome.deleted) return { events, new_index: newIndex };
      continue;
    }

    // Every action of the state completed: its transitions decide.
    const target = state.transitions.find((t) => conditionsMet(t.conditions, rec, ctx));
    if (!target) {
      stayInState(rec, state, now);
      break;
    }
    const from = state.name;
    enterState(rec, target.state_name, now);
    event('transitioned', `${from} → ${target.state_name}`);
  }
  return { record: rec, events, new_index: newIndex };
}

/** A transition taken: the index is in state `name` from now, before its first action. */
function enterState(rec: ManagedIndex, name: string, now: number): void {
  rec.state = { name, start_time: now };
  rec.action = undefined;
  rec.step = { name: 'attempt_transition_step', start_time: now, step_status: 'completed' };
  rec.info = { message: `Transitioning to ${name} [index=${rec.index}]` };
}

/** The record of an action (or of waiting for a transition, index -1) just begun. */
function startedAction(name: string, index: number, now: number): NonNullable<ManagedIndex['action']> {
  return { name, index, start_time: now, failed: false, consumed_retries: 0, last_retry_time: 0 };
}

/**
 * Records what an action that ran answered; whether it completed (if not, it waits for a condition and
 * runs again at a later pass).
 */
function actionCompleted(
  rec: ManagedIndex,
  name: string,
  outcome: ActionOutcome,
  now: number,
): outcome is Extract<ActionOutcome, { status: 'completed' }> {
  const stepName = STEP_NAMES[name] ?? name;
  rec.action!.failed = false;
  if (outcome.status === 'condition_not_met') {
    const same = rec.step?.name === stepName && rec.step.step_status === 'condition_not_met';
    rec.step = {
      name: stepName,
      start_time: same ? rec.step!.start_time : now,
      step_status: 'condition_not_met',
    };
    rec.info = { message: outcome.message, ...(outcome.details ?? {}) };
    return false;
  }
  rec.step = { name: stepName, start_time: now, step_status: 'completed' };
  rec.info = { message: outcome.message };
  if (outcome.rollover_alias) rec.rollover_alias = outcome.rollover_alias;
  if (name === 'rollover') {
    rec.rolled_over = true;
    rec.rolled_over_time ??= now;
  }
  return true;
}

/** A state whose actions completed and no transition applies: the policy completed, or waits. */
function stayInState(rec: ManagedIndex, state: State, now: number): void {
  if (!state.transitions.length) {
    rec.policy_completed = true;
    rec.info = {
      message: `Policy ${rec.policy_id} has completed in state ${state.name} [index=${rec.index}]`,
    };
    return;
  }
  if (rec.action?.name !== 'transition') rec.action = startedAction('transition', -1, now);
  if (rec.step?.name !== 'attempt_transition_step' || rec.step.step_status !== 'condition_not_met')
    rec.step = { name: 'attempt_transition_step', start_time: now, step_status: 'condition_not_met' };
  rec.info = {
    message: `Evaluating transition conditions [index=${rec.index}]`,
    conditions: state.transitions.map((t) => ({ state_name: t.state_name, ...(t.conditions ?? {}) })),
  };
}

/** The position of the action to run next; the number of actions once all completed. */
function actionCursor(rec: ManagedIndex, actions: number): number {
  if (!rec.action) return 0;
  if (rec.action.name === 'transition') return actions;
  return rec.step?.step_status === 'completed' ? rec.action.index + 1 : rec.action.index;
}

/** Whether a failed action may run again: its backoff passed and retries remain. */
function retryDue(
  rec: ManagedIndex,
  spec: { retry?: { count: number; backoff?: string; delay?: string } },
  now: number,
): boolean {
  const action = rec.action!;
  if (!action.failed) return true;
  const retry = { ...DEFAULT_RETRY, ...(spec.retry ?? {}) };
  if (action.consumed_retries >= retry.count) return false;
  const delay = parseDuration(retry.delay) ?? 60_000;
  const n = action.consumed_retries + 1;
  const wait =
    retry.backoff === 'constant' ? delay : retry.backoff === 'linear' ? delay * n : delay * 2 ** (n - 1);
  return now >= action.last_retry_time + wait;
}

/** A failed action about to run again counts one more retry. */
function consumeRetry(rec: ManagedIndex, now: number): void {
  const action = rec.action!;
  if (!action.failed) return;
  action.consumed_retries += 1;
  action.last_retry_time = now;
}

function fail(rec: ManagedIndex, now: number, name: string, cause: string): void {
  if (rec.action) {
    rec.action.failed = true;
    rec.action.last_retry_time ||= now;
  }
  rec.step = { name: STEP_NAMES[name] ?? name, start_time: now, step_status: 'failed' };
  rec.info = { message: `Failed to ${name.replace('_', ' ')} [index=${rec.index}]`, cause };
}

/** A transition without conditions is taken at once; with several, all must hold (as in ISM). */
function conditionsMet(
  conditions:
    | { min_index_age?: string; min_rollover_age?: string; min_doc_count?: number; min_size?: string }
    | undefined,
  rec: ManagedIndex,
  { now, observed }: Omit<ActionContext, 'record'>,
): boolean {
  if (!conditions) return true;
  if (conditions.min_index_age && now - rec.index_creation_date < parseDuration(conditions.min_index_age)!)
    return false;
  if (conditions.min_doc_count !== undefined && observed.docs < conditions.min_doc_count) return false;
  if (conditions.min_size && observed.primary_bytes < parseSize(conditions.min_size)!) return false;
  if (conditions.min_rollover_age) {
    if (!rec.rolled_over_time) return false;
    if (now - rec.rolled_over_time < parseDuration(conditions.min_rollover_age)!) return false;
  }
  return true;
}
