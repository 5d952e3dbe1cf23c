/**
 * What every `plat` command shares on top of commander (docs/architecture.md#the-cli): flag tables
 * declared once per command group, read back by the names users type (`--retention-days`), one
 * way to answer (text, or the raw JSON with `--json`) and usage errors with exit code 2.
 */
import type { Command } from 'commander';
import { ApiError } from './api-client';

/** What a command answers: the raw response, its text form, and an exit code other than 0 if any. */
export interface CommandResult {
  data: unknown;
  text: string;
  exitCode?: number;
}

/** A group's flags: each string flag takes a value, each boolean is on when given. */
export type FlagSpec = Record<string, { type: 'string' | 'boolean'; short?: string }>;

/** The values of a group's flags by name: a string flag's text, a boolean's on or off. */
export type FlagValues<S extends FlagSpec> = {
  [K in keyof S]?: S[K]['type'] extends 'boolean' ? boolean : string;
};

/** The values of a command's flags and its ancestors', keyed by the flag's name (`retention-days`). */
export type Flags = Record<string, string | boolean | undefined>;

/** Declares `spec`'s flags on `cmd` (a `no-x` boolean is commander's negation of `--x`). */
export function addFlags(cmd: Command, spec: FlagSpec): Command {
  for (const [name, { type, short }] of Object.entries(spec)) {
    const flag = `${short ? `-${short}, ` : ''}--${name}${type === 'string' ? ' <value>' : ''}`;
    cmd.option(flag);
  }
  return cmd;
}

/** The flags given to `cmd` and to the commands above it, by the names users type. */
export function flagsOf(cmd: Command): Flags {
  const flags: Flags = {};
  for (let c: Command | null = cmd; c; c = c.parent) {
    for (const o of c.options) {
      const name = (o.long ?? o.short ?? '').replace(/^-+/, '');
      if (name in flags) continue;
      const value = c.getOptionValue(o.attributeName()) as string | boolean | undefined;
      flags[name] = o.negate ? value === false : value;
    }
  }
  return flags;
}

/** A usage error (exit code 2) whose message ends with where to read more. */
export const usageError = (message: string, help = 'plat --help') =>
  new ApiError(2, 'usage', `${message} (${help})`);

/** `value`, or a usage error naming what is missing. */
export function required<T>(value: T | undefined, what: string, help = 'plat --help'): T {
  if (value === undefined || value === '') throw usageError(`missing ${what}`, help);
  return value;
}

/** What was piped on stdin, one final newline dropped; undefined when stdin is a terminal. */
export async function pipedText(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text.replace(/\r?\n$/, '');
}

/**
 * A command's action: runs `run` with the command's operands and flags, prints its answer (the raw
 * JSON with `--json`) and sets the exit code. Errors go to the program's handler (main.ts).
 */
export function answering(run: (operands: string[], flags: Flags, cmd: Command) => Promise<CommandResult>) {
  return async (...args: unknown[]): Promise<void> => {
    // commander passes each declared argument (a variadic one as an array), the options, the command.
    const cmd = args[args.length - 1] as Command;
    const operands = args
      .slice(0, -2)
      .flatMap((a) => (Array.isArray(a) ? (a as string[]) : a === undefined ? [] : [a as string]));
    const flags = flagsOf(cmd);
    const { data, text, exitCode } = await run(operands, flags, cmd);
    process.stdout.write(`${flags.json ? JSON.stringify(data, null, 2) : text}\n`);
    process.exitCode = exitCode ?? 0;
  };
}

/**
 * What a command group does without a known subcommand: a usage error naming the one given, or,
 * with none, the group's usage (exit 2 either way).
 */
export function groupWithoutSubcommand(group: Command, name: string, usage: string): Command {
  return group
    .argument('[SUBCOMMAND]')
    .allowExcessArguments()
    .action((sub?: string) => {
      if (sub) throw new ApiError(2, 'usage', `unknown subcommand ${name} ${sub}\n\n${usage}`);
      process.stdout.write(`Usage: plat\n${usage}\n`);
      process.exitCode = 2;
    });
}
