/**
 * Keeps the Temporal SDK's routine INFO lines (worker state changes) out of test output.
 *
 * The quiet logger is installed when a test file first loads `@temporalio/worker`, not before every
 * file: loading the SDK costs each file about half a second of CPU, and most files never start a
 * worker. The factory returns the real module, unchanged.
 */
jest.mock('@temporalio/worker', () => {
  const worker = jest.requireActual<typeof import('@temporalio/worker')>('@temporalio/worker');
  try {
    worker.Runtime.install({ logger: new worker.DefaultLogger('WARN') });
  } catch {
    // Installed already by an earlier test file in this jest worker process: same settings.
  }
  return worker;
});
