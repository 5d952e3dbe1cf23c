/**
 * Workflow histories kept as replay fixtures (docs/architecture.md#changing-workflow-code). The
 * workflow tests call `recordHistory` at the moments worth keeping (a project waiting for approval,
 * a completed one, each memory pipeline); it writes only under `npm run histories:record`
 * (PLAT_RECORD_HISTORIES=1), into a gzipped file stamped with the day, so recordings of older workflow code
 * stay beside the new ones and `test/workflows/replay.test.ts` keeps replaying them all.
 */
import type { WorkflowHandle } from '@temporalio/client';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { repoRoot } from '../../shared/paths';
import { historyToJson } from './history-json';

export const HISTORIES_DIR = path.join(repoRoot, 'test', 'workflows', 'histories');

/** The scenarios every version of the workflow code must keep replaying. */
export const RECORDED_SCENARIOS = [
  'analysis-project-waiting-approval',
  'analysis-project-completed',
  'analysis-project-rejected',
  'memory-digest',
  'memory-sync',
  'memory-consolidation',
  'cost-reporter',
  'lifecycle-pass',
] as const;

export type RecordedScenario = (typeof RECORDED_SCENARIOS)[number];

/** `<scenario>.<yyyy-mm-dd>.json.gz` → the scenario. */
export const scenarioOf = (file: string): string => file.replace(/\.\d{4}-\d{2}-\d{2}\.json\.gz$/, '');

/** The recordings on disk, oldest scenario file names first. */
export function recordedHistoryFiles(): string[] {
  return fs
    .readdirSync(HISTORIES_DIR)
    .filter((f) => f.endsWith('.json.gz'))
    .sort();
}

/** One recording, as the proto-JSON it was saved as. */
export function readRecordedHistory(file: string): unknown {
  return JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(HISTORIES_DIR, file))).toString('utf8'));
}

/** Saves the workflow's history so far as a replay fixture, when recording is on. */
export async function recordHistory(scenario: RecordedScenario, handle: WorkflowHandle): Promise<void> {
  if (!process.env.PLAT_RECORD_HISTORIES) return;
  const history = await handle.fetchHistory();
  fs.mkdirSync(HISTORIES_DIR, { recursive: true });
  const day = new Date().toISOString().slice(0, 10);
  // Gzipped: payloads (PRDs, project views) make a completed project's history about 2 MB of JSON.
  const json = JSON.stringify(historyToJson(history), null, 1);
  fs.writeFileSync(
    path.join(HISTORIES_DIR, `${scenario}.${day}.json.gz`),
    zlib.gzipSync(`${json}\n`, { level: 9 }),
  );
}
