/**
 * Agent workspaces (issue #6): per agent a directory with daily journals `memory/YYYY-MM-DD.md` and
 * memory files (`MEMORY.md` and other non-journal `memory/*.md`), mapped to a user_id and agent_id.
 * Configured by PLAT_MEMORY_WORKSPACES: a JSON list, or the path of a JSON file holding one.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { repoRoot } from '../../../shared/paths';

export const workspaceSchema = z
  .object({
    name: z.string().regex(/^[a-zA-Z0-9_.-]{1,64}$/, 'letters, digits, _ . - (at most 64)'),
    dir: z.string().min(1),
    user_id: z.string().min(1).max(200),
    agent_id: z.string().min(1).max(200),
  })
  .strict();

export type Workspace = z.output<typeof workspaceSchema>;

const JOURNAL = /^(\d{4}-\d{2}-\d{2})\.md$/;

/** The workspaces to run pipelines on; unset, one `default` workspace under the data directory. */
export function loadWorkspaces(setting: string | undefined, dataDir: string): Workspace[] {
  if (!setting?.trim()) {
    return [
      { name: 'default', dir: path.join(dataDir, 'workspace'), user_id: 'default', agent_id: 'default' },
    ];
  }
  const text = setting.trim().startsWith('[')
    ? setting
    : fs.readFileSync(path.resolve(repoRoot, setting), 'utf8');
  const parsed = z.array(workspaceSchema).min(1).safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`PLAT_MEMORY_WORKSPACES: ${issue.path.join('.')}: ${issue.message}`);
  }
  const names = new Set<string>();
  for (const w of parsed.data) {
    if (names.has(w.name)) throw new Error(`PLAT_MEMORY_WORKSPACES: duplicate workspace name ${w.name}`);
    names.add(w.name);
  }
  return parsed.data.map((w) => ({ ...w, dir: path.resolve(repoRoot, w.dir) }));
}

/** The journal file of a day. */
export function journalPath(ws: Workspace, day: string): string {
  return path.join(ws.dir, 'memory', `${day}.md`);
}

/** Journal files present, with their day, oldest first. */
export function journals(ws: Workspace): { file: string; day: string }[] {
  const dir = path.join(ws.dir, 'memory');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .flatMap((f) => {
      const m = JOURNAL.exec(f);
      return m ? [{ file: path.join(dir, f), day: m[1] }] : [];
    })
    .sort((a, b) => a.day.localeCompare(b.day));
}

/** Memory files: `MEMORY.md` and every non-journal `memory/*.md`. */
export function memoryFiles(ws: Workspace): string[] {
  const files: string[] = [];
  const top = path.join(ws.dir, 'MEMORY.md');
  if (fs.existsSync(top)) files.push(top);
  const dir = path.join(ws.dir, 'memory');
  if (fs.existsSync(dir)) {
    for (const f of fs.readdirSync(dir).sort())
      if (f.endsWith('.md') && !JOURNAL.test(f)) files.push(path.join(dir, f));
  }
  return files;
}

/** The workspace of a user and agent, if one is configured. */
export function workspaceOf(
  workspaces: Workspace[],
  userId: string,
  agentId?: string,
): Workspace | undefined {
  return workspaces.find((w) => w.user_id === userId && (agentId === undefined || w.agent_id === agentId));
}
