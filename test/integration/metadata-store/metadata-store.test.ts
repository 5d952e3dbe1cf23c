/**
 * The metadata store on both backends: projects, events, agent logs, artifacts, users, alarms and
 * pipeline state behave the same on the embedded file and on the shared PostgreSQL.
 */
import { UserExists, UserStore } from '../../../gateway/auth/user-store';
import { PipelineState } from '../../../activities/memory-pipelines/pipeline-state';
import { AlarmStore } from '../../../domain/monitoring/alarm-store';
import { ProjectStore } from '../../../domain/metadata-store/project-store';
import type { ProjectEvent, ProjectStatus, ProjectView } from '../../../shared/project-model';
import { startedProjectView } from '../../fixtures/stored-project';
import { BACKENDS, storeOpener } from './backends';

function view(id: string, owner: string, createdAt: string, status: ProjectStatus = 'running'): ProjectView {
  const v = startedProjectView({
    project_id: id,
    owner_id: owner,
    created_at: createdAt,
    description: `project ${id}`,
  });
  return { ...v, status };
}

function event(projectId: string, key: string, message = key): ProjectEvent {
  return {
    event_key: `${projectId}:${key}`,
    project_id: projectId,
    event_type: 'log_entry',
    phase: 'prd',
    status: 'running',
    message,
    timestamp: new Date().toISOString(),
    payload: { key },
  };
}

describe.each(BACKENDS)('metadata store on $name', (backend) => {
  const stores = storeOpener(backend);
  afterAll(() => stores.closeAll());

  test('progress: the newest view wins, events are stored once, a retry stores nothing new', async () => {
    const store = new ProjectStore(await stores.fresh('progress'));
    const v1 = view('proj-20261125-aaaaaa', 'alice', '2026-11-25T10:00:00.000Z');
    const e1 = [event(v1.project_id, 'a'), event(v1.project_id, 'b')];
    expect((await store.saveProgress(v1, e1)).map((e) => e.event_key)).toEqual(e1.map((e) => e.event_key));
    expect(await store.saveProgress(v1, e1)).toEqual([]);

    const newer = { ...v1, updated_at: '2026-11-25T10:05:00.000Z', status: 'waiting_approval' as const };
    await store.saveProgress(newer, [event(v1.project_id, 'c')]);
    // A late retry of an older snapshot does not undo the newer one.
    await store.saveProgress({ ...v1, message: 'stale' }, []);
    const got = await store.getProject(v1.project_id);
    expect(got?.status).toBe('waiting_approval');
    expect(got?.updated_at).toBe(newer.updated_at);

    const events = await store.eventsSince(v1.project_id, 0);
    expect(events.map((e) => e.payload)).toEqual([{ key: 'a' }, { key: 'b' }, { key: 'c' }]);
    expect(events.map((e) => e.event_id)).toEqual([...events.map((e) => e.event_id)].sort((a, b) => a - b));
    expect(await store.eventsSince(v1.project_id, events[1].event_id)).toHaveLength(1);
    expect(await store.getProject('proj-20261125-nonexi')).toBeUndefined();
  });

  test('a batch of events: only the new ones are stored and returned, in order, however many', async () => {
    const store = new ProjectStore(await stores.fresh('batch'));
    const v = view('proj-20261127-batch0', 'erin', '2026-11-27T10:00:00.000Z');
    await store.saveProgress(v, [event(v.project_id, 'old')]);
    const many = Array.from({ length: 1_200 }, (_, i) => event(v.project_id, `n${i}`));
    const batch = [event(v.project_id, 'old'), ...many, event(v.project_id, 'n7')];
    expect((await store.saveProgress(v, batch)).map((e) => e.event_key)).toEqual(
      many.map((e) => e.event_key),
    );
    const events = await store.eventsSince(v.project_id, 0);
    expect(events.map((e) => (e.payload as { key: string }).key)).toEqual([
      'old',
      ...many.map((_, i) => `n${i}`),
    ]);
  });

  test("lists an owner's projects newest first, filtered by status and paged", async () => {
    const store = new ProjectStore(await stores.fresh('list'));
    for (let i = 0; i < 5; i++)
      await store.saveProgress(
        view(
          `proj-20261125-bob00${i}`,
          'bob',
          `2026-11-2${i}T00:00:00.000Z`,
          i % 2 ? 'completed' : 'running',
        ),
        [],
      );
    await store.saveProgress(view('proj-20261125-carol0', 'carol', '2026-11-20T00:00:00.000Z'), []);
    const all = await store.listProjects('bob', 10, 0);
    expect(all.total).toBe(5);
    expect(all.projects.map((p) => p.project_id)).toEqual(
      [4, 3, 2, 1, 0].map((i) => `proj-20261125-bob00${i}`),
    );
    const page = await store.listProjects('bob', 2, 2);
    expect(page.projects.map((p) => p.project_id)).toEqual(['proj-20261125-bob002', 'proj-20261125-bob001']);
    const done = await store.listProjects('bob', 10, 0, ['completed']);
    expect(done.total).toBe(2);
    expect(done.projects.every((p) => p.status === 'completed')).toBe(true);
    expect((await store.listProjects('nobody', 10, 0)).total).toBe(0);
  });

  test('artifacts are replaced, agent logs kept once, costs read by update time', async () => {
    const store = new ProjectStore(await stores.fresh('artifacts'));
    const id = 'proj-20261125-art000';
    await store.saveProgress(view(id, 'dana', '2026-11-25T09:00:00.000Z'), []);
    await store.putArtifact(id, 'catalog', { tables: [1] });
    await store.putArtifact(id, 'catalog', { tables: [1, 2] });
    expect(await store.getArtifact(id, 'catalog')).toEqual({ tables: [1, 2] });
    expect(await store.getArtifact(id, 'quality_report')).toBeUndefined();

    const log = {
      log_key: `${id}:t1`,
      project_id: id,
      agent: 'product_manager',
      phase: 'prd',
      tool: 'list_tables',
      params: { schema: 'shop' },
      summary: '3 tables',
      duration_ms: 12,
      input_tokens: 5,
      timestamp: '2026-11-25T09:00:01.000Z',
    };
    await store.addAgentLogs([log, { ...log, log_key: `${id}:t2`, tool: 'describe' }]);
    await store.addAgentLogs([log]);
    const logs = await store.agentLogs(id);
    expect(logs.map((l) => [l.tool, l.params, l.input_tokens, l.output_tokens])).toEqual([
      ['list_tables', { schema: 'shop' }, 5, 0],
      ['describe', { schema: 'shop' }, 5, 0],
    ]);
    expect((await store.costsUpdatedSince('2026-11-25T08:00:00.000Z')).map((c) => c.project_id)).toEqual([
      id,
    ]);
    expect(await store.costsUpdatedSince('2026-11-26T00:00:00.000Z')).toEqual([]);
  });

  test('a reader following a project by event id misses none of two concurrent writers’ events', async () => {
    const location = await backend.fresh('event-order');
    const writerA = new ProjectStore(await stores.open(location));
    const writerB = new ProjectStore(await stores.open(backend.other(location)));
    const reader = new ProjectStore(await stores.open(location));
    const id = 'proj-20261125-order0';
    await writerA.saveProgress(view(id, 'erin', '2026-11-25T09:00:00.000Z'), []);
    const seen: string[] = [];
    let cursor = 0;
    let writing = true;
    const follow = (async () => {
      for (;;) {
        const last = !writing;
        for (const e of await reader.eventsSince(id, cursor)) {
          seen.push(e.event_key);
          cursor = e.event_id;
        }
        if (last) return;
      }
    })();
    const write = (store: ProjectStore, who: string) =>
      Promise.all(Array.from({ length: 60 }, (_, i) => store.addEvents([event(id, `${who}${i}`)])));
    await Promise.all([write(writerA, 'a'), write(writerB, 'b')]);
    writing = false;
    await follow;
    expect(seen).toHaveLength(120);
    expect(new Set(seen).size).toBe(120);
  });

  test('users: unique names, one answer for a wrong password and an unknown user', async () => {
    const users = new UserStore(await stores.fresh('users'));
    const frank = await users.create('frank', 'correct horse battery');
    await expect(users.create('frank', 'another password')).rejects.toBeInstanceOf(UserExists);
    expect(await users.authenticate('frank', 'correct horse battery')).toEqual(frank);
    expect(await users.authenticate('frank', 'wrong')).toBeUndefined();
    expect(await users.authenticate('nobody', 'wrong')).toBeUndefined();
  });

  test('alarms: each firing and resolution once, states and history', async () => {
    const alarms = new AlarmStore(await stores.fresh('alarms'));
    const firing = {
      alarm: 'plat-ProjectFailureRate',
      fingerprint: 'f1',
      status: 'firing' as const,
      starts_at: '2026-11-25T10:00:00.000Z',
      ends_at: null,
      summary: 'too many failed projects',
      labels: { alertname: 'plat-ProjectFailureRate' },
    };
    expect(await alarms.record([firing, firing])).toBe(1);
    expect(await alarms.record([firing])).toBe(0);
    let state = (await alarms.states()).find((a) => a.name === firing.alarm)!;
    expect([state.state, state.since, state.notifications]).toEqual(['firing', firing.starts_at, 1]);
    await alarms.record([{ ...firing, status: 'resolved', ends_at: '2026-11-25T10:30:00.000Z' }]);
    state = (await alarms.states()).find((a) => a.name === firing.alarm)!;
    expect([state.state, state.since, state.notifications]).toEqual(['ok', '2026-11-25T10:30:00.000Z', 2]);
    expect((await alarms.history(firing.alarm, 10)).map((n) => n.status)).toEqual(['resolved', 'firing']);
    expect((await alarms.history(firing.alarm, 10))[0].labels).toEqual(firing.labels);
  });

  test('pipeline state: set replaces, get answers undefined for an unknown key', async () => {
    const state = new PipelineState(await stores.fresh('pipeline-state'));
    expect(await state.get('offset:a')).toBeUndefined();
    await state.set('offset:a', '10');
    await state.set('offset:a', '25');
    expect(await state.get('offset:a')).toBe('25');
  });
});
