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
