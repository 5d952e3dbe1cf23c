/**
 * With `PLAT_SUITE_CPU_FILE` set (by `npm run profile:cpu`), appends one line per test file to that
 * file: the file and the CPU seconds its jest worker spent on it, from loading its modules to its last
 * `afterAll` (all the worker's threads: in-process Temporal workers and DuckDB included; the processes
 * it starts are counted by kind instead). A worker runs one file at a time, so the difference is the
 * file's own.
 */
import * as fs from 'node:fs';

const file = process.env.PLAT_SUITE_CPU_FILE;
if (file) {
  const start = process.cpuUsage();
  afterAll(() => {
    const { user, system } = process.cpuUsage(start);
    const line = JSON.stringify({ suite: expect.getState().testPath, cpu: (user + system) / 1e6 });
    fs.appendFileSync(file, `${line}\n`);
  });
}
