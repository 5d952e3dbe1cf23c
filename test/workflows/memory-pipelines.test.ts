/**
 * The memory pipelines on the time-skipping server, against the real memory service and a real
 * workspace on disk: the digest's 2000-byte threshold and its resume after a failed write without
 * duplicates, the sync skipping unchanged files, and consolidation promoting 8-day-old short-term
 * memories (deleting the originals only when the re-add worked), days passing in seconds.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowFailedError } from '@temporalio/client';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createMemoryPipelineActivities } from '../../activities/memory-pipelines/memory-pipeline-activities';
import { MemoryClient } from '../../activities/memory-pipelines/memory-client';
import { PipelineState } from '../../activities/memory-pipelines/pipeline-state';
import { loadWorkspaces } from '../../domain/memory/workspaces/workspace-config';
import { metadataDbPath, openMetadataDb } from '../../domain/metadata-store/metadata-db';
import type { MemoryRecord } from '../../shared/memory-model';
import {
  memoryConsolidationWorkflow,
  memoryDigestWorkflow,
  memorySyncWorkflow,
  type DigestSummary,
} from '../../workflows/memory-pipelines/memory-pipelines';
import { startTestMemoryService, type TestMemoryService } from '../harness/memory-service';
import { newTestDataDir } from '../harness/platform-gateway';
import { timeSkippingEnv } from '../harness/temporal-envs';
import { workersOnEveryQueue, type QueueWorkers } from '../harness/queue-workers';
import { recordHistory, type RecordedScenario } from '../harness/recorded-histories';

const TASK_QUEUE = 'memory-pipelines-test';
const DAY = 86_400_000;

describe('memory pipelines (time skipping)', () => {
  let env: TestWorkflowEnvironment;
  let worker: QueueWorkers;
  let running: Promise<void>;
  let memory: TestMemoryService;
  let wsDir: string;
  let state: PipelineState;
  let seq = 0;

  let lastWorkflowId = '';
  const run = <T>(wf: () => Promise<T>) =>
    env.client.workflow.execute(wf, {
      taskQueue: TASK_QUEUE,
      workflowId: (lastWorkflowId = `pipeline-${++seq}-${Date.now()}`),
    });
  /** Keeps the last pipeline run's history as a replay fixture (under `npm run histories:record`). */
  const recordLast = (scenario: RecordedScenario) =>
    recordHistory(scenario, env.client.workflow.getHandle(lastWorkflowId));
  const list = async (userId = 'agent-user'): Promise<MemoryRecord[]> =>
    (await memory.service.list({ user_id: userId, limit: 10_000 })).results;
  /** The workflow clock's day (time skipping moves it). */
  const workflowDay = async (offsetDays = 0) => {
    const now = (await env.currentTimeMs()) as number;
    return new Date(now + offsetDays * DAY).toISOString().slice(0, 10);
  };
  const journal = (day: string) => path.join(wsDir, 'memory', `${day}.md`);

  beforeAll(async () => {
    env = await timeSkippingEnv();
    memory = await startTestMemoryService();
    const dataDir = newTestDataDir();
    wsDir = path.join(dataDir, 'ws');
    fs.mkdirSync(path.join(wsDir, 'memory'), { recursive: true });
    state = new PipelineState(await openMetadataDb(metadataDbPath(dataDir)));
    const workspaces = loadWorkspaces(
      JSON.stringify([{ name: 'ops', dir: wsDir, user_id: 'agent-user', agent_id: 'ops-agent' }]),
      dataDir,
    );
    worker = await workersOnEveryQueue(
      env,
      TASK_QUEUE,
      createMemoryPipelineActivities({ workspaces, memory: new MemoryClient(memory.url), state }),
    );
    running = worker.run();
  });
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await memory?.stop();
    await env?.teardown();
  });

  /** Journal lines of distinct work (distinct meanings, so none is a near-duplicate of another). */
  const SYSTEMS = [
    'billing exporter',
    'search indexer',
    'auth gateway',
    'mail relay',
    'image resizer',
    'payment webhook',
    'report scheduler',
    'cache warmer',
    'feature flag service',
    'audit trail',
  ];
  const ACTIONS = [
    'Fixed a memory leak in',
    'Deployed a new version of',
    'Reviewed the pull request for',
    'Migrated the database of',
    'Wrote integration tests for',
    'Investigated slow responses from',
  ];
  let lineNo = 0;
  const lines = (n: number, topic: string) =>
    Array.from({ length: n }, () => {
      const i = lineNo++;
      return `- ${ACTIONS[i % ACTIONS.length]} the ${SYSTEMS[Math.floor(i / ACTIONS.length) % SYSTEMS.length]} (${topic} ticket ${1000 + i * 7}).\n`;
    }).join('');

  // Journals are named by day; the digest reads any journal with new bytes (run_id = the run's day).
  const JOURNAL_DAY = '2026-11-20';

  it('digests a journal only once 2000 new bytes are there, then as short-term and task memories', async () => {
    const today = JOURNAL_DAY;
    fs.writeFileSync(
      journal(today),
      lines(10, 'alpha')
        .slice(0, 1500)
        .replace(/[^\n]*$/, ''),
    );
    const first = await run(memoryDigestWorkflow);
    expect(first.digested).toEqual([]);
    expect(first.waiting).toEqual([expect.objectContaining({ bytes: expect.any(Number) })]);
    expect(first.waiting[0].bytes).toBeLessThan(2000);
    expect(await list()).toEqual([]);

    fs.appendFileSync(journal(today), lines(20, 'beta'));
    const second = await run(memoryDigestWorkflow);
    await recordLast('memory-digest');
    expect(second).toMatchObject({ failed: [], waiting: [] });
    expect(second.digested).toHaveLength(1);
    const memories = await list();
    const shortTerm = memories.filter((m) => m.category === 'short_term');
    const tasks = memories.filter((m) => m.category === 'task');
    expect(shortTerm.length).toBeGreaterThan(10);
    // run_id is the day of the digest run (on the workflow clock), the same for the whole chunk.
    const runDay = shortTerm[0].run_id!;
    expect(runDay).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(shortTerm.map((m) => [m.run_id, m.agent_id])).toEqual(shortTerm.map(() => [runDay, 'ops-agent']));
    expect(tasks.length).toBeGreaterThan(0);
    expect(tasks.length).toBeLessThanOrEqual(5);
    expect(tasks.every((m) => /^\[[a-z]+\] /.test(m.memory))).toBe(true);
    expect(await state.get(`digest:ops:${today}.md`)).toBe(String(fs.statSync(journal(today)).size));

    const third = await run(memoryDigestWorkflow);
    expect(third).toEqual({ digested: [], waiting: [], failed: [] });
  });

  it('keeps the offset when a write fails, and resumes there without duplicates', async () => {
    const today = JOURNAL_DAY;
    const offsetBefore = await state.get(`digest:ops:${today}.md`);
    fs.appendFileSync(journal(today), lines(30, 'gamma'));
    const before = (await list()).length;
    // The short-term write succeeds, the task pass keeps failing: the run fails, the offset stays.
    memory.failWhen((req) => req.path === '/memory/add' && req.body?.metadata?.category === 'task');
    const failed = await run(memoryDigestWorkflow).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(WorkflowFailedError);
    const details = ((failed as WorkflowFailedError).cause as { details?: unknown[] })
      .details?.[0] as DigestSummary;
    expect(details.failed).toEqual([expect.objectContaining({ error: expect.stringMatching(/503/) })]);
    expect(await state.get(`digest:ops:${today}.md`)).toBe(offsetBefore);
    const afterFailure = await list();
    const shortTermAdded = afterFailure.length - before;
    expect(shortTermAdded).toBeGreaterThan(10);

    memory.failWhen(undefined);
    const resumed = await run(memoryDigestWorkflow);
    expect(resumed.digested).toEqual([expect.objectContaining({ short_term: 0 })]);
    const after = await list();
    // Only the task memories are new: the short-term write was not repeated.
    expect(after.filter((m) => m.category === 'short_term')).toHaveLength(
      afterFailure.filter((m) => m.category === 'short_term').length,
    );
    expect(after.length - afterFailure.length).toBe(resumed.digested[0].tasks);
    expect(new Set(after.map((m) => m.memory)).size).toBe(after.length);
    expect(await state.get(`digest:ops:${today}.md`)).toBe(String(fs.statSync(journal(today)).size));
  });

  it('syncs changed memory files as long-term memory and skips unchanged ones', async () => {
    fs.writeFileSync(path.join(wsDir, 'MEMORY.md'), 'The ops agent deploys with the blue-green script.\n');
    fs.writeFileSync(
      path.join(wsDir, 'memory', 'runbook.md'),
      'Rotate the database credentials every quarter.\n',
    );
    const first = await run(memorySyncWorkflow);
    await recordLast('memory-sync');
    expect(first.synced.map((f) => path.basename(f)).sort()).toEqual(['MEMORY.md', 'runbook.md']);
    await env.sleep('1 day');
    const second = await run(memorySyncWorkflow);
    expect(second).toMatchObject({ synced: [], failed: [] });
    expect(second.unchanged).toHaveLength(2);
    fs.appendFileSync(
      path.join(wsDir, 'memory', 'runbook.md'),
      'Page the on-call engineer before rotating.\n',
    );
    const third = await run(memorySyncWorkflow);
    expect(third.synced.map((f) => path.basename(f))).toEqual(['runbook.md']);
    const longTerm = (await list()).filter((m) => m.run_id === null);
    expect(longTerm.map((m) => m.memory)).toEqual(
      expect.arrayContaining([
        'The ops agent deploys with the blue-green script.',
        'Rotate the database credentials every quarter.',
        'Page the on-call engineer before rotating.',
      ]),
    );
    expect(
      longTerm.filter((m) => m.memory === 'Rotate the database credentials every quarter.'),
    ).toHaveLength(1);
  });

  it('consolidates yesterday’s journal and promotes short-term memories once they are 8 days old', async () => {
    const shortTermDay = await workflowDay();
    const { results } = await memory.service.add({
      user_id: 'agent-user',
      agent_id: 'ops-agent',
      run_id: shortTermDay,
      text: 'The nightly export moved to the new queue cluster.',
      infer: false,
      metadata: { category: 'short_term' },
    });
    const original = results[0].id;
    // Seven days on: not old enough yet.
    await env.sleep('7 days');
    const early = await run(memoryConsolidationWorkflow);
    expect(early.promoted).not.toContain(original);
    expect(await memory.service.get(original)).toBeDefined();

    // Eight days on: re-added as long-term, the original deleted. Yesterday's journal too.
    await env.sleep('1 day');
    fs.writeFileSync(journal(await workflowDay(-1)), 'Reviewed the alerting thresholds with the SRE team.\n');
    const due = await run(memoryConsolidationWorkflow);
    await recordLast('memory-consolidation');
    expect(due.promoted).toContain(original);
    expect(due.journals).toEqual([{ workspace: 'ops', added: 1 }]);
    await expect(memory.service.get(original)).rejects.toThrow(/no memory/);
    const longTerm = (await list()).filter((m) => m.run_id === null).map((m) => m.memory);
    expect(longTerm).toEqual(
      expect.arrayContaining([
        'The nightly export moved to the new queue cluster.',
        'Reviewed the alerting thresholds with the SRE team.',
      ]),
    );
  });

  it('keeps a short-term memory when its re-add fails', async () => {
    const { results } = await memory.service.add({
      user_id: 'agent-user',
      agent_id: 'ops-agent',
      run_id: await workflowDay(-9),
      text: 'The VPN gateway certificate was renewed by hand.',
      infer: false,
      metadata: { category: 'short_term' },
    });
    memory.failWhen((req) => req.path === '/memory/add' && req.body?.text?.startsWith('The VPN gateway'));
    const failed = await run(memoryConsolidationWorkflow).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(WorkflowFailedError);
    expect((await memory.service.get(results[0].id)).memory).toBe(
      'The VPN gateway certificate was renewed by hand.',
    );
    memory.failWhen(undefined);
    const retried = await run(memoryConsolidationWorkflow);
    expect(retried.promoted).toEqual([results[0].id]);
  });
});
