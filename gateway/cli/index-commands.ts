/**
 * `plat index ...`: rolling indices and their lifecycle from a terminal, through the platform API's
 * `/v1/search` operations (docs/search-lifecycle.md#rest), signed in as `plat login` left it.
 */
import * as fs from 'node:fs';
import type { Command } from 'commander';
import type { operations } from '../../shared/generated/platform-api';
import { ApiError, ok, signedInClient, type PlatformClient } from './api-client';
import {
  addFlags,
  answering,
  groupWithoutSubcommand,
  type CommandResult,
  type FlagSpec,
  type FlagValues,
} from './command-kit';
import { table } from './render';
import { triggerSchedule } from './schedule-trigger';
import { policyFileName, SIMULATE_USAGE, simulateCommand } from './simulate-command';

export const INDEX_USAGE = `  index bootstrap NAME [--policy retention|tiered|self-managed-warm|self-managed-tiered|none|FILE.json]
             [--retention-days N] [--rollover-age 1d] [--rollover-docs N] [--rollover-size 40gb]
             [--shards N] [--replicas N] [--refresh-interval 1s]
                                          policy NAME-lifecycle, template NAME-*, first index NAME-000001
                                          with the write alias NAME (idempotent; conflicts reported)
  index policy put ID --file POLICY.json | policy get ID | policy delete ID
  index attach PATTERN POLICY_ID          attach a policy to existing indices
  index detach PATTERN | retry PATTERN    stop managing | restart failed actions
  index explain PATTERN                   state, action, step, info of each index
  index rollover ALIAS                    roll the write alias over now
  index alias ALIAS                       the alias's indices and its write index
  index cat indices|shards PATTERN [-v] [-s COLUMNS]
  index settings INDEX [--filter-path PATHS]
  index pass [--wait]                     run the lifecycle engine's pass now (triggers its Temporal
                                          Schedule; TEMPORAL_ADDRESS, default 127.0.0.1:7233)
  index doctor ALIAS [--field F] [--timestamp-field @timestamp]
                                          why rollover, writes, policy attachment or an aggregation go
                                          wrong: cause and fix of each (exit 1 when a problem is found)
  index analyze INDEX (--analyzer A | --field F) TEXT...
                                          the tokens of TEXT, with positions and offsets (an alias
                                          that rolled over is analyzed on its write index)
  index termvectors INDEX (--id ID | --doc JSON) [--fields F,G] [--term-statistics]
                                          term vectors of a stored document (the engine's _id) or an
                                          artificial one, with statistics
  index terms INDEX --field F [--size 10] [--from ISO] [--to ISO] [--timestamp-field @timestamp]
                                          most frequent values of a field (a text field's keyword
                                          sub-field), doc_count = document frequency
${SIMULATE_USAGE}`;

type DoctorView = {
  alias: string;
  engine: string;
  problems: number;
  findings: { symptom: number; title: string; status: string; detail: string; fix?: string }[];
};

/** What an `index` subcommand gets: its operands, the group's flags and the gateway's client. */
interface IndexCall {
  a?: string;
  b?: string;
  /** The operands after the first two (`analyze INDEX TEXT...`). */
  rest: string[];
  values: IndexFlags;
  http: PlatformClient['http'];
}
type IndexAction = (call: IndexCall) => Promise<CommandResult>;

/** The flags of `plat index` (every subcommand reads the ones it needs). */
const INDEX_FLAGS = {
  policy: { type: 'string' },
  'retention-days': { type: 'string' },
  'rollover-age': { type: 'string' },
  'rollover-docs': { type: 'string' },
  'rollover-size': { type: 'string' },
  shards: { type: 'string' },
  replicas: { type: 'string' },
  'refresh-interval': { type: 'string' },
  file: { type: 'string' },
  'filter-path': { type: 'string' },
  field: { type: 'string' },
  'timestamp-field': { type: 'string' },
  v: { type: 'boolean', short: 'v' },
  s: { type: 'string', short: 's' },
  wait: { type: 'boolean' },
  analyzer: { type: 'string' },
  id: { type: 'string' },
  doc: { type: 'string' },
  fields: { type: 'string' },
  'term-statistics': { type: 'boolean' },
  size: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  days: { type: 'string' },
  'docs-per-day': { type: 'string' },
  'bytes-per-day': { type: 'string' },
  'doc-bytes': { type: 'string' },
  growth: { type: 'string' },
  'pass-interval': { type: 'string' },
  'managed-domain': { type: 'boolean' },
  alias: { type: 'string' },
} satisfies FlagSpec;

type IndexFlags = FlagValues<typeof INDEX_FLAGS>;

/** Registers `plat index` and its subcommands on the program. */
export function registerIndexCommands(program: Command): void {
  const index = addFlags(program.command('index'), INDEX_FLAGS);
  for (const [name, action] of Object.entries(INDEX_ACTIONS))
    index
      .command(name)
      .argument('[A]')
      .argument('[B]')
      .argument('[REST...]')
      .action(
        answering(async ([a, b, ...rest], flags) => {
          const { http } = signedInClient(flags.url as string | undefined);
          return action({ a, b, rest, values: flags as IndexFlags, http });
        }),
      );
  groupWithoutSubcommand(index, 'index', INDEX_USAGE);
}

const need = (v: string | undefined, what: string) => {
  if (!v) throw new ApiError(2, 'usage', `missing ${what}\n${INDEX_USAGE}`);
  return v;
};
const json = (data: unknown) => ({ data, text: JSON.stringify(data, null, 2) });

const INDEX_ACTIONS: Record<string, IndexAction> = {
  bootstrap: async ({ a, values, http }) => {
    const name = need(a, 'NAME');
    const policy = values.policy;
    const body = {
      ...(values.shards ? { shards: Number(values.shards) } : {}),
      ...(values.replicas ? { replicas: Number(values.replicas) } : {}),
      ...(values['refresh-interval'] ? { refresh_interval: values['refresh-interval'] } : {}),
      // A file's policy, or the name of a stored one or a preset (the gateway says which it does not know).
      ...(policy
        ? { policy: policy.endsWith('.json') ? readPolicy(policy) : (policy as BootstrapBody['policy']) }
        : {}),
      ...(values['retention-days'] ? { retention_days: Number(values['retention-days']) } : {}),
      ...(values['rollover-age'] || values['rollover-docs'] || values['rollover-size']
        ? {
            rollover: {
              ...(values['rollover-age'] ? { min_index_age: values['rollover-age'] } : {}),
              ...(values['rollover-docs'] ? { min_doc_count: Number(values['rollover-docs']) } : {}),
              ...(values['rollover-size'] ? { min_primary_shard_size: values['rollover-size'] } : {}),
            },
          }
        : {}),
    };
    const report = await ok(
      http.POST('/v1/search/indices/{name}/bootstrap', { params: { path: { name } }, body }),
    );
    return { data: report, text: bootstrapText(report) };
  },
  policy: async ({ a, b, values, http }) => {
    const id = need(b, 'ID');
    if (a === 'put') {
      const res = await ok(
        http.PUT('/v1/search/policies/{policy_id}', {
          params: { path: { policy_id: id } },
          body: { policy: readPolicy(need(values.file, '--file')) },
        }),
      );
      return {
        data: res,
        text: `policy ${id}: ${res.result} (run by ${res.engine === 'ism' ? 'ISM' : "plat's lifecycle engine"})`,
      };
    }
    const path = { policy_id: id };
    if (a === 'get') return json(await ok(http.GET('/v1/search/policies/{policy_id}', { params: { path } })));
    if (a === 'delete')
      return json(await ok(http.DELETE('/v1/search/policies/{policy_id}', { params: { path } })));
    throw new ApiError(2, 'usage', `plat index policy put|get|delete ID\n${INDEX_USAGE}`);
  },
  attach: async ({ a, b, http }) => {
    return json(
      await ok(
        http.POST('/v1/search/indices/{index}/policy', {
          params: { path: { index: need(a, 'PATTERN') } },
          body: { policy_id: need(b, 'POLICY_ID') },
        }),
      ),
    );
  },
  detach: async ({ a, http }) => {
    return json(
      await ok(
        http.DELETE('/v1/search/indices/{index}/policy', {
          params: { path: { index: need(a, 'PATTERN') } },
        }),
      ),
    );
  },
  retry: async ({ a, http }) => {
    return json(
      await ok(
        http.POST('/v1/search/indices/{index}/retry', { params: { path: { index: need(a, 'PATTERN') } } }),
      ),
    );
  },
  explain: async ({ a, http }) => {
    const res = await ok(
      http.GET('/v1/search/indices/{index}/explain', { params: { path: { index: need(a, 'PATTERN') } } }),
    );
    return { data: res, text: explainText(res) };
  },
  rollover: async ({ a, http }) => {
    const alias = need(a, 'ALIAS');
    const res = await ok(http.POST('/v1/search/aliases/{alias}/rollover', { params: { path: { alias } } }));
    return {
      data: res,
      text: `rolled over ${alias}: ${res.old_index} → ${res.new_index} (now its write index)`,
    };
  },
  alias: async ({ a, http }) => {
    return json(
      await ok(http.GET('/v1/search/aliases/{alias}', { params: { path: { alias: need(a, 'ALIAS') } } })),
    );
  },
  settings: async ({ a, values, http }) => {
    return json(
      await ok(
        http.GET('/v1/search/indices/{index}/settings', {
          params: { path: { index: need(a, 'INDEX') }, query: { filter_path: values['filter-path'] } },
        }),
      ),
    );
  },
  pass: async ({ values }) => {
    const run = await triggerSchedule('index-lifecycle', values.wait === true);
    const result = (run.data as { result?: PassView }).result;
    return result ? { data: run.data, text: passText(result) } : run;
  },
  doctor: async ({ a, values, http }) => {
    const report = await ok(
      http.GET('/v1/search/indices/{name}/doctor', {
        params: {
          path: { name: need(a, 'ALIAS') },
          query: {
            field: values.field || undefined,
            timestamp_field: values['timestamp-field'] || undefined,
          },
        },
      }),
    );
    return { data: report, text: doctorText(report), exitCode: report.problems ? 1 : 0 };
  },
  cat: async ({ a, b, values, http }) => {
    if (a !== 'indices' && a !== 'shards')
      throw new ApiError(2, 'usage', `plat index cat indices|shards PATTERN\n${INDEX_USAGE}`);
    const params = { path: { pattern: need(b, 'PATTERN') }, query: { s: values.s || undefined } };
    const rows = await ok(
      a === 'indices'
        ? http.GET('/v1/search/cat/indices/{pattern}', { params })
        : http.GET('/v1/search/cat/shards/{pattern}', { params }),
    );
    return { data: rows, text: catTable(rows, values.v === true) };
  },
  analyze: async ({ a, b, rest, values, http }) => {
    // Every operand after INDEX is the text.
    const text = [b ?? '', ...rest].join(' ').trim();
    const res = await ok(
      http.POST('/v1/search/indices/{index}/analyze', {
        params: { path: { index: need(a, 'INDEX') } },
        body: {
          text: need(text, 'TEXT'),
          ...(values.analyzer ? { analyzer: values.analyzer } : {}),
          ...(values.field ? { field: values.field } : {}),
        },
      }),
    );
    return {
      data: res,
      text: table(res.tokens, ['position', 'token', 'start_offset', 'end_offset', 'type']),
    };
  },
  termvectors: async ({ a, values, http }) => {
    let doc: Record<string, unknown> | undefined;
    if (values.doc) {
      try {
        doc = JSON.parse(values.doc) as Record<string, unknown>;
      } catch (err) {
        throw new ApiError(2, 'usage', `--doc is not JSON: ${(err as Error).message}`);
      }
    }
    const res = await ok(
      http.POST('/v1/search/indices/{index}/termvectors', {
        params: { path: { index: need(a, 'INDEX') } },
        body: {
          ...(values.id ? { id: values.id } : {}),
          ...(doc !== undefined ? { doc } : {}),
          ...(values.fields ? { fields: values.fields.split(',').map((f) => f.trim()) } : {}),
          term_statistics: values['term-statistics'],
        },
      }),
    );
    // The document leaves OpenSearch's answer open; these are the fields the text shows.
    return { data: res, text: termVectorsText(res as TermVectorsView) };
  },
  terms: async ({ a, values, http }) => {
    const res = await ok(
      http.POST('/v1/search/indices/{index}/terms', {
        params: { path: { index: need(a, 'INDEX') } },
        body: {
          field: need(values.field, '--field'),
          ...(values.size ? { size: Number(values.size) } : {}),
          ...(values.from ? { from: values.from } : {}),
          ...(values.to ? { to: values.to } : {}),
          ...(values['timestamp-field'] ? { timestamp_field: values['timestamp-field'] } : {}),
        },
      }),
    );
    // The document leaves the buckets' shape open (OpenSearch's); the text shows key and count.
    const buckets = res.buckets as Record<string, unknown>[];
    return {
      data: res,
      text: `${res.note ? `${res.note}\n` : ''}${table(buckets, ['key', 'doc_count'])}`,
    };
  },
  simulate: async ({ a, values, http }) => {
    return simulateCommand(
      a,
      values.file ? { name: policyFileName(values.file), policy: readPolicy(values.file) } : undefined,
      values,
      () => http,
    );
  },
};

type TermVectorsView = {
  found: boolean;
  note?: string;
  term_vectors: Record<
    string,
    { terms?: Record<string, { term_freq?: number; doc_freq?: number; ttf?: number }> }
  >;
};

/** One line a term: field, term, its frequency in the document, and its document frequency when asked. */
function termVectorsText(res: TermVectorsView): string {
  const rows = Object.entries(res.term_vectors).flatMap(([field, v]) =>
    Object.entries(v.terms ?? {}).map(([term, t]) => ({
      field,
      term,
      term_freq: t.term_freq,
      doc_freq: t.doc_freq ?? '',
    })),
  );
  return `${res.note ? `${res.note}\n` : ''}${res.found ? table(rows, ['field', 'term', 'term_freq', 'doc_freq']) : 'not found'}`;
}

/** A policy as the API takes it; the file is the user's, and the gateway checks it (422 naming each problem). */
type BootstrapBody = NonNullable<
  operations['bootstrapRollingIndex']['requestBody']
>['content']['application/json'];
type PolicyBody = operations['putLifecyclePolicy']['requestBody']['content']['application/json']['policy'];

function readPolicy(file: string): PolicyBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ApiError(2, 'usage', `cannot read ${file} as JSON: ${(err as Error).message}`);
  }
  // Accept the body of PUT _plugins/_ism/policies/<id> ({"policy": {...}}) or the policy itself.
  return ((parsed as { policy?: unknown }).policy ?? parsed) as PolicyBody;
}

/** `_cat`'s text form: space-aligned columns, with a header line under -v. */
export function catTable(rows: Record<string, string | null>[], headers: boolean): string {
  if (!rows.length) return '';
  const columns = Object.keys(rows[0]);
  const cells = [...(headers ? [columns] : []), ...rows.map((r) => columns.map((c) => r[c] ?? ''))];
  const widths = columns.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  return cells
    .map((row) =>
      row
        .map((v, i) => v.padEnd(widths[i]))
        .join(' ')
        .trimEnd(),
    )
    .join('\n');
}

function bootstrapText(r: Record<string, unknown>): string {
  const policy = r.policy as { id: string; result: string; engine: string } | undefined;
  return [
    `template ${r.name}-*: ${r.template}`,
    `write alias ${r.name} → ${r.write_index ?? '(none)'}: ${r.write_alias}`,
    policy
      ? `policy ${policy.id}: ${policy.result} (run by ${policy.engine === 'ism' ? 'ISM' : "plat's lifecycle engine"})`
      : 'policy: none',
    ...(Number(r.attached) ? [`attached to ${r.attached} existing indices`] : []),
    ...((r.conflicts as string[]) ?? []).map((c) => `conflict: ${c}`),
  ].join('\n');
}

function explainText(res: Record<string, unknown>): string {
  const lines: string[] = [];
  for (const [index, e] of Object.entries(res)) {
    if (index === 'total_managed_indices') continue;
    const entry = e as {
      policy_id?: string | null;
      state?: { name: string };
      action?: { name: string; failed?: boolean };
      step?: { name: string; step_status: string };
      info?: { message?: string; cause?: string };
    };
    if (!entry.policy_id) {
      lines.push(`${index}  (not managed)`);
      continue;
    }
    const where = [entry.state?.name ?? 'initializing', entry.action?.name, entry.step?.step_status]
      .filter(Boolean)
      .join(' / ');
    lines.push(`${index}  ${entry.policy_id}  ${where}${entry.action?.failed ? '  FAILED' : ''}`);
    if (entry.info?.message) lines.push(`    ${entry.info.message}`);
    if (entry.info?.cause) lines.push(`    cause: ${entry.info.cause}`);
  }
  lines.push(`${res.total_managed_indices ?? 0} managed`);
  return lines.join('\n');
}

type PassView =
  | {
      engine: 'plat';
      managed: number;
      waiting: number;
      attached: string[];
      events: { index: string; kind: string; message: string }[];
      failed: { index: string; cause: string }[];
    }
  | { engine: 'ism' | 'none'; skipped: string };

function passText(r: PassView): string {
  if (r.engine !== 'plat') return `pass skipped: ${r.skipped}`;
  return [
    `pass: ${r.managed} managed, ${r.waiting} waiting, ${r.failed.length} failed${r.attached.length ? `, attached ${r.attached.join(', ')}` : ''}`,
    ...r.events.map((e) => `  ${e.index}  ${e.kind}  ${e.message}`),
    ...r.failed.map((f) => `  ${f.index}  FAILED  ${f.cause}`),
  ].join('\n');
}

function doctorText(r: DoctorView): string {
  const lines = [`${r.alias} (lifecycle by ${r.engine === 'ism' ? 'ISM' : "plat's engine"})`];
  for (const f of r.findings) {
    lines.push(
      `${f.status === 'ok' ? 'ok     ' : 'PROBLEM'} ${f.symptom}. ${f.title}`,
      `        ${f.detail}`,
    );
    if (f.fix) lines.push(`        fix: ${f.fix}`);
  }
  lines.push(r.problems ? `${r.problems} problem(s)` : 'no problem found');
  return lines.join('\n');
}
