// The launcher's reaper: a separate process holding a pipe from the launcher. The launcher writes
// "add <pgid>" / "remove <pgid>" for each child process group it starts and stops; when the pipe
// closes (the launcher exited, however it died, SIGKILL included) the reaper stops every group
// still registered: SIGTERM, then SIGKILL after the grace period. Plain JavaScript so it starts in
// milliseconds and needs nothing but Node. See docs/architecture.md#processes.
/* global setInterval, clearInterval */
'use strict';

const graceMs = Number(process.argv[2] || 10000);
const groups = new Set();
let pending = '';

const alive = (pgid) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};
const signal = (pgid, sig) => {
  try {
    process.kill(-pgid, sig);
  } catch {
    /* already gone */
  }
};

// Ctrl-C in the launcher's terminal must not stop the reaper before the launcher has finished.
process.on('SIGINT', () => {});
process.on('SIGHUP', () => {});

process.stdin.on('data', (chunk) => {
  pending += chunk.toString('utf8');
  const lines = pending.split('\n');
  pending = lines.pop() || '';
  for (const line of lines) {
    const [verb, id] = line.trim().split(' ');
    const pgid = Number(id);
    if (!Number.isInteger(pgid) || pgid <= 1) continue;
    if (verb === 'add') groups.add(pgid);
    if (verb === 'remove') groups.delete(pgid);
  }
});

process.stdin.on('end', () => {
  const left = [...groups].filter(alive);
  if (left.length === 0) process.exit(0);
  left.forEach((g) => signal(g, 'SIGTERM'));
  const deadline = Date.now() + graceMs;
  const poll = setInterval(() => {
    const still = left.filter(alive);
    if (still.length === 0 || Date.now() > deadline) {
      still.forEach((g) => signal(g, 'SIGKILL'));
      clearInterval(poll);
      process.exit(0);
    }
  }, 100);
});
