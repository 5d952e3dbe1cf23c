/** Plain-text rendering for the CLI: tables and the live phase board. */
import type { PhaseState, ProjectView } from '../../shared/project-model';
import { PHASES } from '../../shared/project-model';

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

const MARK: Record<PhaseState['status'], string> = {
  pending: '·',
  running: '▶',
  waiting_approval: '?',
  completed: '✔',
  failed: '✖',
  skipped: '-',
};

export function phaseBoard(view: ProjectView): string {
  const done = PHASES.filter((p) => ['completed', 'skipped'].includes(view.phases[p].status)).length;
  const lines = [
    `${view.project_id}  ${view.status}  (${done}/${PHASES.length} phases)  cost ${view.cost_usd.toFixed(4)} USD  ${view.duration_seconds}s`,
    ...PHASES.map((p) => {
      const s = view.phases[p];
      return `  ${MARK[s.status]} ${p.padEnd(16)} ${s.status}${s.message ? `  ${s.message}` : ''}`;
    }),
    `  ${view.message}`,
  ];
  return lines.join('\n');
}
