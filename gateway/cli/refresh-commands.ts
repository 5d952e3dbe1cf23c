/**
 * `plat projects refresh ID [--wait]` and `plat projects freshness ID`: a project's warehouse brought
 * up to date with its source, and how fresh it is (docs/refresh.md#refresh-now).
 */
import type { Command } from 'commander';
import { ok, signedInClient, type PlatformClient } from './api-client';
import { answering, required, type CommandResult, type Flags } from './command-kit';
import { table } from './render';

export const REFRESH_USAGE = `  projects refresh ID [--wait]            read what changed in the source, rebuild the warehouse
  projects freshness ID                   as of when the warehouse shows its source; the last refresh`;

const withApi = (run: (api: PlatformClient, operands: string[], flags: Flags) => Promise<CommandResult>) =>
  answering((operands, flags) => run(signedInClient(flags.url as string | undefined), operands, flags));
const needId = (id: string | undefined) => required(id, 'a project id');

/** Registers the two commands under `plat projects`. */
export function registerRefreshCommands(projects: Command): void {
  projects
    .command('refresh')
    .argument('[ID]')
    .action(
      withApi(async (api, [id], flags) => {
        const path = { project_id: needId(id) };
        const started = await ok(api.http.POST('/v1/projects/{project_id}/refresh', { params: { path } }));
        if (flags.wait !== true)
          return {
            data: started,
            text: `${started.refresh_id} started\nfollow it: plat projects freshness ${path.project_id}`,
          };
        const state = await untilEnded(api, path.project_id, started.refresh_id);
        return {
          data: state,
          text: freshnessText(state),
          exitCode: state.last?.status === 'completed' ? 0 : 1,
        };
      }),
    );
  projects
    .command('freshness')
    .argument('[ID]')
    .action(
      withApi(async (api, [id]) => {
        const state = await freshness(api, needId(id));
        return { data: state, text: freshnessText(state) };
      }),
    );
}

type Freshness = Awaited<ReturnType<typeof freshness>>;

const freshness = (api: PlatformClient, projectId: string) =>
  ok(api.http.GET('/v1/projects/{project_id}/refreshes', { params: { path: { project_id: projectId } } }));

/** Polls until the refresh `refreshId` has ended. */
async function untilEnded(api: PlatformClient, projectId: string, refreshId: string): Promise<Freshness> {
  for (;;) {
    const state = await freshness(api, projectId);
    if (state.last?.refresh_id === refreshId && state.last.status !== 'running') return state;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

function freshnessText(state: Freshness): string {
  const lines = [`${state.project_id}: as of ${state.as_of ?? 'never built'}`];
  const last = state.last;
  if (!last) return [...lines, 'never refreshed'].join('\n');
  lines.push(
    `last refresh ${last.refresh_id} (${last.trigger}): ${last.status}${last.error ? `: ${last.error}` : ''}` +
      (last.rows_read !== undefined ? `, ${last.rows_read} rows read` : ''),
  );
  if (last.tables?.length)
    lines.push(
      table(last.tables, [
        'table',
        'read',
        'rows_read',
        'rows_before',
        'rows_after',
        'rows_deleted',
        'detail',
      ]),
    );
  return lines.join('\n');
}
