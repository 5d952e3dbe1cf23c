import { runPlat } from '../harness/plat-cli';
import type { ScheduleOptions } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ensureSchedule } from '../../schedules/ensure-schedule';
import { platformSchedules, scheduleId } from '../../schedules/platform-schedules';
import { registerSchedules } from '../../schedules/register-schedules';
import { devServerWithPlatformWorker, type DevServerWithWorker } from '../harness/temporal-envs';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { sql } from 'kysely';
import { metadataDbPath, openMetadataDb } from '../../domain/metadata-store/metadata-db';
import { harness } from '../harness/harness-state';
import * as path from 'node:path';
import { dataDirDeps } from '../../workers/platform-activities';
import { startTestMemoryService, type TestMemoryService } from '../harness/memory-service';
import { newTestDataDir } from '../harness/platform-gateway';

const TASK_QUEUE = 'schedules-test';

/** Every file of a data directory with its size and content hash, and each metadata table's rows. */
async function dataDirState(dir: string): Promise<Record<string, string>> {
  const state: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    // SQLite's write-ahead log changes on reads too (checkpoints); the rows are compared instead.
    if (/plat\.db(-wal|-shm)?$/.test(file)) continue;
    state[path.relative(dir, file)] = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  }
  const db = await openMetadataDb(metadataDbPath(dir));
  const { rows: tables } = await sql<{
    name: string;
  }>`SELECT name FROM sqlite_master WHERE type = 'table'`.execute(db.db);
  for (const { name } of tables) {
    const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(name)}`.execute(db.db);
    // A worker host's heartbeat moves `last_seen_at` every few seconds, whatever runs.
    const content = rows.map(({ last_seen_at: _heartbeat, ...row }) => row);
    state[`table ${name}`] = createHash('sha256').update(JSON.stringify(content)).digest('hex');
  }
  return state;
}

function definition(scheduleId: string, hour: number): ScheduleOptions {
  return {
    scheduleId,
    spec: { calendars: [{ hour, minute: 0, comment: 'daily' }] },
    action: {
      type: 'startWorkflow',
      workflowType: 'pingWorkflow',
      taskQueue: TASK_QUEUE,
      args: ['scheduled'],
    },
    policies: { overlap: 'SKIP', catchupWindow: '10 minutes' },
  };
}

describe('schedule registration against the dev server', () => {
  let env: TestWorkflowEnvironment;
  let stack: DevServerWithWorker;
  let memory: TestMemoryService;
  let workspaceDir: string;
  let dataDir: string;
  beforeAll(async () => {
    memory = await startTestMemoryService();
    dataDir = newTestDataDir();
    workspaceDir = path.join(dataDir, 'workspace');
    // The worker's pipelines use the default workspace of its data directory and this memory service.
    stack = await devServerWithPlatformWorker(
      TASK_QUEUE,
      await dataDirDeps(dataDir, { memory: { url: memory.url } }),
    );
    env = stack.env;
  });
  afterAll(async () => {
    await stack?.stop();
    await memory?.stop();
  });

  it('creates once, then leaves an unchanged definition alone', async () => {
    const id = `test-idempotent-${Date.now()}`;
    expect(await ensureSchedule(env.client, definition(id, 1))).toBe('created');
    expect(await ensureSchedule(env.client, definition(id, 1))).toBe('unchanged');
    const described = await env.client.schedule.getHandle(id).describe();
    expect(described.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 1, end: 1, step: 1 }] });
    expect(described.policies.overlap).toBe('SKIP');
    expect(described.policies.catchupWindow).toBe(10 * 60 * 1000);
    await env.client.schedule.getHandle(id).delete();
  });

  it('updates a changed definition and keeps an operator pause', async () => {
    const id = `test-update-${Date.now()}`;
    await ensureSchedule(env.client, definition(id, 1));
    const handle = env.client.schedule.getHandle(id);
    await handle.pause('paused by an operator');
    expect(await ensureSchedule(env.client, definition(id, 2))).toBe('updated');
    const described = await handle.describe();
    expect(described.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 2, end: 2, step: 1 }] });
    expect(described.state.paused).toBe(true);
    await handle.delete();
  });

  it('a triggered schedule runs its workflow on the worker', async () => {
    const id = `test-trigger-${Date.now()}`;
    await ensureSchedule(env.client, definition(id, 3));
    const handle = env.client.schedule.getHandle(id);
    await handle.trigger();
    let runs: string[] = [];
    for (let i = 0; i < 100 && runs.length === 0; i++) {
      runs = (await handle.describe()).info.recentActions.map((a) => a.action.workflow.workflowId);
      if (runs.length === 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect(runs).toHaveLength(1);
    const result = await env.client.workflow.getHandle(runs[0]).result();
    expect(result).toMatchObject({ nonce: 'scheduled', task_queue: TASK_QUEUE });
    await handle.delete();
  });

  it("registers the platform's own schedules once, on the right calendars", async () => {
    const schedules = platformSchedules({ PLAT_TASK_QUEUE: TASK_QUEUE });
    const id = (name: string) => scheduleId(name, TASK_QUEUE);
    expect(id('cost-reporter')).toBe(`plat-cost-reporter-${TASK_QUEUE}`);
    const names = [
      'cost-reporter',
      'agent-runner-warmup',
      'memory-digest',
      'memory-sync',
      'memory-consolidation',
      'retention',
    ];
    for (const s of schedules)
      await env.client.schedule
        .getHandle(s.scheduleId)
        .delete()
        .catch(() => undefined);
    expect(await registerSchedules(env.client, schedules)).toEqual(
      Object.fromEntries(names.map((n) => [id(n), 'created'])),
    );
    // An operator pauses the digest; a second start changes nothing and keeps the pause.
    await env.client.schedule.getHandle(id('memory-digest')).pause('operator: maintenance');
    expect(await registerSchedules(env.client, schedules)).toEqual(
      Object.fromEntries(names.map((n) => [id(n), 'unchanged'])),
    );
    const describe = (n: string) => env.client.schedule.getHandle(id(n)).describe();
    expect((await describe('memory-digest')).state.paused).toBe(true);
    await env.client.schedule.getHandle(id('memory-digest')).unpause();
    expect((await describe('cost-reporter')).spec.intervals?.[0].every).toBe(5 * 60 * 1000);
    expect((await describe('agent-runner-warmup')).spec.intervals?.[0].every).toBe(5 * 60 * 1000);
    expect((await describe('memory-digest')).spec.intervals?.[0].every).toBe(15 * 60 * 1000);
    const hourOf = async (n: string) => (await describe(n)).spec.calendars?.[0].hour;
    expect(await hourOf('memory-sync')).toEqual([{ start: 1, end: 1, step: 1 }]);
    expect(await hourOf('memory-consolidation')).toEqual([{ start: 2, end: 2, step: 1 }]);
    expect(await hourOf('retention')).toEqual([{ start: 3, end: 3, step: 1 }]);
    for (const n of names) {
      const d = await describe(n);
      expect(d.policies.overlap).toBe('SKIP');
      expect(d.policies.catchupWindow).toBeGreaterThan(0);
    }
  });

  /** The `plat` CLI, spawned asynchronously (the memory service runs in this process). */
  const plat = (args: string[]) =>
    runPlat(args, {
      ...process.env,
      TEMPORAL_ADDRESS: harness().temporal.address,
      PLAT_TASK_QUEUE: TASK_QUEUE,
    });

  it('a triggered digest makes a journal searchable; the cost reporter reports', async () => {
    const journal = path.join(workspaceDir, 'memory', '2026-11-22.md');
    fs.mkdirSync(path.dirname(journal), { recursive: true });
    const notes = Array.from(
      { length: 30 },
      (_, i) =>
        `- Rotated the signing key of tenant ${i * 3 + 1} after the audit finding number ${100 + i}.\n`,
    ).join('');
    fs.writeFileSync(
      journal,
      `The payments team moved the ledger database to the eu-west cluster.\n${notes}`,
    );
    const run = async (name: string) => {
      const handle = env.client.schedule.getHandle(scheduleId(name, TASK_QUEUE));
      const before = (await handle.describe()).info.recentActions.length;
      await handle.trigger();
      for (let i = 0; i < 150; i++) {
        const actions = (await handle.describe()).info.recentActions;
        if (actions.length > before)
          return env.client.workflow
            .getHandle(actions[actions.length - 1].action.workflow.workflowId)
            .result();
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`${name} never ran`);
    };
    expect(await run('cost-reporter')).toMatchObject({ projects: expect.any(Number) });
    // The warm-up answers `warm` and changes nothing: not a file, not a row of the metadata store.
    const before = await dataDirState(dataDir);
    expect(await run('agent-runner-warmup')).toBe('warm');
    expect(await dataDirState(dataDir)).toEqual(before);
    // From the CLI, as a user would: run the digest now and wait for it.
    const digest = await plat(['memory', 'digest', '--wait']);
    expect(digest.stderr).toBe('');
    expect(digest.stdout).toContain(`${scheduleId('memory-digest', TASK_QUEUE)} finished`);
    expect(digest.stdout).toContain('"workspace": "default"');
    // The journal is days old (no journal of today or yesterday), so the context is asked what to look for.
    const context = await plat([
      'memory',
      'context',
      '--user',
      'default',
      '--query',
      'which cluster holds the ledger database?',
      '--memory-url',
      memory.url,
    ]);
    expect(context.stdout).toContain('workspace: default');
    expect(context.stdout).toContain('ledger database');
    const { results } = await memory.service.search({
      user_id: 'default',
      query: 'where is the ledger database now?',
      top_k: 3,
      min_score: 0,
      time_decay: true,
      search_mode: 'hybrid',
    });
    expect(results[0].memory).toContain('ledger database');
    for (const s of platformSchedules({ PLAT_TASK_QUEUE: TASK_QUEUE }))
      await env.client.schedule.getHandle(s.scheduleId).delete();
  });
});
