/**
 * A pass's summary as timeline events (docs/search-lifecycle.md#simulating-a-policy): the engine's own
 * events (rollovers, transitions, completed actions, deletions, failures with their cause), with the
 * indices the cluster model saw created. Initialisations are left out: they happen at the first pass
 * after an index is attached and say nothing about the policy.
 */
import type { IndexEvent } from '../index-step';
import type { ManagedIndex } from '../managed-index';
import { DAY_MS } from './ingest-profile';
import type { ClusterChange } from './simulated-cluster';
import type { TimelineEvent } from './simulation-result';

/** Where an event happened on the simulated clock. */
export interface EventTime {
  /** ms since the start. */
  t: number;
  start: number;
  pass: number;
}

export function eventTime({
  t,
  start,
  pass,
}: EventTime): Pick<TimelineEvent, 'at' | 'day' | 'time' | 'pass'> {
  const ofDay = t % DAY_MS;
  const hh = String(Math.floor(ofDay / 3_600_000)).padStart(2, '0');
  const mm = String(Math.floor((ofDay % 3_600_000) / 60_000)).padStart(2, '0');
  return { at: new Date(start + t).toISOString(), day: Math.floor(t / DAY_MS), time: `${hh}:${mm}`, pass };
}

/** The event of an index the engine (or the bootstrap) created. */
export function createdEvent(
  when: EventTime,
  index: string,
  managed: boolean,
  policyId: string,
  defaultState: string,
  by?: string,
): TimelineEvent {
  return {
    ...eventTime(when),
    index,
    kind: 'created',
    managed,
    ...(managed ? { state: defaultState } : {}),
    message:
      `${by ? `created by the rollover of ${by}` : 'created with the write alias'}; ` +
      (managed
        ? `managed by ${policyId}`
        : `no ism_template of ${policyId} claims it: it stays unmanaged and is never deleted`),
  };
}

/**
 * One pass's events, by index name (a pass steps indices concurrently, so the order it reports them
 * in means nothing), each index's own in the order they happened; a rollover's new index comes next
 * by its name.
 */
export function passEvents(
  when: EventTime,
  events: IndexEvent[],
  changes: ClusterChange[],
  attached: string[],
  record: (index: string) => ManagedIndex | undefined,
  policyId: string,
  defaultState: string,
): TimelineEvent[] {
  const at = eventTime(when);
  const rolled = new Map(changes.flatMap((c) => (c.kind === 'rollover' ? [[c.from, c.to] as const] : [])));
  const out: TimelineEvent[] = [];
  for (const e of events) {
    const base = { ...at, index: e.index, message: e.message, ...(e.state ? { state: e.state } : {}) };
    switch (e.kind) {
      case 'initialized':
        break;
      case 'transitioned': {
        const [from, to] = e.message.split(' → ');
        out.push({ ...base, kind: 'transitioned', from, to });
        break;
      }
      case 'action_completed': {
        const created = e.action === 'rollover' ? rolled.get(e.index) : undefined;
        if (!created) {
          out.push({ ...base, kind: 'action_completed', action: e.action });
          break;
        }
        out.push({ ...base, kind: 'rolled_over', action: 'rollover', new_index: created });
        out.push(createdEvent(when, created, attached.includes(created), policyId, defaultState, e.index));
        break;
      }
      case 'deleted':
      case 'gone':
        out.push({ ...base, kind: 'deleted', ...(e.action ? { action: e.action } : {}) });
        break;
      case 'failed':
        out.push({
          ...base,
          kind: 'failed',
          ...(e.action ? { action: e.action } : {}),
          cause: record(e.index)?.info?.cause ?? e.message,
        });
        break;
    }
  }
  return out.sort((a, b) => (a.index < b.index ? -1 : a.index > b.index ? 1 : 0));
}
