/**
 * `plat`: the command-line client of the platform API.
 *   plat login | signup
 *   plat projects create|list|show|watch|approve|modify|reject|cancel|logs|report|query
 *   plat memory add|search|search-combined|list|get|update|delete|history (memory-commands.ts)
 *   plat index bootstrap|policy|attach|detach|retry|explain|rollover|alias|cat|settings|doctor|simulate (index-commands.ts)
 *   plat retention [--dry-run] (retention-commands.ts)
 *   plat users grant|revoke USERNAME (users-commands.ts)
 *   plat secrets rotate (secrets-commands.ts)
 * Global options: --url (PLAT_URL, default http://127.0.0.1:8080), --json.
 */
import * as fs from 'node:fs';
import { parseArgs } from 'node:util';
import { WebSocket } from 'ws';
import {
  ApiError,
  gatewayUrl,
  loadToken,
  ok,
  platformClient,
  saveToken,
  type PlatformClient,
} from './api-client';
import { usageFor, wantsHelp } from './help';
import { INDEX_USAGE, indexCommand } from './index-commands';
import { MEMORY_USAGE, memoryCommand } from './memory-commands';
import { phaseBoard, table } from './render';
import { query, report, REPORT_KINDS } from './report-commands';
import { RETENTION_USAGE, retentionCommand } from './retention-commands';
import { USERS_USAGE, usersCommand } from './users-commands';
import { SECRETS_USAGE, secretsCommand } from './secrets-commands';
import { ENDED_PROJECT_STATUSES } from '../../shared/project-model';

const USAGE = `Usage: plat <command> [options]

  login  --username U [--password P]      sign in (password also from PLAT_PASSWORD or stdin)
  signup --username U [--password P]      create an account (when the server allows sign-up)
  projects create --jdbc-url URL --username U [--password P] [--description D]
                                          (source password also from PLAT_SOURCE_PASSWORD)
  projects list [--limit N] [--offset N]
  projects show ID                        status, each phase (status, time taken, message), PRD
  projects watch ID                       live phases until the project ends
  projects approve ID
  projects modify ID --file PRD.json      edited PRD, validated, then approved
  projects reject ID [--reason TEXT]
  projects cancel ID
  projects logs ID                        the agent's tool calls
  projects report ID KIND [--out DIR]     KIND: ${REPORT_KINDS.join(' | ')}
                                          (--out writes the pipeline templates, or the warehouse
                                          as a dbt project, to DIR)
  projects query ID --sql SQL [--layer L] read-only SQL on plat_<id>_<layer> (ods, dwd, dws, ads; default ads)
${MEMORY_USAGE}
${INDEX_USAGE}
${RETENTION_USAGE}
${USERS_USAGE}
${SECRETS_USAGE}

Options: --url URL (default $PLAT_URL or http://127.0.0.1:8080)  --json (raw JSON output)`;

const FINAL_EVENTS = new Set([
  'project_completed',
  'project_failed',
  'project_terminated',
  'project_cancelled',
]);

async function main(argv: string[]): Promise<number> {
  // `--help` anywhere: the usage of the command (and subcommand) named, exit 0.
  if (wantsHelp(argv)) {
    const words = argv.filter((a) => !a.startsWith('-')).slice(0, 3);
    print(words.length ? `Usage: plat\n${usageFor(USAGE, words)}` : USAGE);
    return 0;
  }
  // The memory service has its own server and options (--memory-url): memory-commands.ts.
  const first = argv.findIndex((a) => !a.startsWith('-'));
  if (argv[first] === 'memory') return memoryCommand([...argv.slice(0, first), ...argv.slice(first + 1)]);
  if (argv[first] === 'retention') {
    const { data, text } = await retentionCommand(argv);
    print(argv.includes('--json') ? JSON.stringify(data, null, 2) : text);
    return 0;
  }
  if (argv[first] === 'users') {
    const rest = [...argv.slice(0, first), ...argv.slice(first + 1)];
    const { data, text } = await usersCommand(rest);
    print(rest.includes('--json') ? JSON.stringify(data, null, 2) : text);
    return 0;
  }
  if (argv[first] === 'secrets') {
    const rest = [...argv.slice(0, first), ...argv.slice(first + 1)];
    const { data, text } = await secretsCommand(rest);
    print(rest.includes('--json') ? JSON.stringify(data, null, 2) : text);
    return 0;
  }
  if (argv[first] === 'index') {
    const rest = [...argv.slice(0, first), ...argv.slice(first + 1)];
    const { data, text, exitCode } = await indexCommand(rest);
    print(rest.includes('--json') ? JSON.stringify(data, null, 2) : text);
    return exitCode ?? 0;
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      json: { type: 'boolean', default: false },
      username: { type: 'string' },
      password: { type: 'string' },
      'jdbc-url': { type: 'string' },
      description: { type: 'string' },
      limit: { type: 'string' },
      offset: { type: 'string' },
      file: { type: 'string' },
      reason: { type: 'string' },
      sql: { type: 'string' },
      layer: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, sub, id, kind] = positionals;
  if (values.help || !command) return (print(USAGE), command ? 0 : 2);
  const baseUrl = gatewayUrl(values.url);
  const out = (data: unknown, text: () => string) =>
    print(values.json ? JSON.stringify(data, null, 2) : text());

  if (command === 'login' || command === 'signup') {
    const username = required(values.username, '--username');
    const password = values.password ?? process.env.PLAT_PASSWORD ?? (await readStdin());
    const { http } = platformClient(baseUrl);
    const body = { body: { username, password } };
    const res = await ok(
      command === 'login' ? http.POST('/auth/login', body) : http.POST('/auth/signup', body),
    );
    saveToken(baseUrl, res.id_token);
    return (
      out(
        { username, expires_in: res.expires_in },
        () => `signed in to ${baseUrl} as ${username} (token valid ${Math.round(res.expires_in / 60)} min)`,
      ),
      0
    );
  }
  if (command !== 'projects') throw new ApiError(2, 'usage', `unknown command ${command}\n\n${USAGE}`);

  const api = platformClient(baseUrl, loadToken(baseUrl));
  const needId = () => required(id, 'a project id');
  switch (sub) {
    case 'create': {
      const body = {
        jdbc_url: required(values['jdbc-url'], '--jdbc-url'),
        username: required(values.username, '--username'),
        password: values.password ?? process.env.PLAT_SOURCE_PASSWORD ?? '',
        description: values.description ?? '',
      };
      const res = await ok(api.http.POST('/v1/projects', { body }));
      return (
        out(
          res,
          () =>
            `created ${res.project_id} (${res.status}): ${res.message}\nwatch it: plat projects watch ${res.project_id}`,
        ),
        0
      );
    }
    case 'list': {
      const query = { limit: Number(values.limit ?? 20), offset: Number(values.offset ?? 0) };
      const res = await ok(api.http.GET('/v1/projects', { params: { query } }));
      return (
        out(
          res,
          () =>
            `${table(res.projects, ['project_id', 'status', 'phase', 'industry', 'created_at', 'cost_usd'])}\n${res.total} project(s)`,
        ),
        0
      );
    }
    case 'show': {
      const view = await projectView(api, needId());
      return (
        out(
          view,
          () => phaseBoard(view) + (view.prd ? `\n\nPRD: ${view.prd.title}\n${view.prd.summary}` : ''),
        ),
        0
      );
    }
    case 'watch':
      return watch(api, needId(), values.json);
    case 'approve':
    case 'reject':
    case 'modify': {
      const body =
        sub === 'modify'
          ? JSON.parse(fs.readFileSync(required(values.file, '--file'), 'utf8'))
          : sub === 'reject' && values.reason
            ? { reason: values.reason }
            : undefined;
      const path = { project_id: needId() };
      const res = await ok(
        sub === 'modify'
          ? api.http.POST('/v1/projects/{project_id}/hitl/modify', { params: { path }, body })
          : sub === 'reject'
            ? api.http.POST('/v1/projects/{project_id}/hitl/reject', { params: { path }, body })
            : api.http.POST('/v1/projects/{project_id}/hitl/approve', { params: { path } }),
      );
      return (out(res, () => `${id}: ${res.decision} accepted, project is ${res.status}`), 0);
    }
    case 'cancel': {
      const res = await ok(
        api.http.POST('/v1/projects/{project_id}/cancel', { params: { path: { project_id: needId() } } }),
      );
      return (out(res, () => `${id}: ${res.status}`), 0);
    }
    case 'logs': {
      const res = await ok(
        api.http.GET('/v1/projects/{project_id}/agent-logs', { params: { path: { project_id: needId() } } }),
      );
      const rows = res.entries.map((e) => ({ ...e, params: JSON.stringify(e.params) }));
      return (
        out(res, () => table(rows, ['timestamp', 'agent', 'tool', 'params', 'summary', 'duration_ms'])),
        0
      );
    }
    case 'report': {
      const res = await report(api, needId(), required(kind, 'a report kind (plat --help)'), values.out);
      return (out(res.data, () => res.text), 0);
    }
    case 'query': {
      const res = await query(api, needId(), required(values.sql, '--sql'), values.layer ?? 'ads');
      return (out(res.data, () => res.text), 0);
    }
    default:
      throw new ApiError(2, 'usage', `unknown subcommand projects ${sub ?? ''}\n\n${USAGE}`);
  }
}

/** Streams events and redraws the phases until the project ends; exit code 0 only for completed. */
async function watch(api: PlatformClient, projectId: string, json: boolean): Promise<number> {
  let view = await projectView(api, projectId);
  const draw = () => print(json ? JSON.stringify(view) : `\n${phaseBoard(view)}`);
  draw();
  if (ENDED_PROJECT_STATUSES.includes(view.status)) return view.status === 'completed' ? 0 : 1;
  const token = loadToken(api.baseUrl) ?? '';
  // In a header rather than the URL, which proxies may log.
  const ws = new WebSocket(`${api.baseUrl.replace(/^http/, 'ws')}/ws`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return new Promise<number>((resolve, reject) => {
    ws.on('open', () => ws.send(JSON.stringify({ action: 'subscribe', project_id: projectId })));
    // The gateway refuses a bad token (401) or a user over the connection cap (429) before upgrading.
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        const { code = String(status), message = res.statusMessage ?? 'refused' } = upgradeError(text);
        reject(new ApiError(status, code, status === 401 ? `${message} (run \`plat login\`)` : message));
      });
    });
    ws.on('error', reject);
    ws.on('message', async (data) => {
      const msg = JSON.parse(data.toString()) as {
        type: string;
        event_type?: string;
        message?: string;
        status?: string;
      };
      if (msg.type === 'error') return reject(new ApiError(404, 'not_found', String(msg.message)));
      if (msg.type !== 'event') return;
      if (!json) print(`  [${msg.event_type}] ${msg.message}`);
      if (msg.event_type === 'log_entry') return;
      view = await projectView(api, projectId);
      draw();
      if (msg.event_type === 'hitl_required' && !json)
        print(`  decide: plat projects approve|reject ${projectId}  (or modify --file prd.json)`);
      // End on the final event itself, not on a refetched view that may already be ahead of the stream.
      if (FINAL_EVENTS.has(msg.event_type ?? '')) {
        ws.close();
        resolve(msg.event_type === 'project_completed' ? 0 : 1);
      }
    });
  });
}

/** The project as the document's `Project` describes it (the view the workflow keeps). */
function projectView(api: PlatformClient, projectId: string) {
  return ok(api.http.GET('/v1/projects/{project_id}', { params: { path: { project_id: projectId } } }));
}

/** The `{"error":{"code","message"}}` of a refused upgrade, or nothing when the body is not that. */
function upgradeError(text: string): { code?: string; message?: string } {
  try {
    const error = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error;
    return {
      code: typeof error?.code === 'string' ? error.code : undefined,
      message: typeof error?.message === 'string' ? error.message : undefined,
    };
  } catch {
    return {};
  }
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined || value === '') throw new ApiError(2, 'usage', `missing ${what} (plat --help)`);
  return value;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw new ApiError(2, 'usage', 'missing --password (or PLAT_PASSWORD, or pipe it on stdin)');
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text.replace(/\r?\n$/, '');
}

function print(text: string): void {
  process.stdout.write(text + '\n');
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    const e = err as ApiError;
    process.stderr.write(`plat: ${e.message}\n`);
    if (Array.isArray(e.details))
      for (const d of e.details as { field?: string; message?: string }[])
        process.stderr.write(`  ${d.field}: ${d.message}\n`);
    // An invalid policy: each problem with its path.
    for (const p of (e.details as { problems?: { path: string; message: string }[] })?.problems ?? [])
      process.stderr.write(`  ${p.path}: ${p.message}\n`);
    process.exit(e.status === 2 ? 2 : 1);
  },
);
