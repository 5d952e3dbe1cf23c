/** Temporal test environments on the harness's servers. */
import { TestWorkflowEnvironment } from '@temporalio/testing';
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
