/**
 * `GET /health?deep=1`: proves the whole chain answers — Temporal's frontend, then a ping workflow
 * run end to end by a worker polling the platform task queue.
 */
import { pingWorkflow } from '../workflows/health/ping-workflow';
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { PingResult } from '../shared/health-types';

export interface DeepHealth {
  status: 'ok' | 'unavailable';
  service: 'gateway';
  checks: {
    temporal: { status: 'ok' | 'unavailable'; address: string; namespace: string; error?: string };
    worker: {
      status: 'ok' | 'unavailable' | 'not_checked';
      task_queue: string;
      round_trip_ms?: number;
      ping?: PingResult;
      error?: string;
    };
  };
}

export async function deepHealth(
  client: Client,
  address: string,
  taskQueue: string,
  timeoutMs = 15_000,
): Promise<DeepHealth> {
  const result: DeepHealth = {
    status: 'unavailable',
    service: 'gateway',
    checks: {
      temporal: { status: 'unavailable', address, namespace: client.options.namespace },
      worker: { status: 'not_checked', task_queue: taskQueue },
    },
  };
  try {
    await withTimeout(
      client.workflowService.getSystemInfo({}),
      5000,
      `Temporal at ${address} did not answer within 5 s`,
    );
    result.checks.temporal.status = 'ok';
  } catch (err) {
    result.checks.temporal.error = (err as Error).message;
    return result;
  }
  const started = Date.now();
  const workflowId = `health-${randomUUID()}`;
  try {
    const handle = await client.workflow.start(pingWorkflow, {
      taskQueue,
      workflowId,
      args: [workflowId],
      // Without a worker the run must not linger: it times out on the server too.
      workflowExecutionTimeout: `${Math.ceil(timeoutMs / 1000) + 5}s`,
    });
    const ping = await withTimeout(
      handle.result(),
      timeoutMs,
      `no worker answered on task queue ${taskQueue} within ${timeoutMs} ms`,
    );
    result.checks.worker = { status: 'ok', task_queue: taskQueue, round_trip_ms: Date.now() - started, ping };
    result.status = 'ok';
  } catch (err) {
    result.checks.worker = { status: 'unavailable', task_queue: taskQueue, error: (err as Error).message };
  }
  return result;
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)),
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * One deep check shared by every caller who is no operator (docs/security.md#health): a check under
 * way is joined, not repeated, and a passing one is answered for `okForMs` after it ends. Anonymous
 * callers so start at most one ping workflow at a time, and none while a recent one passed.
 */
export function sharedDeepHealth(check: () => Promise<DeepHealth>, okForMs = 10_000) {
  let running: Promise<DeepHealth> | undefined;
  let passed: { at: number; health: DeepHealth } | undefined;
  return (): Promise<DeepHealth> => {
    if (passed && Date.now() - passed.at < okForMs) return Promise.resolve(passed.health);
    running ??= check()
      .then((health) => {
        passed = health.status === 'ok' ? { at: Date.now(), health } : undefined;
        return health;
      })
      .finally(() => (running = undefined));
    return running;
  };
}
