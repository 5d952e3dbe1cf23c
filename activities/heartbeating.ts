/**
 * Heartbeats for activities that have no progress of their own to report: while the work runs, a
 * heartbeat every few seconds tells the server the worker is alive, so a worker that dies mid-stage
 * is noticed at the heartbeat timeout (not hours later), and cancellation (a drain) is delivered.
 */
import { heartbeat } from '@temporalio/activity';

const EVERY_MS = 5_000;

/** `fn`, heartbeating every 5 s while it runs. */
export function heartbeating<A extends unknown[], R>(
  fn: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args: A) => {
    const beat = setInterval(() => heartbeat(), EVERY_MS);
    try {
      return await fn(...args);
    } finally {
      clearInterval(beat);
    }
  };
}

/** Every function of `activities`, heartbeating (see `heartbeating`). */
export function allHeartbeating<T extends Record<string, (...args: never[]) => Promise<unknown>>>(
  activities: T,
): T {
  return Object.fromEntries(
    Object.entries(activities).map(([name, fn]) => [
      name,
      heartbeating(fn as (...a: unknown[]) => Promise<unknown>),
    ]),
  ) as unknown as T;
}
