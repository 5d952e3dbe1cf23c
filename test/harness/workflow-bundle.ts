/**
 * One webpack bundle of the workflow code for the whole test run: bundling takes seconds of CPU, and
 * every test worker and spawned worker process would otherwise do it again. The cache is the
 * worker's own (keyed by a hash of the code, safe for concurrent writers), in the run's directory.
 */
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import * as path from 'node:path';
import { workflowsPath } from '../../workers/platform-worker';
import { cachedWorkflowBundle, workflowSourceHash } from '../../workers/workflow-bundle-cache';
import { harness } from './harness-state';

/** The run's bundle cache folder (PLAT_WORKFLOW_BUNDLE_DIR of spawned workers). */
export function testBundleCacheDir(): string {
  return path.join(harness().runDir, 'workflow-bundle-cache');
}

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/** The platform's workflow bundle, built at most once per run. */
export function testWorkflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= cachedWorkflowBundle(workflowsPath, testBundleCacheDir(), workflowSourceHash(), (opts) =>
    bundleWorkflowCode({
      ...opts,
      logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    }),
  );
  return bundle;
}
