/**
 * `plat`: the command-line client of the platform API and the memory service, a commander program
 * (cli-program.ts; docs/architecture.md#the-cli):
 *   plat login | signup
 *   plat projects create|list|show|watch|approve|modify|reject|cancel|logs|report|query (project-commands.ts)
 *   plat memory add|search|search-combined|list|get|update|delete|history|context|digest|sync|consolidate (memory-commands.ts)
 *   plat index bootstrap|policy|attach|detach|retry|explain|rollover|alias|cat|settings|pass|doctor|analyze|termvectors|terms|simulate (index-commands.ts)
 *   plat retention [--dry-run] (retention-commands.ts)
 *   plat users grant|revoke USERNAME (users-commands.ts)
 *   plat secrets rotate (secrets-commands.ts)
 * Global options: --url (PLAT_URL, default http://127.0.0.1:8080), --json.
 * Exit codes: 0 done, 1 the server or the work refused, 2 a usage error.
 */
import { CommanderError } from 'commander';
import { ApiError } from './api-client';
import { platProgram, USAGE } from './cli-program';

async function main(argv: string[]): Promise<number> {
  if (!argv.length) return (process.stdout.write(`${USAGE}\n`), 2);
  try {
    await platProgram().parseAsync(argv, { from: 'user' });
    return Number(process.exitCode ?? 0);
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    // Help asked for (0), or commander's own usage errors: an unknown command or flag (2).
    if (err.exitCode === 0) return 0;
    throw new ApiError(2, 'usage', `${err.message.replace(/^error: /, '')} (plat --help)`);
  }
}

/**
 * Exits once stdout and stderr have taken everything written: into a pipe (`plat … --json | jq`) a
 * write is handed over a buffer at a time, and exiting at once cut a long answer at 64 KB.
 */
function exitWhenFlushed(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

main(process.argv.slice(2)).then(
  (code) => exitWhenFlushed(code),
  (err) => {
    const e = err as ApiError;
    process.stderr.write(`plat: ${e.message}\n`);
    if (Array.isArray(e.details))
      for (const d of e.details as { field?: string; message?: string }[])
        process.stderr.write(`  ${d.field}: ${d.message}\n`);
    // An invalid policy: each problem with its path.
    for (const p of (e.details as { problems?: { path: string; message: string }[] })?.problems ?? [])
      process.stderr.write(`  ${p.path}: ${p.message}\n`);
    exitWhenFlushed(e.status === 2 ? 2 : 1);
  },
);
