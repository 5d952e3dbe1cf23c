/** The 01:00 sync of memory files (docs/requirements.md#pipelines): a file whose content hash changed becomes long-term memory. */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { memoryFiles } from '../../domain/memory/workspaces/workspace-config';
import { workspaceNamed, type MemoryPipelineDeps } from './pipeline-deps';

const hashKey = (ws: string, file: string) => `sync:${ws}:${file}`;

/** Memory files of every workspace (MEMORY.md and non-journal memory/*.md). */
export async function listMemoryFiles(
  deps: MemoryPipelineDeps,
): Promise<{ workspace: string; file: string }[]> {
  return deps.workspaces.flatMap((ws) => memoryFiles(ws).map((file) => ({ workspace: ws.name, file })));
}

/** A memory file whose content hash changed becomes long-term memory; an unchanged one is skipped. */
export async function syncMemoryFile(
  deps: MemoryPipelineDeps,
  req: {
    workspace: string;
    file: string;
  },
): Promise<'synced' | 'unchanged' | 'empty'> {
  const ws = workspaceNamed(deps, req.workspace);
  const content = fs.readFileSync(req.file, 'utf8');
  const hash = createHash('sha256').update(content).digest('hex');
  if ((await deps.state.get(hashKey(ws.name, req.file))) === hash) return 'unchanged';
  if (content.trim()) {
    await deps.memory.add({
      user_id: ws.user_id,
      agent_id: ws.agent_id,
      text: content,
      infer: true,
      metadata: { source: { file: path.relative(ws.dir, req.file), sha256: hash } },
      idempotency_key: `sync:${ws.name}:${path.relative(ws.dir, req.file)}:${hash}`,
    });
  }
  await deps.state.set(hashKey(ws.name, req.file), hash);
  return content.trim() ? 'synced' : 'empty';
}
