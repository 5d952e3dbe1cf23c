/**
 * The platform's ten alarms (docs/monitoring.md#alarms): what each watches, its threshold and
 * period; the first eight as the requirements state them, plat-WorkerBacklog for a worker fleet and
 * plat-RefreshStale for warehouses that refresh from their source. The Prometheus rules are rendered from this table, and the
 * gateway lists it with each alarm's last state.
 */

/** One alarm, notified through the `plat-alerts` topic. */
export interface AlarmDefinition {
  /** The alert's name in Prometheus, Alertmanager and plat (`alertname`). */
  name: string;
  /** What is measured, in words. */
  metric: string;
  /** The breach condition as the requirements state it. */
  threshold: string;
  /** Over which period (for the composite: none). */
  period: string;
  severity: 'warning' | 'critical';
  /** What a person should look at first. */
  hint: string;
}

export const ALARMS: readonly AlarmDefinition[] = [
  {
    name: 'plat-ProjectFailureRate',
    metric: 'projects that failed (plat_project_failures_total)',
    threshold: '> 5',
    period: '1 hour',
    severity: 'warning',
    hint: 'open the failed projects: their monitor page names the stage and the error',
  },
  {
    name: 'plat-TokenUsageHigh',
    metric: 'model tokens, input and output (plat_model_tokens_total)',
    threshold: '> 1,000,000 tokens',
    period: '1 day',
    severity: 'warning',
    hint: 'the cost page of each project shows which agents spent them',
  },
  {
    name: 'plat-LambdaDuration',
    metric: 'P95 duration of the agent-runner activities (plat_activity_duration_seconds)',
    threshold: '> 180,000 ms',
    period: '3 periods of 5 minutes, 2 breaching',
    severity: 'warning',
    hint: 'slow model answers or a slow source database; the Temporal UI shows each attempt',
  },
  {
    name: 'plat-LambdaErrors',
    metric: 'failed attempts of the agent-runner activities (plat_activity_errors_total)',
    threshold: '> 10',
    period: '1 hour',
    severity: 'warning',
    hint: "the worker's log and the failed attempts in the Temporal UI",
  },
  {
    name: 'plat-AthenaQueryFailed',
    metric: 'warehouse statements that failed, Athena or DuckDB (plat_warehouse_query_failures_total)',
    threshold: '> 10',
    period: '1 hour',
    severity: 'warning',
    hint: 'the warehouse engine: disk space, S3 and Glue permissions, Athena workgroup',
  },
  {
    name: 'plat-AAInvokeFailed',
    metric: 'failed agent runs of phase analytics_advisor (plat_agent_invoke_failures_total)',
    threshold: '> 5',
    period: '1 hour',
    severity: 'warning',
    hint: 'the analytics advisor: model access and the profile stage of recent projects',
  },
  {
    name: 'plat-DGInvokeFailed',
    metric: 'failed agent runs of phase data_governance (plat_agent_invoke_failures_total)',
    threshold: '> 5',
    period: '1 hour',
    severity: 'warning',
    hint: 'the data governance stage of recent projects',
  },
  {
    name: 'plat-WorkerBacklog',
    metric:
      'P95 time tasks wait on a task queue before a worker takes them (temporal_*_schedule_to_start_latency), per task queue',
    threshold: '> 30 s',
    period: '10 minutes',
    severity: 'warning',
    hint: 'the queue in the alert needs more workers (npm run worker -- --queues …) or more slots (PLAT_WORKER_SLOTS); docs/fleet.md#task-queues',
  },
  {
    name: 'plat-RefreshStale',
    metric:
      'refreshes that failed (plat_refresh_failures_total), or projects refreshing on a schedule that are stale (plat_refresh_stale_projects)',
    threshold: '> 0',
    period: '1 hour',
    severity: 'warning',
    hint: "the project list marks the stale projects; each one's Freshness panel and events say why (docs/refresh.md)",
  },
  {
    name: 'plat-SystemCritical',
    metric: 'composite: plat-LambdaErrors and plat-ProjectFailureRate both in alarm',
    threshold: '-',
    period: '-',
    severity: 'critical',
    hint: 'projects are failing because the agent runner fails: check the worker first',
  },
];
