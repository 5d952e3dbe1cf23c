/**
 * Versioning you can trust: recorded histories of every workflow (test/workflows/histories/, made by
 * `npm run histories:record`) replayed against today's workflow code. A change to workflow code that
 * would break a running workflow (a project waiting days for approval while a new worker version is
 * deployed) fails here with the determinism error; docs/architecture.md#changing-workflow-code says
 * how to make such a change safely.
 */
import { Worker } from '@temporalio/worker';
import { historyFromJson } from '../harness/history-json';
import { testWorkflowBundle } from '../harness/workflow-bundle';
import {
  RECORDED_SCENARIOS,
  readRecordedHistory,
  recordedHistoryFiles,
  scenarioOf,
} from '../harness/recorded-histories';

const files = recordedHistoryFiles();

describe('workflow histories replay against the current workflow code', () => {
  it('has a recording of every scenario', () => {
    const recorded = new Set(files.map(scenarioOf));
    expect(RECORDED_SCENARIOS.filter((s) => !recorded.has(s))).toEqual([]);
  });

  it('replays every recording without a determinism error', async () => {
    const histories = files.map((file) => ({
      workflowId: file,
      history: historyFromJson(readRecordedHistory(file)),
    }));
    const failures: string[] = [];
    // The run's one bundle of today's workflow code (bundling again would cost seconds of CPU).
    const workflowBundle = await testWorkflowBundle();
    for await (const result of Worker.runReplayHistories({ workflowBundle }, histories))
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    expect(failures).toEqual([]);
    expect(files.length).toBeGreaterThanOrEqual(RECORDED_SCENARIOS.length);
  });
});
