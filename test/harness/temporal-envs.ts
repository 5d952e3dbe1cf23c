/** Temporal test environments on the harness's servers. */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createPlatformWorker } from '../../workers/platform-worker';
import { harness } from './harness-state';

/** A client/connection pair on the shared dev server started by global setup. */
export function devServerEnv(): Promise<TestWorkflowEnvironment> {
  return TestWorkflowEnvironment.createFromExistingServer({ address: harness().temporal.address });
}

/**
 * A time-skipping environment on the provisioned test server binary. Each test file gets its own
 * server process: time skipping is global to a server, so files running in parallel must not share.
 */
export function timeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  return TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: harness().timeSkippingServerPath } },
  });
}

/** The dev-server environment with the real platform worker polling `taskQueue`. */
export interface DevServerWithWorker {
  env: TestWorkflowEnvironment;
  /** Shuts the worker down, waits for it, and closes the environment. */
  stop(): Promise<void>;
}

export async function devServerWithPlatformWorker(taskQueue: string): Promise<DevServerWithWorker> {
  const env = await devServerEnv();
  const worker = await createPlatformWorker({
    connection: env.nativeConnection,
    namespace: 'default',
    taskQueue,
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
