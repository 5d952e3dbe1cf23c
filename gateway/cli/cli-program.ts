/**
 * The `plat` command line as a commander program (docs/architecture.md#the-cli): every command
 * group registers its subcommands and flags; commander dispatches, parses and answers `--help` at
 * any depth, with the usage entries of the command asked about.
 */
import { Command } from 'commander';
import { usageFor } from './help';
import { INDEX_USAGE, registerIndexCommands } from './index-commands';
import { MEMORY_USAGE, registerMemoryCommands } from './memory-commands';
import { PROJECTS_USAGE, registerProjectCommands } from './project-commands';
import { RETENTION_USAGE, registerRetentionCommand } from './retention-commands';
import { registerSecretsCommands, SECRETS_USAGE } from './secrets-commands';
import { registerUsersCommands, USERS_USAGE } from './users-commands';

export const USAGE = `Usage: plat <command> [options]

${PROJECTS_USAGE}
${MEMORY_USAGE}
${INDEX_USAGE}
${RETENTION_USAGE}
${USERS_USAGE}
${SECRETS_USAGE}

Options: --url URL (default $PLAT_URL or http://127.0.0.1:8080)  --json (raw JSON output)`;

/** The words naming `cmd` below the program (`['index', 'bootstrap']`). */
function pathOf(cmd: Command): string[] {
  const words: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) words.unshift(c.name());
  return words;
}

/** The program, with each group's commands registered. */
export function platProgram(): Command {
  const program = new Command('plat')
    .option('--url <url>', 'the gateway (default $PLAT_URL or http://127.0.0.1:8080)')
    .option('--json', 'raw JSON output')
    .exitOverride()
    // Errors are printed once, by main.ts, with the exit code the CLI documents.
    .configureOutput({ outputError: () => {} })
    .configureHelp({
      formatHelp: (cmd) => {
        const words = pathOf(cmd);
        return `${words.length ? `Usage: plat\n${usageFor(USAGE, words)}` : USAGE}\n`;
      },
    });
  // Subcommands inherit these settings as they are created (help, errors through main.ts).
  registerProjectCommands(program);
  registerMemoryCommands(program);
  registerIndexCommands(program);
  registerRetentionCommand(program);
  registerUsersCommands(program);
  registerSecretsCommands(program);
  return program;
}
