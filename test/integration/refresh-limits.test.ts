/**
 * The per-owner refresh cap (docs/security.md#cost-limits) on the harness's Temporal dev server and a
 * real metadata store: refreshes run on a task queue no worker polls, so each stays running as long as
 * the test wants. An owner's third refresh or backfill at once answers 429 `too_many_refreshes`, and
 * so does an operator's refresh of that owner's project; another owner is not held back; a refresh that
 * has ended frees its place. Each refresh is on the project record from the moment it is accepted,
 * before any worker has seen it.
 */
import { Client, Connection } from '@temporalio/client';
import { randomBytes } from 'node:crypto';
import { ProjectStore } from '../../domain/metadata-store/project-store';
import type { TokenSubject } from '../../gateway/auth/id-tokens';
import { HttpError } from '../../gateway/http-errors';
import { RefreshService } from '../../gateway/projects/refresh-service';
import { initialProjectView } from '../../shared/initial-project-view';
import { harness } from '../harness/harness-state';
import { BACKENDS, storeOpener } from './metadata-store/backends';

const NOBODY_POLLS = `refresh-limits-${randomBytes(4).toString('hex')}`;

const tenant = (user_id: string): TokenSubject => ({ user_id, username: user_id, roles: [] });
const operator: TokenSubject = { user_id: 'op', username: 'op', roles: ['operator'] };

describe('refreshes per owner', () => {
  const stores = storeOpener(BACKENDS[0]);
  let connection: Connection;
  let client: Client;
  let store: ProjectStore;
  let service: RefreshService;
  const started: string[] = [];

  /** A completed project of `owner` whose warehouse was built. */
  const builtProject = async (owner: string, n: number) => {
    const project_id = `proj-20261201-${owner}${n}${randomBytes(2).toString('hex')}`;
    const view = initialProjectView({
      project_id,
      owner_id: owner,
      created_at: new Date().toISOString(),
      description: `${owner}'s shop ${n}`,
      reuse_ods: false,
      source: {
        jdbc_url: 'jdbc:mysql://db.example:3306/shop',
        username: 'reader',
        password_ref: `projects/${project_id}/db-password`,
        target: { host: 'db.example', port: 3306, database: 'shop', options: {} },
      },
    });
    await store.saveProgress(
      {
        ...view,
        status: 'completed',
        warehouse: {
          modeling: { layers: [{ layer: 'dwd', database: 'dwd', tables: [] }], repairs: [], usage: [] },
        },
      },
      [],
    );
    return project_id;
  };

  /** The HTTP error a call fails with (none: it succeeded). */
  const refusal = async (call: Promise<unknown>) => {
    try {
      started.push(((await call) as { refresh_id: string }).refresh_id);
      return undefined;
    } catch (err) {
      if (err instanceof HttpError) return err;
      throw err;
    }
  };

  beforeAll(async () => {
    connection = await Connection.connect({ address: harness().temporal.address });
    client = new Client({ connection });
    store = new ProjectStore(await stores.fresh('refresh-limits'));
    service = new RefreshService({ client, taskQueue: NOBODY_POLLS, store, perUser: 2 });
  });

  afterAll(async () => {
    await Promise.all(
      started.map((id) =>
        client.workflow
          .getHandle(id)
          .terminate('test over')
          .catch(() => undefined),
      ),
    );
    await connection.close();
    await stores.closeAll();
  });

  test('a third at once is refused for the owner alone, and an ended one frees its place', async () => {
    const [a, b, c, d] = [
      await builtProject('ann', 1),
      await builtProject('ann', 2),
      await builtProject('ann', 3),
      await builtProject('ann', 4),
    ];
    const other = await builtProject('bob', 1);

    expect(await refusal(service.refreshNow(tenant('ann'), a))).toBeUndefined();
    // Recorded as soon as accepted, though no worker has run the refresh.
    expect((await store.getProject(a))?.refresh?.last).toMatchObject({
      status: 'running',
      trigger: 'manual',
    });
    expect(
      await refusal(service.backfill(tenant('ann'), b, { from: '2026-11-01', to: '2026-11-03' })),
    ).toBeUndefined();

    const third = await refusal(service.refreshNow(tenant('ann'), c));
    expect(third).toMatchObject({ status: 429, code: 'too_many_refreshes' });
    expect(third?.message).toMatch(/2 refreshes of this owner's projects are running/);
    // The refused refresh left no trace on its project.
    expect((await store.getProject(c))?.refresh).toBeUndefined();
    // An operator refreshing the owner's project counts against the owner too.
    expect(
      await refusal(service.backfill(operator, d, { from: '2026-11-01', to: '2026-11-01' })),
    ).toMatchObject({
      status: 429,
    });
    // A project already refreshing still says so first.
    expect(await refusal(service.refreshNow(tenant('ann'), a))).toMatchObject({
      status: 409,
      code: 'refresh_running',
    });
    // Another owner is not held back.
    expect(await refusal(service.refreshNow(tenant('bob'), other))).toBeUndefined();

    // One of ann's ends (here: terminated, as a cancelled or failed run would be): her next is accepted,
    // though its record still says running (the workflow never reached its end to say otherwise).
    const first = (await store.getProject(a))!.refresh!.last!.refresh_id;
    await client.workflow.getHandle(first).terminate('ended for the test');
    expect((await store.getProject(a))?.refresh?.last?.status).toBe('running');
    expect(await refusal(service.refreshNow(tenant('ann'), c))).toBeUndefined();
    expect(await refusal(service.refreshNow(tenant('ann'), d))).toMatchObject({ status: 429 });
  });
});
