/**
 * `plat memory add|search|search-combined|list|changes|get|update|delete|history`: the memory service
 * (docs/requirements.md#memory-api, port 8230) from a terminal. No login: the service needs no key on
 * loopback; PLAT_MEMORY_API_KEY is sent as a bearer key when set. The client-side sharing rule
 * (docs/requirements.md#categories): a long-term experience/procedural memory is also added to user `shared`, once.
 */
import * as fs from 'node:fs';
import type { Command } from 'commander';
import {
  SHARED_CATEGORIES,
  SHARED_USER,
  type MemoryAddResult,
  type TokenUsage,
} from '../../shared/memory-model';
import { SEARCH_MODES, type SearchMode } from '../../shared/memory-requests';
import { ApiError, memoryClient, ok, type MemoryClient } from './api-client';
import {
  addResultsText,
  contextText,
  historyText,
  changesText,
  listText,
  recordText,
  searchText,
  usageLine,
} from './memory-render';
import { PIPELINE_COMMANDS, triggerPipeline } from './memory-pipeline-commands';
import {
  addFlags,
  answering,
  groupWithoutSubcommand,
  type CommandResult,
  type FlagSpec,
  type FlagValues,
} from './command-kit';
import { pipedText, required as requiredFlag, usageError } from './command-kit';

export const MEMORY_USAGE = `  memory add --user U [--agent A] [--run-id YYYY-MM-DD] [--category C] [--metadata JSON]
             [--no-infer] [--prompt TEXT] (TEXT... | --file F | stdin)
                                          long-term experience/procedural memories are also added to
                                          user "shared" (once)
  memory search --user U [--agent A] [--top-k N] [--min-score X] [--run-id D] [--no-decay]
             [--mode hybrid|semantic|lexical] [--as-of DAY|TIME] QUERY...
                                          MATCHED shows what found each memory: its similarity, the
                                          query terms it holds, the names and time it matches;
                                          --as-of answers what held then
  memory search-combined --user U [--agent A] [--top-k N] [--min-score X] [--recent-days N]
             [--no-decay] [--mode M] QUERY...  long-term plus the last N days of short-term
  memory list --user U [--agent A] [--run-id D] [--limit N] [--as-of DAY|TIME]
  memory changes --user U [--agent A] [--since DAY|TIME]
                                          each value a newer statement replaced: when, old → new
  memory get ID
  memory update ID (TEXT... | --file F | stdin) [--metadata JSON]
  memory delete ID
  memory history ID                       every change: when, event, old → new
  memory context --user U [--agent A] [--query Q]
                                          session start: today's and yesterday's journal + a search
  memory digest|sync|consolidate [--wait] run a memory pipeline now (triggers its Temporal Schedule;
                                          TEMPORAL_ADDRESS, default 127.0.0.1:7233)
  memory options: --memory-url URL (default $PLAT_MEMORY_URL or http://127.0.0.1:8230),
                  API key from $PLAT_MEMORY_API_KEY (not needed on loopback), --json`;

type AddResponse = { results: MemoryAddResult[]; token_usage: TokenUsage };
type AddBody = {
  user_id: string;
  agent_id?: string;
  run_id?: string;
  text: string;
  metadata?: Record<string, unknown>;
  infer?: boolean;
  custom_extraction_prompt?: string;
};

/** --mode, checked here so a typo names the choices (the service would answer 400 too). */
function searchMode(mode: string | undefined): SearchMode | undefined {
  if (mode === undefined) return undefined;
  if (!(SEARCH_MODES as readonly string[]).includes(mode))
    throw usage(`--mode must be one of ${SEARCH_MODES.join(', ')}, got "${mode}"`);
  return mode as SearchMode;
}

const HELP = 'plat memory --help';
const usage = (message: string) => usageError(message, HELP);
const required = <T>(value: T | undefined, what: string) => requiredFlag(value, what, HELP);

/** The flags of `plat memory` (every subcommand reads the ones it needs). */
const MEMORY_FLAGS = {
  'memory-url': { type: 'string' },
  user: { type: 'string' },
  agent: { type: 'string' },
  'run-id': { type: 'string' },
  category: { type: 'string' },
  metadata: { type: 'string' },
  'no-infer': { type: 'boolean' },
  prompt: { type: 'string' },
  file: { type: 'string' },
  'top-k': { type: 'string' },
  'min-score': { type: 'string' },
  'recent-days': { type: 'string' },
  'no-decay': { type: 'boolean' },
  mode: { type: 'string' },
  limit: { type: 'string' },
  'as-of': { type: 'string' },
  since: { type: 'string' },
  query: { type: 'string' },
  wait: { type: 'boolean' },
} satisfies FlagSpec;

type MemoryFlags = FlagValues<typeof MEMORY_FLAGS>;

/** What a `memory` subcommand gets: its name and operands, the group's flags, the service's client. */
interface MemoryCall {
  sub: string;
  rest: string[];
  values: MemoryFlags;
  http: MemoryClient['http'];
  user(): string;
  id(): { params: { path: { id: string } } };
  metadata(): Record<string, unknown> | undefined;
  out(data: unknown, text: () => string): CommandResult;
}
type MemoryAction = (call: MemoryCall) => Promise<CommandResult>;

/** Registers `plat memory` and its subcommands (the memory service has its own server: --memory-url). */
export function registerMemoryCommands(program: Command): void {
  const memory = addFlags(program.command('memory'), MEMORY_FLAGS);
  const run = (action: MemoryAction, sub: string) =>
    answering(async (rest, flags) => {
      const values = flags as MemoryFlags;
      const baseUrl = (
        values['memory-url'] ??
        process.env.PLAT_MEMORY_URL ??
        'http://127.0.0.1:8230'
      ).replace(/\/$/, '');
      const { http } = memoryClient(baseUrl, process.env.PLAT_MEMORY_API_KEY || undefined);
      return action({
        sub,
        rest,
        values,
        http,
        user: () => required(values.user, '--user'),
        id: () => ({ params: { path: { id: required(rest[0], 'the memory id') } } }),
        metadata: () => jsonObject(values.metadata),
        out: (data, text) => ({ data, text: text() }),
      });
    });
  for (const [names, action] of MEMORY_ACTIONS)
    for (const name of names) memory.command(name).argument('[ARGS...]').action(run(action, name));
  for (const name of PIPELINE_COMMANDS)
    memory
      .command(name)
      .action(answering(async (_operands, flags) => triggerPipeline(name, flags.wait === true)));
  groupWithoutSubcommand(memory, 'memory', MEMORY_USAGE);
}

/** Each subcommand's action (search and search-combined share one). */
const MEMORY_ACTIONS: [string[], MemoryAction][] = [
  [
    ['add'],
    async ({ rest, values, http, user, metadata, out }) => {
      const extra = metadata();
      const meta = values.category ? { ...extra, category: values.category } : extra;
      const body: AddBody = {
        user_id: user(),
        agent_id: values.agent,
        run_id: values['run-id'],
        metadata: meta,
        infer: values['no-infer'] ? false : undefined,
        custom_extraction_prompt: values.prompt,
        text: await readText(rest, values.file),
      };
      const res = await answer(http.POST('/memory/add', { body }));
      const shared = await share(http, body, res);
      const data = shared.length ? { ...res, shared: shared.map((s) => s.response) } : res;
      return out(data, () =>
        [addResultsText(res.results), usageLine(res.token_usage), ...shared.map((s) => s.line)].join('\n'),
      );
    },
  ],
  [
    ['search', 'search-combined'],
    async ({ sub, rest, values, http, user, out }) => {
      const combined = sub === 'search-combined';
      if (combined && values['run-id']) throw usage('--run-id applies to search, not search-combined');
      if (!combined && values['recent-days']) throw usage('--recent-days applies to search-combined only');
      if (combined && values['as-of']) throw usage('--as-of applies to search and list, not search-combined');
      const body = {
        query: required(rest.join(' ').trim(), 'the query'),
        user_id: user(),
        agent_id: values.agent,
        top_k: num(values['top-k'], '--top-k'),
        min_score: num(values['min-score'], '--min-score'),
        time_decay: values['no-decay'] ? false : undefined,
        search_mode: searchMode(values.mode),
        ...(combined
          ? { recent_days: num(values['recent-days'], '--recent-days') }
          : { run_id: values['run-id'], as_of: values['as-of'] }),
      };
      const res = await answer(
        combined ? http.POST('/memory/search_combined', { body }) : http.POST('/memory/search', { body }),
      );
      return out(res, () => searchText(res.results));
    },
  ],
  [
    ['list'],
    async ({ values, http, user, out }) => {
      const query = {
        user_id: user(),
        agent_id: values.agent || undefined,
        run_id: values['run-id'] || undefined,
        as_of: values['as-of'] || undefined,
        limit: values.limit ? num(values.limit, '--limit') : undefined,
      };
      const res = await answer(http.GET('/memory/list', { params: { query } }));
      return out(res, () => listText(res.results));
    },
  ],
  [
    ['changes'],
    async ({ values, http, user, out }) => {
      const query = {
        user_id: user(),
        agent_id: values.agent || undefined,
        since: values.since || undefined,
      };
      const res = await answer(http.GET('/memory/changes', { params: { query } }));
      return out(res, () => changesText(res.results));
    },
  ],
  [
    ['get'],
    async ({ http, id, out }) => {
      const res = await answer(http.GET('/memory/{id}', id()));
      return out(res, () => recordText(res));
    },
  ],
  [
    ['update'],
    async ({ rest, values, http, metadata, out }) => {
      const memoryId = required(rest[0], 'the memory id');
      const body = {
        memory_id: memoryId,
        text: await readText(rest.slice(1), values.file),
        metadata: metadata(),
      };
      const res = await answer(http.PUT('/memory/update', { body }));
      return out(res, () => `updated ${res.id}: ${res.memory}`);
    },
  ],
  [
    ['delete'],
    async ({ http, id, out }) => {
      const res = await answer(http.DELETE('/memory/{id}', id()));
      return out(res, () => `deleted ${res.id}`);
    },
  ],
  [
    ['history'],
    async ({ http, id, out }) => {
      const res = await answer(http.GET('/memory/history/{id}', id()));
      return out(res, () => historyText(res.results));
    },
  ],
  [
    ['context'],
    async ({ values, http, user, out }) => {
      const query = {
        user_id: user(),
        agent_id: values.agent || undefined,
        query: values.query || undefined,
      };
      const res = await answer(http.GET('/memory/context', { params: { query } }));
      return out(res, () => contextText(res));
    },
  ],
];

/**
 * A long-term memory of category experience or procedural is also added to the shared
 * space, for each fact the add created or changed. The service refuses identical text per user
 * (event NONE), so a fact is never shared twice.
 */
async function share(
  http: MemoryClient['http'],
  body: AddBody,
  res: AddResponse,
): Promise<{ line: string; response: AddResponse }[]> {
  const category = body.metadata?.category;
  if (body.run_id || body.user_id === SHARED_USER || !SHARED_CATEGORIES.includes(String(category))) return [];
  const copies: { line: string; response: AddResponse }[] = [];
  for (const r of res.results.filter((x) => x.event === 'ADD' || x.event === 'UPDATE')) {
    const sharedCopy = {
      user_id: SHARED_USER,
      text: r.memory,
      infer: false,
      metadata: {
        ...body.metadata,
        shared_from: { memory_id: r.id, user_id: body.user_id, agent_id: body.agent_id ?? null },
      },
    };
    const response = await answer(http.POST('/memory/add', { body: sharedCopy })).catch((err: ApiError) => {
      throw new ApiError(
        err.status,
        err.code,
        `added, but the copy to "${SHARED_USER}" failed: ${err.message}`,
        err.details,
      );
    });
    const copy = response.results[0];
    const state = copy?.event === 'NONE' ? 'already there' : 'added';
    copies.push({ line: `shared: ${state} (${copy?.id ?? '?'})`, response });
  }
  return copies;
}

/** The body of a memory-service call (see `ok`), with hints that fit the memory service. */
async function answer<R extends Parameters<typeof ok>[0]>(call: R): Promise<NonNullable<Awaited<R>['data']>> {
  try {
    return await ok(call);
  } catch (err) {
    const e = err as ApiError;
    if (!(e instanceof ApiError)) throw err;
    const message =
      e.status === 0
        ? e.message.replace(/; is plat running.*$/, '; is the memory service running (npm run memory)?')
        : e.status === 401
          ? e.message.replace(' (run `plat login`)', ' (set PLAT_MEMORY_API_KEY)')
          : e.message;
    // A 2 from the server would read as a usage error: every server answer is exit code 1.
    throw new ApiError(e.status === 2 ? 1 : e.status, e.code, message, e.details);
  }
}

function num(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || Number.isNaN(n)) throw usage(`${flag} must be a number, not "${value}"`);
  return n;
}

function jsonObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw usage(`--metadata is not JSON: ${(err as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw usage('--metadata must be a JSON object, e.g. \'{"source":"notes"}\'');
  return parsed as Record<string, unknown>;
}

/** The text from the arguments, else --file, else stdin (when piped); one final newline dropped. */
async function readText(words: string[], file: string | undefined): Promise<string> {
  if (words.length && file) throw usage('give the text either as arguments or with --file, not both');
  if (words.length) return words.join(' ');
  if (file) {
    try {
      return fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (err) {
      throw usage(`cannot read --file ${file}: ${(err as Error).message}`);
    }
  }
  const text = await pipedText();
  if (!text?.trim()) throw usage('missing the text (TEXT..., --file F, or pipe it on stdin)');
  return text;
}
