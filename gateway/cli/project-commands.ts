/**
 * `plat login|signup` and `plat projects ...`: accounts and analysis projects through the platform
 * API (docs/requirements.md), signed in as `plat login` left it.
 */
import { needId, str, withApi } from './signed-in-action';
import * as fs from 'node:fs';
import type { Command } from 'commander';
import { WebSocket } from 'ws';
import { ENDED_PROJECT_STATUSES } from '../../shared/project-model';
import {
  ApiError,
  gatewayUrl,
  loadToken,
  ok,
  platformClient,
  saveToken,
  signedInClient,
  type PlatformClient,
} from './api-client';
import {
  addFlags,
  answering,
  flagsOf,
  groupWithoutSubcommand,
  pipedText,
  required,
  type CommandResult,
  type Flags,
} from './command-kit';
import { phaseBoard, table } from './render';
import { query, report, REPORT_KINDS } from './report-commands';
import { REFRESH_USAGE, registerRefreshCommands, SCHEDULE_FLAGS } from './refresh-commands';

export const PROJECTS_USAGE = `  login  --username U [--password P]      sign in (password also from PLAT_PASSWORD or stdin)
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
${REFRESH_USAGE}`;

/** The flags of the account and project commands. */
const PROJECT_FLAGS = {
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
  wait: { type: 'boolean' },
  ...SCHEDULE_FLAGS,
} as const;

const FINAL_EVENTS = new Set([
  'project_completed',
  'project_failed',
  'project_terminated',
  'project_cancelled',
]);

/** Registers `plat login`, `plat signup` and `plat projects ...`. */
export function registerProjectCommands(program: Command): void {
  for (const command of ['login', 'signup'] as const)
    addFlags(program.command(command), {
      username: PROJECT_FLAGS.username,
      password: PROJECT_FLAGS.password,
    }).action(answering((_operands, flags) => signIn(command, flags)));
  const projects = addFlags(program.command('projects'), PROJECT_FLAGS);
  registerCreateAndList(projects);
  registerShowAndWatch(projects);
  registerDecisions(projects);
  registerReads(projects);
  registerRefreshCommands(projects);
  groupWithoutSubcommand(projects, 'projects', PROJECTS_USAGE);
}

/** `plat projects create` and `plat projects list`. */
function registerCreateAndList(projects: Command): void {
  projects.command('create').action(
    withApi(async (api, _operands, flags) => {
      const body = {
        jdbc_url: required(str(flags['jdbc-url']), '--jdbc-url'),
        username: required(str(flags.username), '--username'),
        password: str(flags.password) ?? process.env.PLAT_SOURCE_PASSWORD ?? '',
        description: str(flags.description) ?? '',
      };
      const res = await ok(api.http.POST('/v1/projects', { body }));
      return {
        data: res,
        text: `created ${res.project_id} (${res.status}): ${res.message}\nwatch it: plat projects watch ${res.project_id}`,
      };
    }),
  );
  projects.command('list').action(
    withApi(async (api, _operands, flags) => {
      const query = { limit: Number(str(flags.limit) ?? 20), offset: Number(str(flags.offset) ?? 0) };
      const res = await ok(api.http.GET('/v1/projects', { params: { query } }));
      // The web list's "Data as of": when the warehouse's source was read, and STALE when a refresh
      // failed or fell behind its schedule (docs/refresh.md#freshness).
      const rows = res.projects.map((p) => ({
        ...p,
        data_as_of: p.freshness
          ? `${p.freshness.as_of ?? '-'}${p.freshness.stale ? ` STALE (${p.freshness.why ?? 'behind'})` : ''}`
          : '',
      }));
      const columns = ['project_id', 'status', 'phase', 'industry', 'created_at', 'data_as_of', 'cost_usd'];
      return { data: res, text: `${table(rows, columns)}\n${res.total} project(s)` };
    }),
  );
}

/** `plat projects show ID` and `plat projects watch ID`. */
function registerShowAndWatch(projects: Command): void {
  projects
    .command('show')
    .argument('[ID]')
    .action(
      withApi(async (api, [id]) => {
        const view = await projectView(api, needId(id));
        return {
          data: view,
          text: phaseBoard(view) + (view.prd ? `\n\nPRD: ${view.prd.title}\n${view.prd.summary}` : ''),
        };
      }),
    );
  projects
    .command('watch')
    .argument('[ID]')
    .action(async (id: string | undefined, _options: unknown, cmd: Command) => {
      const flags = flagsOf(cmd);
      process.exitCode = await watch(signedInClient(str(flags.url)), needId(id), flags.json === true);
    });
}

/** `plat projects approve|reject|modify ID` and `plat projects cancel ID`. */
function registerDecisions(projects: Command): void {
  for (const decision of ['approve', 'reject', 'modify'] as const)
    projects
      .command(decision)
      .argument('[ID]')
      .action(
        withApi(async (api, [id], flags) => {
          const file = str(flags.file);
          const reason = str(flags.reason);
          const body =
            decision === 'modify'
              ? JSON.parse(fs.readFileSync(required(file, '--file'), 'utf8'))
              : decision === 'reject' && reason
                ? { reason }
                : undefined;
          const path = { project_id: needId(id) };
          const res = await ok(
            decision === 'modify'
              ? api.http.POST('/v1/projects/{project_id}/hitl/modify', { params: { path }, body })
              : decision === 'reject'
                ? api.http.POST('/v1/projects/{project_id}/hitl/reject', { params: { path }, body })
                : api.http.POST('/v1/projects/{project_id}/hitl/approve', { params: { path } }),
          );
          return { data: res, text: `${id}: ${res.decision} accepted, project is ${res.status}` };
        }),
      );
  projects
    .command('cancel')
    .argument('[ID]')
    .action(
      withApi(async (api, [id]) => {
        const res = await ok(
          api.http.POST('/v1/projects/{project_id}/cancel', { params: { path: { project_id: needId(id) } } }),
        );
        return { data: res, text: `${id}: ${res.status}` };
      }),
    );
}

/** `plat projects logs ID`, `report ID KIND` and `query ID`. */
function registerReads(projects: Command): void {
  projects
    .command('logs')
    .argument('[ID]')
    .action(
      withApi(async (api, [id]) => {
        const res = await ok(
          api.http.GET('/v1/projects/{project_id}/agent-logs', {
            params: { path: { project_id: needId(id) } },
          }),
        );
        const rows = res.entries.map((e) => ({ ...e, params: JSON.stringify(e.params) }));
        return {
          data: res,
          text: table(rows, ['timestamp', 'agent', 'tool', 'params', 'summary', 'duration_ms']),
        };
      }),
    );
  projects
    .command('report')
    .argument('[ID]')
    .argument('[KIND]')
    .action(
      withApi((api, [id, kind], flags) =>
        report(api, needId(id), required(kind, 'a report kind (plat --help)'), str(flags.out)),
      ),
    );
  projects
    .command('query')
    .argument('[ID]')
    .action(
      withApi((api, [id], flags) =>
        query(api, needId(id), required(str(flags.sql), '--sql'), str(flags.layer) ?? 'ads'),
      ),
    );
}

/** Signs in (or up) and keeps the token for this gateway (mode 0600). */
async function signIn(command: 'login' | 'signup', flags: Flags): Promise<CommandResult> {
  const baseUrl = gatewayUrl(typeof flags.url === 'string' ? flags.url : undefined);
  const username = required(typeof flags.username === 'string' ? flags.username : undefined, '--username');
  const password =
    (typeof flags.password === 'string' ? flags.password : undefined) ??
    process.env.PLAT_PASSWORD ??
    (await readStdin());
  const { http } = platformClient(baseUrl);
  const body = { body: { username, password } };
  const res = await ok(
    command === 'login' ? http.POST('/auth/login', body) : http.POST('/auth/signup', body),
  );
  saveToken(baseUrl, res.id_token);
  return {
    data: { username, expires_in: res.expires_in },
    text: `signed in to ${baseUrl} as ${username} (token valid ${Math.round(res.expires_in / 60)} min)`,
  };
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

async function readStdin(): Promise<string> {
  const text = await pipedText();
  if (text === undefined)
    throw new ApiError(2, 'usage', 'missing --password (or PLAT_PASSWORD, or pipe it on stdin)');
  return text;
}

function print(text: string): void {
  process.stdout.write(text + '\n');
}
