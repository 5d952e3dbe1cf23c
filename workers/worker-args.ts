/**
 * `npm run worker -- [--queues agents,ingestion]`: the command line sets the workloads served
 * (as PLAT_WORKER_QUEUES does; the flag wins), validated with the rest of the configuration.
 */
import { parseArgs } from 'node:util';
import { WORKLOAD_HELP, WORKLOADS } from '../shared/task-queues';

export const WORKER_USAGE = `usage: npm run worker -- [--queues <workload>,…|all]

Serves the Temporal task queues of the chosen workloads (default: all, as npm start does):
${WORKLOADS.map((w) => `  ${w.padEnd(11)} ${WORKLOAD_HELP[w]}`).join('\n')}
A worker serving ingestion or warehouse also serves this host's queue (the stages that read or
write a project's files). Slots per queue: PLAT_WORKER_SLOTS. See docs/fleet.md.`;

/** Applies the flags to `env`; prints usage and exits on --help or a bad flag. */
export function applyWorkerArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): void {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { queues: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    });
    if (values.help) {
      console.log(WORKER_USAGE);
      process.exit(0);
    }
    if (values.queues !== undefined) env.PLAT_WORKER_QUEUES = values.queues;
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${WORKER_USAGE}`);
    process.exit(2);
  }
}
