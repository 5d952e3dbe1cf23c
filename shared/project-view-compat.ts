/**
 * Reads project records of any version as today's shape. Records written before `phase_details`
 * existed (still in users' metadata databases, or sent by a worker of the previous version during
 * a deployment) kept each phase as `{status, started_at, ended_at, message}`; today `phases` holds
 * only the status string and `phase_details` the rest (README.md, "Progress").
 * Workflow-safe: no Node APIs.
 */
import { PHASES, type PhaseDetail, type PhaseStatus, type ProjectView } from './project-model';

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const DETAIL_KEYS = ['started_at', 'ended_at', 'message'] as const;

/**
 * `phases` and `phase_details` of a record in either shape: a phase given as an object gives its
 * status to `phases` and its timings and message to `phase_details` (values already in
 * `phase_details` win). A missing phase is `pending` with no details.
 */
export function normalizePhases(
  phases: unknown,
  phaseDetails?: unknown,
): Pick<ProjectView, 'phases' | 'phase_details'> {
  const rawPhases = isObject(phases) ? phases : {};
  const rawDetails = isObject(phaseDetails) ? phaseDetails : {};
  const out = { phases: {}, phase_details: {} } as Pick<ProjectView, 'phases' | 'phase_details'>;
  for (const phase of PHASES) {
    const value = rawPhases[phase];
    const legacy = isObject(value) ? value : {};
    const status = typeof value === 'string' ? value : legacy.status;
    // A status string this version does not know (a newer writer) is kept as it is.
    out.phases[phase] = (typeof status === 'string' && status ? status : 'pending') as PhaseStatus;
    const given = isObject(rawDetails[phase]) ? (rawDetails[phase] as Loose) : {};
    const detail: PhaseDetail = {};
    for (const key of DETAIL_KEYS) {
      const v = given[key] ?? legacy[key];
      if (typeof v === 'string') detail[key] = v;
    }
    out.phase_details[phase] = detail;
  }
  return out;
}

/** A project record in today's shape, whichever shape it was stored or sent in; other fields as they are. */
export function normalizeProjectView(raw: unknown): ProjectView {
  const record = isObject(raw) ? raw : {};
  const { phases, phase_details } = normalizePhases(record.phases, record.phase_details);
  // Rebuilt key by key so `phase_details` sits right after `phases` in the JSON answer.
  const out: Loose = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === 'phase_details') continue;
    out[key] = key === 'phases' ? phases : value;
    if (key === 'phases') out.phase_details = phase_details;
  }
  if (!('phases' in out)) Object.assign(out, { phases, phase_details });
  return out as unknown as ProjectView;
}
