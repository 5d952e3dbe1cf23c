/**
 * The 02:00 consolidation (docs/requirements.md#pipelines): a day's whole journal becomes long-term
 * memory, then the short-term memories from before the cut-off are re-added as long-term and deleted.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { journalPath } from '../../domain/memory/workspaces/workspace-config';
import { workspaceNamed, type MemoryPipelineDeps } from './pipeline-deps';

/** Consolidation step 1: a day's whole journal becomes long-term memory (infer true). */
export async function consolidateJournal(
  deps: MemoryPipelineDeps,
  req: { workspace: string; day: string },
): Promise<number> {
  const ws = workspaceNamed(deps, req.workspace);
  const file = journalPath(ws, req.day);
  if (!fs.existsSync(file) || !fs.readFileSync(file, 'utf8').trim()) return 0;
  const res = await deps.memory.add({
    user_id: ws.user_id,
    agent_id: ws.agent_id,
    text: fs.readFileSync(file, 'utf8'),
    infer: true,
    metadata: { source: { file: path.basename(file), consolidated: true } },
    idempotency_key: `dream:${ws.name}:${req.day}`,
  });
  return res.results.filter((r) => r.event === 'ADD').length;
}

/** Consolidation step 2, input: ids of the workspace's short-term memories from before `before` (YYYY-MM-DD). */
export async function listExpiredShortTerm(
  deps: MemoryPipelineDeps,
  req: { workspace: string; before: string },
): Promise<string[]> {
  const ws = workspaceNamed(deps, req.workspace);
  const { results } = await deps.memory.list({ user_id: ws.user_id, agent_id: ws.agent_id });
  return results.filter((m) => m.run_id !== null && m.run_id < req.before).map((m) => m.id);
}

/** Re-adds one short-term memory as long-term (infer true), and deletes the original only after that succeeded. */
export async function promoteShortTerm(
  deps: MemoryPipelineDeps,
  req: { workspace: string; memory_id: string },
): Promise<'promoted' | 'gone'> {
  const ws = workspaceNamed(deps, req.workspace);
  const original = await deps.memory.get(req.memory_id);
  if (!original) return 'gone';
  // Short-term's category does not carry over: the long-term copy is categorised anew.
  const metadata = Object.fromEntries(Object.entries(original.metadata).filter(([k]) => k !== 'category'));
  await deps.memory.add({
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
  await deps.memory.delete(original.id);
  return 'promoted';
}
