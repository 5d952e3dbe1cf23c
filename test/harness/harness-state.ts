/**
 * What the jest global setup started, shared with the test files through a JSON file (global setup
 * runs in another process than the tests).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../shared/paths';

export interface HarnessState {
  /** The jest process that started the servers: while it lives, no other run stops them. */
  ownerPid?: number;
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

/** Where each run's state file lives: one per run, named for the jest process that owns it. */
export const harnessDir = path.join(repoRoot, '.data', 'test-harness');

/**
 * This run's state file. Global setup names it for its own jest process and passes the name to the
 * test workers it starts (`PLAT_TEST_HARNESS_FILE`), so two runs in one checkout never read or stop
 * each other's servers.
 */
export const harnessFile = (): string =>
  process.env.PLAT_TEST_HARNESS_FILE ?? path.join(harnessDir, `harness-${process.pid}.json`);

export function writeHarnessState(state: HarnessState): void {
  const file = harnessFile();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(state, null, 2));
  process.env.PLAT_TEST_HARNESS_FILE = file;
}

/** The running harness; throws (failing the test loudly) when global setup did not start it. */
export function harness(file = harnessFile()): HarnessState {
  if (!fs.existsSync(file)) {
    throw new Error(
      `no test harness state at ${file}: run the tests through \`npm test\` (jest global setup)`,
    );
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as HarnessState;
}
