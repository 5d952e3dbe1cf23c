/**
 * Starts, once per `npm test`, the real servers the tests use: a Temporal dev server, a private
 * MariaDB loaded with Sakila, and a private PostgreSQL (the shared metadata store's engine). Also checks the time-skipping server binary is there,
 * and makes the directory of the OpenSearch pool, whose nodes start when test files first lease
 * them (test/harness/opensearch-pool.ts). All of it lives in one run directory, in memory where the
 * machine allows (test/harness/scratch-root.ts).
 * Anything that cannot start fails the run with the reason; nothing is skipped.
 */
import { DATASETS_DIR } from '../fixtures/datasets-dir';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureCompiledRuntime } from '../../scripts/lib/compiled-runtime.cjs';
import { freePort } from '../../shared/free-port';
import { loadSakila, startPrivateMariaDb } from '../../scripts/lib/mariadb-instance';
import { startPrivatePostgres } from '../../scripts/lib/postgres-instance';
import { startTemporalDevServer } from '../../scripts/lib/temporal-dev-server';
import { temporalTestServerPath } from '../../scripts/lib/tool-paths';
import { stopAbandonedHarnesses } from './global-teardown';
import { writeHarnessState } from './harness-state';
import { stopGroup } from './process-groups';
import { testScratchRoot } from './scratch-root';

export const sakilaDir = path.join(DATASETS_DIR, 'sakila');

/** `globalConfig`: jest's, whose maxWorkers bounds the OpenSearch pool (1 with --runInBand). */
export default async function globalSetup(globalConfig?: { maxWorkers?: number }): Promise<void> {
  // A run that was killed before its teardown left its servers behind: stop them first.
  await stopAbandonedHarnesses();
  const runDir = fs.mkdtempSync(path.join(testScratchRoot(), 'plat-test-'));
  // The temp directory of the test files and every process they start (jest starts its workers
  // after this setup): inside the run's directory, so teardown removes what they leave.
  process.env.TMPDIR = path.join(runDir, 'tmp');
  fs.mkdirSync(process.env.TMPDIR);
  // Provisioning installs the Python tools (schemathesis, dbt, moto) without compiling them
  // (scripts/lib/python-venv.sh): their first run writes the bytecode of what it imports, and later
  // runs reuse it, even where the environment asks Python not to write any.
  delete process.env.PYTHONDONTWRITEBYTECODE;
  // The compiled copy of the sources that spawned workers, gateways and CLI calls run from
  // (docs/architecture.md#compiled-runtime): built here once, not by the first of them at once.
  ensureCompiledRuntime();
  const opensearchPool = {
    dir: path.join(runDir, 'opensearch-pool'),
    // Two nodes at most: a third JVM (about 25 s of CPU to start) was seldom needed, and with one,
    // test files waited for it up to two minutes each (measured on 2 cores: the run 21 s longer).
    size: Math.min(2, Math.max(1, globalConfig?.maxWorkers ?? 1)),
  };
  fs.mkdirSync(opensearchPool.dir);
  const timeSkippingServerPath = temporalTestServerPath();
  const [temporalPort, temporalUiPort, mariadbPort, postgresPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const started = Date.now();
  const startedPids: number[] = [];
  const tracked = <T extends { service: { pid: number } }>(server: Promise<T>): Promise<T> =>
    server.then((s) => {
      startedPids.push(s.service.pid);
      return s;
    });
  const starts = [
    // With its Web UI: the monitor page links a project's workflow there, and a UI test follows the link.
    tracked(
      startTemporalDevServer({
        port: temporalPort,
        uiPort: temporalUiPort,
        logFile: path.join(runDir, 'temporal.log'),
      }),
    ),
    tracked(
      startPrivateMariaDb({
        dataDir: path.join(runDir, 'mariadb'),
        port: mariadbPort,
        logFile: path.join(runDir, 'mariadb.log'),
      }),
    ),
    tracked(
      startPrivatePostgres({
        dataDir: path.join(runDir, 'postgres'),
        port: postgresPort,
        logFile: path.join(runDir, 'postgres.log'),
        durable: false,
      }),
    ),
  ] as const;
  const [temporal, mariadb, postgres] = await Promise.all(starts)
    .then(async (servers) => {
      await loadSakila(servers[1], sakilaDir);
      return servers;
    })
    .catch(async (err: unknown): Promise<never> => {
      // Jest runs no teardown when its setup fails: stop what did start, or it outlives the run.
      await Promise.allSettled(starts);
      await Promise.all(startedPids.map((pid) => stopGroup(pid)));
      fs.rmSync(runDir, { recursive: true, force: true });
      throw err;
    });
  writeHarnessState({
    ownerPid: process.pid,
    runDir,
    temporal: {
      address: temporal.address,
      uiUrl: temporal.uiUrl!,
      pid: temporal.service.pid,
      logFile: temporal.service.logFile,
    },
    mariadb: {
      host: mariadb.host,
      port: mariadb.port,
      user: mariadb.user,
      password: mariadb.password,
      socket: mariadb.socket,
      pid: mariadb.service.pid,
      logFile: mariadb.service.logFile,
    },
    postgres: {
      adminUrl: postgres.urlOf('postgres'),
      port: postgres.port,
      pid: postgres.service.pid,
      logFile: postgres.service.logFile,
    },
    timeSkippingServerPath,
    opensearchPool,
  });
  console.log(
    `\nharness: Temporal ${temporal.address}, MariaDB+Sakila 127.0.0.1:${mariadb.port}, PostgreSQL 127.0.0.1:${postgres.port} ready in ${Date.now() - started} ms (${runDir})`,
  );
}
