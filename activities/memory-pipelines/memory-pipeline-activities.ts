/**
 * Activities of the memory pipelines (docs/requirements.md#pipelines): the 15-minute digest of
 * journals, the 01:00 sync of memory files and the 02:00 consolidation. They read the agents'
 * workspaces, keep offsets and hashes in the metadata store, and write through the memory
 * service's public API with idempotency keys, so a retried write never adds anything twice.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TASK_EXTRACTION_PROMPT } from '../../domain/memory/extraction/task-lines';
import {
  journalPath,
  journals,
  memoryFiles,
  type Workspace,
} from '../../domain/memory/workspaces/workspace-config';
import type { MemoryClient } from './memory-client';
import type { PipelineState } from './pipeline-state';

export interface MemoryPipelineDeps {
  workspaces: Workspace[];
  memory: MemoryClient;
  state: PipelineState;
}

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
const hashKey = (ws: string, file: string) => `sync:${ws}:${file}`;

export function createMemoryPipelineActivities({ workspaces, memory, state }: MemoryPipelineDeps) {
  const workspace = (name: string) => {
    const ws = workspaces.find((w) => w.name === name);
    if (!ws) throw new Error(`no workspace named ${name}`);
    return ws;
  };
  const readRange = (file: string, from: number, to: number) => {
    const fd = fs.openSync(file, 'r');
    try {
      const buf = Buffer.alloc(to - from);
      fs.readSync(fd, buf, 0, buf.length, from);
      return buf.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  };

  return {
    /** Names of the configured workspaces. */
    async listWorkspaces(): Promise<string[]> {
      return workspaces.map((w) => w.name);
    },

    /** Every journal with bytes after its offset (whole lines only; a line still being written waits). */
    async listJournalDeltas(): Promise<JournalDelta[]> {
      const deltas: JournalDelta[] = [];
      for (const ws of workspaces) {
        for (const j of journals(ws)) {
          const from = Number((await state.get(offsetKey(ws.name, j.file))) ?? 0);
          const size = fs.statSync(j.file).size;
          if (size <= from) continue;
          const tail = fs.readFileSync(j.file).subarray(from, size);
          const lastNewline = tail.lastIndexOf(0x0a);
          if (lastNewline < 0) continue;
          deltas.push({ workspace: ws.name, file: j.file, day: j.day, from, to: from + lastNewline + 1 });
        }
      }
      return deltas;
    },

    /**
     * Adds a journal chunk as short-term memory (infer true, category short_term), then a task pass
     * (category task, `[type] description`). Keys per journal and byte range make a retry a no-op.
     */
    async digestJournalChunk(req: DigestChunkRequest): Promise<{ short_term: number; tasks: number }> {
      const ws = workspace(req.workspace);
      const text = readRange(req.file, req.from, req.to);
      const key = `digest:${ws.name}:${path.basename(req.file)}:${req.from}-${req.to}`;
      const source = { file: path.basename(req.file), bytes: [req.from, req.to] };
      const shortTerm = await memory.add({
        user_id: ws.user_id,
        agent_id: ws.agent_id,
        run_id: req.run_id,
        text,
        infer: true,
        metadata: { category: 'short_term', source },
        idempotency_key: `${key}:short_term`,
      });
      const tasks = await memory.add({
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
    },

    /** Moves a journal's offset: called only after both writes of its chunk succeeded. */
    async commitJournalOffset(req: { workspace: string; file: string; offset: number }): Promise<void> {
      await state.set(offsetKey(req.workspace, req.file), String(req.offset));
    },

    /** Memory files of every workspace (MEMORY.md and non-journal memory/*.md). */
    async listMemoryFiles(): Promise<{ workspace: string; file: string }[]> {
      return workspaces.flatMap((ws) => memoryFiles(ws).map((file) => ({ workspace: ws.name, file })));
    },

    /** A memory file whose content hash changed becomes long-term memory; an unchanged one is skipped. */
    async syncMemoryFile(req: {
      workspace: string;
      file: string;
    }): Promise<'synced' | 'unchanged' | 'empty'> {
      const ws = workspace(req.workspace);
      const content = fs.readFileSync(req.file, 'utf8');
      const hash = createHash('sha256').update(content).digest('hex');
      if ((await state.get(hashKey(ws.name, req.file))) === hash) return 'unchanged';
      if (content.trim()) {
        await memory.add({
          user_id: ws.user_id,
          agent_id: ws.agent_id,
          text: content,
          infer: true,
          metadata: { source: { file: path.relative(ws.dir, req.file), sha256: hash } },
          idempotency_key: `sync:${ws.name}:${path.relative(ws.dir, req.file)}:${hash}`,
        });
      }
      await state.set(hashKey(ws.name, req.file), hash);
      return content.trim() ? 'synced' : 'empty';
    },

    /** Consolidation step 1: a day's whole journal becomes long-term memory (infer true). */
    async consolidateJournal(req: { workspace: string; day: string }): Promise<number> {
      const ws = workspace(req.workspace);
      const file = journalPath(ws, req.day);
      if (!fs.existsSync(file) || !fs.readFileSync(file, 'utf8').trim()) return 0;
      const res = await memory.add({
        user_id: ws.user_id,
        agent_id: ws.agent_id,
        text: fs.readFileSync(file, 'utf8'),
        infer: true,
        metadata: { source: { file: path.basename(file), consolidated: true } },
        idempotency_key: `dream:${ws.name}:${req.day}`,
      });
      return res.results.filter((r) => r.event === 'ADD').length;
    },

    /** Consolidation step 2, input: ids of the workspace's short-term memories from before `before` (YYYY-MM-DD). */
    async listExpiredShortTerm(req: { workspace: string; before: string }): Promise<string[]> {
      const ws = workspace(req.workspace);
      const { results } = await memory.list({ user_id: ws.user_id, agent_id: ws.agent_id });
      return results.filter((m) => m.run_id !== null && m.run_id < req.before).map((m) => m.id);
    },

    /** Re-adds one short-term memory as long-term (infer true), and deletes the original only after that succeeded. */
    async promoteShortTerm(req: { workspace: string; memory_id: string }): Promise<'promoted' | 'gone'> {
      const ws = workspace(req.workspace);
      const original = await memory.get(req.memory_id);
      if (!original) return 'gone';
      // Short-term's category does not carry over: the long-term copy is categorised anew.
      const metadata = Object.fromEntries(
        Object.entries(original.metadata).filter(([k]) => k !== 'category'),
      );
      await memory.add({
        user_id: ws.user_id,
        agent_id: ws.agent_id,
        text: original.memory,
        infer: true,
        metadata: {
          ...metadata,
          promoted_from: { memory_id: original.id, run_id: original.run_id, category: original.category },
        },
        idempotency_key: `promote:${original.id}`,
      });
      await memory.delete(original.id);
      return 'promoted';
    },
  };
}

export type MemoryPipelineActivities = ReturnType<typeof createMemoryPipelineActivities>;
