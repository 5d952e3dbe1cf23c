/**
 * The 15-minute digest of journals (docs/requirements.md#pipelines): each journal's new whole lines
 * since its stored offset become short-term memories and tasks, written with idempotency keys per
 * journal and byte range; the offset moves only after both writes succeeded.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TASK_EXTRACTION_PROMPT } from '../../domain/memory/extraction/task-lines';
import { journals } from '../../domain/memory/workspaces/workspace-config';
import { workspaceNamed, type MemoryPipelineDeps } from './pipeline-deps';

/** New bytes of one journal since its stored offset, cut at the last whole line. */
export interface JournalDelta {
  workspace: string;
  file: string;
  day: string;
  from: number;
  to: number;
}

export interface DigestChunkRequest extends JournalDelta {
  /** The short-term memories' run_id: the digest's day (UTC). */
  run_id: string;
}

const offsetKey = (ws: string, file: string) => `digest:${ws}:${path.basename(file)}`;

function readRange(file: string, from: number, to: number): string {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(to - from);
    fs.readSync(fd, buf, 0, buf.length, from);
    return buf.toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** Every journal with bytes after its offset (whole lines only; a line still being written waits). */
export async function listJournalDeltas(deps: MemoryPipelineDeps): Promise<JournalDelta[]> {
  const deltas: JournalDelta[] = [];
  for (const ws of deps.workspaces) {
    for (const j of journals(ws)) {
      const from = Number((await deps.state.get(offsetKey(ws.name, j.file))) ?? 0);
      const size = fs.statSync(j.file).size;
      if (size <= from) continue;
      const tail = fs.readFileSync(j.file).subarray(from, size);
      const lastNewline = tail.lastIndexOf(0x0a);
      if (lastNewline < 0) continue;
      deltas.push({ workspace: ws.name, file: j.file, day: j.day, from, to: from + lastNewline + 1 });
    }
  }
  return deltas;
}

/**
 * Adds a journal chunk as short-term memory (infer true, category short_term), then a task pass
 * (category task, `[type] description`). Keys per journal and byte range make a retry a no-op.
 */
export async function digestJournalChunk(
  deps: MemoryPipelineDeps,
  req: DigestChunkRequest,
): Promise<{ short_term: number; tasks: number }> {
  const ws = workspaceNamed(deps, req.workspace);
  const text = readRange(req.file, req.from, req.to);
  const key = `digest:${ws.name}:${path.basename(req.file)}:${req.from}-${req.to}`;
  const source = { file: path.basename(req.file), bytes: [req.from, req.to] };
  const shortTerm = await deps.memory.add({
    user_id: ws.user_id,
    agent_id: ws.agent_id,
    run_id: req.run_id,
    text,
    infer: true,
    metadata: { category: 'short_term', source },
    idempotency_key: `${key}:short_term`,
  });
  const tasks = await deps.memory.add({
    user_id: ws.user_id,
    agent_id: ws.agent_id,
    run_id: req.run_id,
    text,
    infer: true,
    custom_extraction_prompt: TASK_EXTRACTION_PROMPT,
    metadata: { category: 'task', source },
    idempotency_key: `${key}:task`,
  });
  // A replayed write (same key) added nothing this time.
  const added = (r: { results: { event: string }[]; idempotent_replay?: boolean }) =>
    r.idempotent_replay ? 0 : r.results.filter((x) => x.event === 'ADD').length;
  return { short_term: added(shortTerm), tasks: added(tasks) };
}

/** Moves a journal's offset: called only after both writes of its chunk succeeded. */
export async function commitJournalOffset(
  deps: MemoryPipelineDeps,
  req: { workspace: string; file: string; offset: number },
): Promise<void> {
  await deps.state.set(offsetKey(req.workspace, req.file), String(req.offset));
}
