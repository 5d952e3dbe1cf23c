/**
 * `npm run profile:cpu -- COMMAND [ARGS...]` (default: jest, as `npm test` runs it): runs the command
 * and prints the CPU seconds every process on the machine spent meanwhile, by kind (jest workers,
 * warehouse children, spawned workers and gateways, schemathesis, the servers...), and how idle the
 * cores were. Read from /proc once a second: a process that lived less than a second is missed, and
 * what the machine's other tenants spent counts too. What the suite's time goes to, before a change
 * to make it faster (README.md#tests).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import path from 'node:path';

/** A process's kind, from its command line. */
const KINDS: [RegExp, string][] = [
  [/warehouse-child-main/, 'warehouse children'],
  [/jest-worker|processChild/, 'jest workers'],
  [/jest/, 'jest'],
  [/temporal.*start-dev/, 'Temporal dev server'],
  [/temporal-test-server|test-server/, 'Temporal test server'],
  [/mariadbd|mysqld/, 'MariaDB'],
  [/postgres/, 'PostgreSQL'],
  [/opensearch|java/, 'OpenSearch'],
  [/chrom/, 'Chromium'],
  [/schemathesis|\/st /, 'schemathesis'],
  [/dbt/, 'dbt'],
  [/moto/, 'moto'],
  [/prometheus|alertmanager/, 'Prometheus, Alertmanager'],
  [/workers\/main/, 'plat workers'],
  [/platform-main/, 'plat gateways'],
  [/memory-main/, 'memory services'],
  [/cli\/main|plat\.cjs/, 'CLI calls'],
  [/python/, 'other Python'],
  [/node|tsx/, 'other node'],
];

const kindOf = (cmdline: string): string => KINDS.find(([re]) => re.test(cmdline))?.[1] ?? 'other';

/** utime + stime (clock ticks) and start time of `pid`, or undefined once it has gone. */
function stat(pid: string): { ticks: number; started: number } | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { ticks: Number(fields[11]) + Number(fields[12]), started: Number(fields[19]) };
  } catch {
    return undefined;
  }
}

/** The test files whose jest worker spent the most CPU on them (test/harness/suite-cpu.ts). */
function printSuiteCpu(file: string): void {
  if (!fs.existsSync(file)) return;
  const suites = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { suite: string; cpu: number })
    .sort((a, b) => b.cpu - a.cpu);
  fs.rmSync(file);
  const total = suites.reduce((sum, s) => sum + s.cpu, 0);
  console.log(
    `\njest workers by test file: ${total.toFixed(0)} CPU-s over ${suites.length} files; the most:`,
  );
  for (const s of suites.slice(0, SUITES_SHOWN))
    console.log(`${s.cpu.toFixed(1).padStart(8)}  ${path.relative(process.cwd(), s.suite)}`);
}

const SUITES_SHOWN = 25;

const cpuLine = () => fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);

function main(): void {
  const [command, ...args] = process.argv.slice(2).length
    ? process.argv.slice(2)
    : [process.execPath, '--max-semi-space-size=64', 'node_modules/jest/bin/jest.js'];
  const startedAt = Number(fs.readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * 100;
  /** pid:start → kind, ticks when first seen (0 for a process started since), ticks last seen. */
  const seen = new Map<string, { kind: string; first: number; last: number }>();
  const cpuAtStart = cpuLine();
  const sample = () => {
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const s = stat(pid);
      if (!s) continue;
      const key = `${pid}:${s.started}`;
      const known = seen.get(key);
      if (known) known.last = s.ticks;
      else {
        let cmdline: string;
        try {
          cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
        } catch {
          continue;
        }
        seen.set(key, { kind: kindOf(cmdline), first: s.started > startedAt ? 0 : s.ticks, last: s.ticks });
      }
    }
  };
  const timer = setInterval(sample, 1000);
  const began = Date.now();
  const suiteCpuFile = path.join(os.tmpdir(), `plat-suite-cpu-${process.pid}.jsonl`);
  const child = spawn(command, args, {
    stdio: 'inherit',
    env: { ...process.env, PLAT_SUITE_CPU_FILE: suiteCpuFile },
  });
  child.on('exit', (code) => {
    clearInterval(timer);
    sample();
    const cpu = cpuLine().map((v, i) => v - cpuAtStart[i]);
    const idle = (cpu[3] + cpu[4]) / cpu.reduce((a, b) => a + b, 0);
    const byKind = new Map<string, number>();
    const started = new Map<string, number>();
    for (const p of seen.values()) {
      byKind.set(p.kind, (byKind.get(p.kind) ?? 0) + (p.last - p.first) / 100);
      started.set(p.kind, (started.get(p.kind) ?? 0) + 1);
    }
    const total = [...byKind.values()].reduce((a, b) => a + b, 0);
    console.log(
      `\ncpu-by-process: ${((Date.now() - began) / 1000).toFixed(0)} s, ${total.toFixed(0)} CPU-s seen, cores idle ${(idle * 100).toFixed(0)}%`,
    );
    for (const [kind, s] of [...byKind].sort((a, b) => b[1] - a[1]))
      if (s >= 0.5) console.log(`${s.toFixed(1).padStart(8)}  ${kind} (${started.get(kind)} processes)`);
    printSuiteCpu(suiteCpuFile);
    process.exit(code ?? 1);
  });
}

main();
