/**
 * Duration and errors of every activity attempt, by the "function" it belongs to
 * (docs/monitoring.md#metrics): the analysis stages form the agent runner, whose P95 duration, errors
 * and per-phase agent failures three alarms watch. Counted by a worker interceptor, so no activity
 * has to remember to.
 */
import { CancelledFailure, type Context as ActivityContext } from '@temporalio/activity';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { Counter, Histogram, type Registry } from 'prom-client';
import { PHASE_OF_ACTIVITY, PHASES } from '../shared/project-model';

/** What a group of activities is called in the metrics (the spec's Lambda "function"). */
export type ActivityFunction =
  | 'agent-runner'
  | 'memory-pipelines'
  | 'search-lifecycle'
  | 'cost-reporter'
  | 'retention'
  | 'fleet'
  | 'health';

/** Buckets in seconds, with edges at the alarm's 180 s so its P95 is read without blur. */
const DURATION_BUCKETS = [0.25, 1, 5, 15, 30, 60, 120, 180, 240, 300, 600, 1800, 3600];

export interface ActivityMetrics {
  /** The worker interceptor that times and counts each attempt. */
  interceptor: ActivityInterceptorsFactory;
}

/**
 * Registers the activity metrics in `registry`. `functionOf` names each registered activity's
 * function; series start at zero for every one of them so the first failure counts in `increase()`.
 */
export function createActivityMetrics(
  registry: Registry,
  functionOf: Record<string, ActivityFunction>,
): ActivityMetrics {
  const duration = new Histogram({
    name: 'plat_activity_duration_seconds',
    help: 'Duration of activity attempts, by function and activity',
    labelNames: ['function', 'activity'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const errors = new Counter({
    name: 'plat_activity_errors_total',
    help: 'Activity attempts that failed (each retry counts), by function and activity',
    labelNames: ['function', 'activity'] as const,
    registers: [registry],
  });
  const invokeFailures = new Counter({
    name: 'plat_agent_invoke_failures_total',
    help: "Failed attempts of a phase's agent (the activity that runs the phase), by phase",
    labelNames: ['phase'] as const,
    registers: [registry],
  });
  for (const [activity, fn] of Object.entries(functionOf)) errors.inc({ function: fn, activity }, 0);
  for (const phase of PHASES) invokeFailures.inc({ phase }, 0);

  const interceptor: ActivityInterceptorsFactory = (ctx: ActivityContext) => ({
    inbound: {
      async execute(input, next) {
        const activity = ctx.info.activityType;
        const labels = { function: functionOf[activity] ?? 'unknown', activity };
        const stop = duration.startTimer(labels);
        try {
          const result = await next(input);
          stop();
          return result;
        } catch (err) {
          // A cancelled attempt (workflow cancelled, heartbeat timeout seen) is not a failure of ours.
          if (err instanceof CancelledFailure) throw err;
          stop();
          errors.inc(labels);
          const phase = PHASE_OF_ACTIVITY[activity];
          if (phase) invokeFailures.inc({ phase });
          throw err;
        }
      },
    },
  });
  return { interceptor };
}
