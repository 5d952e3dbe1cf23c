/** Plain-text rendering for the CLI: tables and the live phase board. */
import type { PhaseStatus, ProjectView } from '../../shared/project-model';
import { PHASES, PHASE_STATUSES } from '../../shared/project-model';
import { normalizePhases } from '../../shared/project-view-compat';

export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((r) => columns.map((c) => String(r[c] ?? '')));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join('\n');
}

const NAME_WIDTH = Math.max(...PHASES.map((p) => p.length));
const STATUS_WIDTH = Math.max(...PHASE_STATUSES.map((s) => s.length));
const MARK: Record<PhaseStatus, string> = {
  pending: '·',
  running: '▶',
  waiting_approval: '?',
  completed: '✔',
  failed: '✖',
  skipped: '-',
};

/**
 * The phases, one a line: mark, name, status, time taken once finished, last message. A gateway of
 * the previous version answers the older phases shape; both read the same.
 */
export function phaseBoard(
  view: Pick<
    ProjectView,
    'project_id' | 'status' | 'phases' | 'phase_details' | 'cost_usd' | 'duration_seconds' | 'message'
  >,
): string {
  const { phases, phase_details } = normalizePhases(view.phases, view.phase_details);
  const done = PHASES.filter((p) => ['completed', 'skipped'].includes(phases[p])).length;
  const lines = [
    `${view.project_id}  ${view.status}  (${done}/${PHASES.length} phases)  cost ${view.cost_usd.toFixed(4)} USD  ${view.duration_seconds}s`,
    ...PHASES.map((p) => {
      const status = phases[p];
      const { started_at, ended_at, message } = phase_details[p];
      const took = duration(started_at, ended_at);
      return `  ${MARK[status] ?? ' '} ${p.padEnd(NAME_WIDTH)} ${status.padEnd(STATUS_WIDTH)}${took}${message ? `  ${message}` : ''}`.trimEnd();
    }),
    `  ${view.message}`,
  ];
  return lines.join('\n');
}

/** `  1.2s` from start to end, or nothing while either is unknown. */
function duration(from?: string, to?: string): string {
  const ms = from && to ? Date.parse(to) - Date.parse(from) : NaN;
  return Number.isFinite(ms) ? `  ${(ms / 1000).toFixed(1)}s` : '';
}
