/** Temporal test environments on the harness's servers. */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dataDirDeps, type ActivityDeps } from '../../workers/platform-activities';
import { createPlatformWorker, type PlatformWorkerOptions } from '../../workers/platform-worker';
import { addKeywordSearchAttributes } from '../../workers/search-attribute-registration';
import { harness } from './harness-state';
import { testBundleCacheDir } from './workflow-bundle';

/** A client/connection pair on the shared dev server started by global setup. */
export function devServerEnv(): Promise<TestWorkflowEnvironment> {
  return TestWorkflowEnvironment.createFromExistingServer({ address: harness().temporal.address });
}

/**
 * A time-skipping environment on the provisioned test server binary. Each test file gets its own
 * server process: time skipping is global to a server, so files running in parallel must not share.
 */
export async function timeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: harness().timeSkippingServerPath } },
  });
  await addKeywordSearchAttributes(env.connection, 'default');
  return env;
}

/** The dev-server environment with the real platform worker polling `taskQueue`. */
export interface DevServerWithWorker {
  env: TestWorkflowEnvironment;
  /** Shuts the worker down, waits for it, and closes the environment. */
  stop(): Promise<void>;
}

export async function devServerWithPlatformWorker(
  taskQueue: string,
  deps?: ActivityDeps,
  slots?: PlatformWorkerOptions['slots'],
): Promise<DevServerWithWorker> {
  deps ??= await testActivityDeps();
  const env = await devServerEnv();
  const worker = await createPlatformWorker({
    connection: env.nativeConnection,
    namespace: 'default',
    taskQueue,
    deps,
    slots,
    bundleCacheDir: testBundleCacheDir(),
  });
  const running = worker.run();
  return {
    env,
    async stop() {
      worker.shutdown();
      await running;
      await env.teardown();
    },
  };
}

/** Real activity dependencies (metadata store, parameter store) in a fresh directory of this run. */
export async function testActivityDeps(): Promise<ActivityDeps> {
  const dir = fs.mkdtempSync(path.join(harness().runDir, 'data-'));
  return dataDirDeps(dir);
}
