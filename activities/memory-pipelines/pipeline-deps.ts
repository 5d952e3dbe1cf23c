/** What the memory pipelines' activities need: the agents' workspaces, the memory service's API and the pipelines' state. */
import type { Workspace } from '../../domain/memory/workspaces/workspace-config';
import type { MemoryClient } from './memory-client';
import type { PipelineState } from './pipeline-state';

export interface MemoryPipelineDeps {
  workspaces: Workspace[];
  memory: MemoryClient;
  state: PipelineState;
}

/** The configured workspace of this name. */
export function workspaceNamed(deps: MemoryPipelineDeps, name: string): Workspace {
  const ws = deps.workspaces.find((w) => w.name === name);
  if (!ws) throw new Error(`no workspace named ${name}`);
  return ws;
}

/** Names of the configured workspaces. */
export async function listWorkspaces(deps: MemoryPipelineDeps): Promise<string[]> {
  return deps.workspaces.map((w) => w.name);
}
