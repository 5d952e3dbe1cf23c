/**
 * What the jest global setup started, shared with the test files through a JSON file (global setup
 * runs in another process than the tests).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../shared/paths';

export interface HarnessState {
  /** Temp directory holding every server's data and logs for this run. */
  runDir: string;
  temporal: { address: string; uiUrl: string; pid: number; logFile: string };
  mariadb: {
    host: string;
    port: number;
    user: string;
    password: string;
    socket: string;
    pid: number;
    logFile: string;
  };
  /** The private PostgreSQL: `adminUrl` is its `postgres` database (tests make their own, test/harness/postgres.ts). */
  postgres: { adminUrl: string; port: number; pid: number; logFile: string };
  timeSkippingServerPath: string;
  /**
   * The OpenSearch nodes test files lease (test/harness/opensearch-pool.ts): its directory, and the
   * most nodes it runs (jest's maxWorkers).
   */
  opensearchPool?: { dir: string; size: number };
}

/** `PLAT_TEST_HARNESS_FILE` lets two test runs share a checkout without stopping each other's servers. */
export const harnessFile =
  process.env.PLAT_TEST_HARNESS_FILE ?? path.join(repoRoot, '.data', 'test-harness', 'harness.json');

export function writeHarnessState(state: HarnessState): void {
  fs.mkdirSync(path.dirname(harnessFile), { recursive: true });
  fs.writeFileSync(harnessFile, JSON.stringify(state, null, 2));
}

/** The running harness; throws (failing the test loudly) when global setup did not start it. */
export function harness(): HarnessState {
  if (!fs.existsSync(harnessFile)) {
    throw new Error(
      `no test harness state at ${harnessFile}: run the tests through \`npm test\` (jest global setup)`,
    );
  }
  return JSON.parse(fs.readFileSync(harnessFile, 'utf8')) as HarnessState;
}
