/** Keeps the Temporal SDK's routine INFO lines (worker state changes) out of test output. */
import { DefaultLogger, Runtime } from '@temporalio/worker';

try {
  Runtime.install({ logger: new DefaultLogger('WARN') });
} catch {
  // Installed already by an earlier test file in this jest worker process: same settings.
}
