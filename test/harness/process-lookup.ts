/** Live processes found by a marker in their command line or environment (Linux /proc). */
import * as fs from 'node:fs';

/** Every live (not zombie) process but this one whose command line or environment contains `marker`. */
export function processesMentioning(marker: string): { pid: number; cmd: string }[] {
  const found: { pid: number; cmd: string }[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      const env = fs.readFileSync(`/proc/${entry}/environ`, 'utf8');
      const state = /State:\s+(\w)/.exec(fs.readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1];
      if (state !== 'Z' && (cmd.includes(marker) || env.includes(marker)))
        found.push({ pid: Number(entry), cmd });
    } catch {
      /* exited while we looked, or not ours to read */
    }
  }
  return found;
}

/**
 * The fields of `/proc/<pid>/stat` after the command's name (which may hold spaces, in
 * parentheses): state first, then ppid...; undefined once the process is gone.
 */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The live children of `parent` whose command line contains `marker` (Linux /proc). */
export function childrenOf(parent: number, marker: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const [state, ppid] = statFields(entry) ?? [];
    if (state === undefined || state === 'Z' || Number(ppid) !== parent) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) found.push(Number(entry));
    } catch {
      /* exited while we looked */
    }
  }
  return found;
}

/** Whether `pid` is a live process (not a zombie). */
export function isAlive(pid: number): boolean {
  const state = statFields(pid)?.[0];
  return state !== undefined && state !== 'Z';
}
