/**
 * Placing projects on hosts (docs/fleet.md#project-files), against a real metadata store: a claim
 * goes to the live host running the fewest projects (the claiming worker's own on a tie), never to a
 * host unseen for three stamps, a draining one, one serving neither ingestion nor warehouse, or one
 * the project already lost; a project reusing another's ODS goes to that project's host while it is alive.
 */
import { createHostActivities } from '../../../activities/fleet/host-activities';
import { WorkerHostRegistry } from '../../../domain/fleet/worker-host-registry';
import { metadataDbPath, openMetadataDb } from '../../../domain/metadata-store/metadata-db';
import { ProjectStore } from '../../../domain/metadata-store/project-store';
import { initialProjectView } from '../../../shared/initial-project-view';
import type { ProjectStatus } from '../../../shared/project-model';
import { newTestDataDir } from '../../harness/platform-gateway';
import { freshPostgresDatabase } from '../../harness/postgres';

const LOST_AFTER_MS = 60_000;

async function fleet() {
  const db = await openMetadataDb(metadataDbPath(newTestDataDir()));
  const store = new ProjectStore(db);
  const registry = new WorkerHostRegistry(db);
  const started = new Date().toISOString();
  await registry.beat('host-a', ['workflows', 'agents', 'ingestion', 'warehouse', 'operations'], started);
  await registry.beat('host-b', ['ingestion', 'warehouse'], started);
  await registry.beat('host-c', ['agents'], started);
  await registry.beat('host-d', ['ingestion', 'warehouse'], started);
  // host-d was last seen two minutes ago: gone.
  await db.db
    .updateTable('worker_hosts')
    .set({ last_seen_at: new Date(Date.now() - 120_000).toISOString() })
    .where('host_id', '=', 'host-d')
    .execute();
  let seq = 0;
  const project = async (host: string, status: ProjectStatus = 'running') => {
    const id = `proj-20261125-c${++seq}`;
    const view = initialProjectView({
      project_id: id,
      owner_id: 'u1',
      created_at: new Date().toISOString(),
      description: '',
      reuse_ods: false,
      source: { jdbc_url: 'jdbc:mysql://db:3306/shop', username: 'u', password_ref: 'local:x' },
    });
    await store.saveProgress({ ...view, status, warehouse: { host } }, []);
    return id;
  };
  const claimFrom = (self: string, engine: 'duckdb' | 'athena' = 'duckdb') =>
    createHostActivities({
      store,
      host: { id: self, registry, lostAfterMs: LOST_AFTER_MS },
      engine: { kind: engine },
    }).claimProjectHost;
  return { project, claimFrom, registry };
}

test('a claim goes to the live host with the fewest running projects', async () => {
  const { project, claimFrom, registry } = await fleet();
  await project('host-a');
  await project('host-a');
  await project('host-b');
  await project('host-b', 'completed');
  await project('host-d');
  // host-a's worker claims for host-b (1 running), not itself (2), nor host-c (agents only) or
  // host-d (gone, whatever its load).
  expect(await claimFrom('host-a')({ project_id: 'p' })).toEqual({
    host_id: 'host-b',
    lost_after_ms: LOST_AFTER_MS,
  });
  await project('host-b');
  // A tie (2 and 2): the claiming worker's own host.
  expect((await claimFrom('host-a')({ project_id: 'p' })).host_id).toBe('host-a');
  expect((await claimFrom('host-b')({ project_id: 'p' })).host_id).toBe('host-b');
  // Never a host this project already lost.
  expect((await claimFrom('host-b')({ project_id: 'p', lost: ['host-b'] })).host_id).toBe('host-a');
  // Nor a draining one, however idle.
  await project('host-a');
  await registry.stopped('host-b');
  expect((await claimFrom('host-a')({ project_id: 'p' })).host_id).toBe('host-a');
});

test('a project reusing an ODS goes to its host while that host is alive', async () => {
  const { project, claimFrom } = await fleet();
  await project('host-a');
  const onB = await project('host-b', 'completed');
  const onD = await project('host-d', 'completed');
  await project('host-b');
  await project('host-b');
  expect((await claimFrom('host-a')({ project_id: 'p', reuse_from: onB })).host_id).toBe('host-b');
  // host-d is gone: the ODS to reuse is gone with it, so the load decides (and the copy is from the source).
  expect((await claimFrom('host-a')({ project_id: 'p', reuse_from: onD })).host_id).toBe('host-a');
  expect((await claimFrom('host-a')({ project_id: 'p', reuse_from: onB, lost: ['host-b'] })).host_id).toBe(
    'host-a',
  );
});

test('with Athena the claim says the stages after the copy may run anywhere', async () => {
  const { claimFrom } = await fleet();
  expect(await claimFrom('host-a', 'athena')({ project_id: 'p' })).toEqual({
    host_id: 'host-a',
    lost_after_ms: LOST_AFTER_MS,
    stages_anywhere: true,
  });
});

/** Every timer stays real; only the clock (`Date`) is moved, as on a host whose clock is off. */
const realTimers = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

describe.each(['sqlite', 'postgres'])('liveness on the database clock (%s)', (backend) => {
  afterEach(() => jest.useRealTimers());

  it('a host whose clock is 10 minutes off is judged by when the database saw it', async () => {
    const db = await openMetadataDb(
      backend === 'postgres' ? await freshPostgresDatabase('host-clock') : metadataDbPath(newTestDataDir()),
    );
    try {
      const registry = new WorkerHostRegistry(db);
      // The slow host stamps its row with its clock 10 minutes behind; the fast one, 10 minutes ahead.
      jest.useFakeTimers({ doNotFake: [...realTimers], now: Date.now() - 600_000 });
      await registry.beat('host-slow', ['ingestion'], new Date().toISOString());
      jest.setSystemTime(Date.now() + 1_200_000);
      await registry.beat('host-fast', ['ingestion'], new Date().toISOString());
      jest.useRealTimers();
      expect((await registry.liveHosts(15_000)).map((h) => h.host_id)).toEqual(['host-fast', 'host-slow']);
      expect(await registry.alive('host-slow', 15_000)).toBe(true);
      // And a host that stopped stamping ages on that same clock, whatever the reader's clock says.
      jest.useFakeTimers({ doNotFake: [...realTimers], now: Date.now() + 600_000 });
      expect(await registry.alive('host-fast', 15_000)).toBe(true);
      jest.useRealTimers();
      const seen = Date.parse((await registry.get('host-fast'))!.last_seen_at);
      expect(Math.abs(seen - (await registry.databaseTime()))).toBeLessThan(15_000);
    } finally {
      await db.close();
    }
  });
});
