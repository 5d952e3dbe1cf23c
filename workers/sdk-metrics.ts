/**
 * The Temporal SDK's own metrics (schedule-to-start latency per task queue, free slots, sticky cache;
 * docs/monitoring.md#worker-fleet) come from the SDK core's Prometheus exporter. It listens on a
 * private loopback port; the worker's /metrics appends its text, so each replica is one scrape target.
 */
import { Runtime, type Logger } from '@temporalio/worker';
import { freePort } from '../shared/free-port';

/** Installs the SDK runtime with `logger` and the metrics exporter; returns where it answers. */
export async function installRuntimeWithMetrics(logger: Logger): Promise<string> {
  const port = await freePort();
  Runtime.install({
    logger,
    telemetryOptions: {
      metrics: {
        prometheus: {
          bindAddress: `127.0.0.1:${port}`,
          // Prometheus conventions: durations in seconds, counters ending in _total.
          useSecondsForDurations: true,
          countersTotalSuffix: true,
        },
      },
    },
  });
  return `http://127.0.0.1:${port}/metrics`;
}

/** The exporter's current text, or nothing while it does not answer (never fails a scrape of ours). */
export async function sdkMetricsText(url: string): Promise<string> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return res.ok ? await res.text() : '';
  } catch {
    return '';
  }
}
