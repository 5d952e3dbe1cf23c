/** Plain-text rendering of memory responses for `plat memory`: tables fitted to the terminal. */
import type { SessionContext } from '../../domain/memory/memory-service';
import type {
  MemoryAddResult,
  MemoryChangeItem,
  MemoryHistoryEntry,
  MemoryRecord,
  MemorySearchItem,
  TokenUsage,
} from '../../shared/memory-model';
import { table } from './render';

/** The terminal's width; 120 when the output is not a terminal and $COLUMNS is unset. */
export function terminalWidth(): number {
  return process.stdout.columns || Number(process.env.COLUMNS) || 120;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function truncate(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(width - 1, 0))}…`;
}

/** `table` whose last column is cut so that every line fits `width` (at least 20 characters of it). */
export function fittedTable(
  rows: Record<string, unknown>[],
  columns: string[],
  width = terminalWidth(),
): string {
  const fixed = columns.slice(0, -1);
  const last = columns[columns.length - 1];
  const used = fixed.reduce(
    (sum, c) => sum + Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)) + 2,
    0,
  );
  const room = Math.max(width - used, 20);
  return table(
    rows.map((r) => ({ ...r, [last]: truncate(oneLine(String(r[last] ?? '')), room) })),
    columns,
  );
}

const day = (iso: string | null | undefined) => (iso ?? '').slice(0, 10);
const when = (iso: string) => iso.slice(0, 19).replace('T', ' ');

export function usageLine(u: TokenUsage): string {
  return `token usage: ${u.llm_calls} LLM call(s), ${u.input_tokens} input + ${u.output_tokens} output = ${u.total_tokens} tokens`;
}

export function addResultsText(results: MemoryAddResult[]): string {
  return fittedTable(results as unknown as Record<string, unknown>[], ['event', 'id', 'memory']);
}

/** What found a result, compactly: "sim 0.52 terms drone,part names qx4471 time May 2023". */
export function matchedText(signals: MemorySearchItem['signals']): string {
  if (!signals) return '';
  return [
    signals.semantic !== undefined ? `sim ${signals.semantic.toFixed(2)}` : '',
    signals.lexical ? `terms ${signals.lexical.terms.join(',')}` : '',
    signals.entities?.length ? `names ${signals.entities.join(',')}` : '',
    signals.time ? `time ${signals.time}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

export function searchText(results: MemorySearchItem[]): string {
  const decayed = results.some((r) => r.original_score !== undefined);
  const rows = results.map((r) => ({
    score: r.score.toFixed(3),
    original: r.original_score === undefined ? '' : r.original_score.toFixed(3),
    type: r.memory_type,
    created: day(r.created_at),
    id: r.id.slice(0, 8),
    matched: matchedText(r.signals),
    memory: r.memory,
  }));
  const matched = results.some((r) => r.signals);
  const columns = [
    'score',
    ...(decayed ? ['original'] : []),
    'type',
    'created',
    'id',
    ...(matched ? ['matched'] : []),
    'memory',
  ];
  return `${fittedTable(rows, columns)}\n${results.length} result(s)`;
}

export function listText(results: MemoryRecord[]): string {
  const withAgent = results.some((r) => r.agent_id);
  const rows = results.map((r) => ({
    ...r,
    created: day(r.created_at),
    run_id: r.run_id ?? 'long-term',
    agent: r.agent_id ?? '',
    category: r.category ?? '',
  }));
  const columns = ['id', 'created', 'run_id', ...(withAgent ? ['agent'] : []), 'category', 'memory'];
  return `${fittedTable(rows, columns)}\n${results.length} memor${results.length === 1 ? 'y' : 'ies'}`;
}

export function recordText(r: MemoryRecord): string {
  return [
    `id:        ${r.id}`,
    `memory:    ${r.memory}`,
    `user:      ${r.user_id}`,
    `agent:     ${r.agent_id ?? '-'}`,
    `run_id:    ${r.run_id ?? '- (long-term)'}`,
    `category:  ${r.category ?? '-'}`,
    `metadata:  ${JSON.stringify(r.metadata)}`,
    `created:   ${r.created_at}`,
    `updated:   ${r.updated_at}`,
    `embedder:  ${r.embedder}`,
  ].join('\n');
}

export function historyText(entries: MemoryHistoryEntry[]): string {
  const rows = entries.map((h) => ({
    when: when(h.created_at),
    event: h.event,
    change: `${oneLine(h.old_memory ?? '—')} → ${oneLine(h.new_memory ?? '—')}`,
  }));
  return fittedTable(rows, ['when', 'event', 'change']);
}

/** What changed (GET /memory/changes): when, which memory, old value → new value. */
export function changesText(changes: MemoryChangeItem[]): string {
  if (!changes.length) return 'no value changed';
  const rows = changes.map((c) => ({
    when: when(c.at),
    memory: c.memory_id.slice(0, 8),
    change: `${oneLine(c.from)} → ${oneLine(c.to)}`,
  }));
  return fittedTable(rows, ['when', 'memory', 'change']);
}

/** The session-start context: both journals, then the search. */
export function contextText(c: SessionContext): string {
  const journal = (label: string, j: SessionContext['today']) =>
    j ? `## ${label}: ${j.date} (${j.file})\n${j.content.trimEnd()}` : `## ${label}: no journal`;
  return [
    `workspace: ${c.workspace ?? '(none configured for this user)'}`,
    journal('today', c.today),
    journal('yesterday', c.yesterday),
    `## search: ${c.search.query.slice(0, 80)}${c.search.query.length > 80 ? '…' : ''}`,
    searchText(c.search.results),
  ].join('\n\n');
}
