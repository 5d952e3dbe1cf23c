/**
 * Renders the Prometheus alerting rules of the alarm catalog (docs/monitoring.md#alarms). Counts over
 * a period are exact where they can be (see countOver): a threshold of "> 5 failures" must not fire on
 * 5 failures read as 5.08. The shipped rules file is this rendering with the requirements' periods;
 * tests render it with short ones.
 */
import { parseDuration } from '../search-ops/ism-units';
import { ALARMS, type AlarmDefinition } from './alarm-catalog';

/** The periods the rules are evaluated over, in seconds. */
export interface AlarmPeriods {
  /** The alarms of "1 hour". */
  hour: number;
  /** plat-TokenUsageHigh's "1 day". */
  day: number;
  /** plat-LambdaDuration's 5-minute period (three of them are looked at). */
  period: number;
  /** How often Prometheus evaluates the rules. */
  evaluationInterval: number;
}

export const REQUIRED_PERIODS: AlarmPeriods = {
  hour: 3600,
  day: 86_400,
  period: 300,
  evaluationInterval: 60,
};

/**
 * The periods for an alarm "hour" of `hourSeconds` (PLAT_ALARM_HOUR): everything shrinks with it, so
 * a test can watch an alarm fire and resolve in seconds. Whole seconds, at least 1.
 */
export function periodsForHour(hourSeconds: number): AlarmPeriods {
  const scaled = (seconds: number) => Math.max(1, Math.round((seconds * hourSeconds) / 3600));
  return { hour: hourSeconds, day: scaled(86_400), period: scaled(300), evaluationInterval: scaled(60) };
}

/** `30s`, `5m`, `1h` in seconds (the duration syntax plat reads everywhere: ism-units.ts). */
export function durationSeconds(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new Error(`not a duration: ${text} (use e.g. 30s, 5m, 1h)`);
  return ms / 1000;
}

/** The rules group's name in Prometheus. */
export const RULE_GROUP = 'plat-alerts';

/** A Prometheus duration: the largest whole unit (`1h`, `5m`, `20s`). */
export function promDuration(seconds: number): string {
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3600],
    ['m', 60],
  ] as const) {
    if (seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}

/**
 * How much the counters of `series` grew over the window, summed: the exact growth (last sample less
 * the window's first) for each series without a restart in the window, `increase()` for the others.
 * increase() extrapolates to the window's edges, which reads a young series' 6 failures as 7; a
 * restarted counter needs its reset handling, and the count is rounded for the extrapolated part.
 */
export function countOver(series: string, seconds: number): string {
  const w = promDuration(seconds);
  return `round(sum((${series} - min_over_time(${series}[${w}])) and (resets(${series}[${w}]) == 0) or increase(${series}[${w}])))`;
}

const firing = (alarm: string) => `count(ALERTS{alertname="${alarm}", alertstate="firing"})`;

/** Each alarm's PromQL condition. */
export function alarmExpressions(p: AlarmPeriods): Record<string, string> {
  const agentRunner = 'function="agent-runner"';
  const p95 = `histogram_quantile(0.95, sum by (le) (rate(plat_activity_duration_seconds_bucket{${agentRunner}}[${promDuration(p.period)}])))`;
  return {
    'plat-ProjectFailureRate': `${countOver('plat_project_failures_total', p.hour)} > 5`,
    'plat-TokenUsageHigh': `${countOver('plat_model_tokens_total', p.day)} > 1000000`,
    // Each of the last three periods is one sample of the subquery; two above 180 s fire.
    'plat-LambdaDuration': `count_over_time((${p95} > 180)[${promDuration(3 * p.period)}:${promDuration(p.period)}]) >= 2`,
    'plat-LambdaErrors': `${countOver(`plat_activity_errors_total{${agentRunner}}`, p.hour)} > 10`,
    'plat-AthenaQueryFailed': `${countOver('plat_warehouse_query_failures_total', p.hour)} > 10`,
    'plat-AAInvokeFailed': `${countOver('plat_agent_invoke_failures_total{phase="analytics_advisor"}', p.hour)} > 5`,
    'plat-DGInvokeFailed': `${countOver('plat_agent_invoke_failures_total{phase="data_governance"}', p.hour)} > 5`,
    // Held for the whole window: a burst of queued tasks that workers catch up with is no alarm.
    'plat-WorkerBacklog': `min_over_time((${queueWait(p)})[${promDuration(2 * p.period)}:${promDuration(p.evaluationInterval)}]) > 30`,
    // A failure within the hour, or a scheduled project stale now (every gateway counts the same).
    'plat-RefreshStale': `(${countOver('plat_refresh_failures_total', p.hour)} > 0) or (max(plat_refresh_stale_projects) > 0)`,
    // Rules of a group run in order: the two alarms above are already evaluated at this instant.
    'plat-SystemCritical': `${firing('plat-LambdaErrors')} and on() ${firing('plat-ProjectFailureRate')}`,
  };
}

/**
 * Per task queue, the P95 schedule-to-start latency of activities or of workflow tasks, whichever is
 * longer (the SDK's histograms, in seconds, exported by every worker: docs/monitoring.md#worker-fleet).
 */
function queueWait(p: AlarmPeriods): string {
  const p95 = (kind: string, label: string) =>
    `label_replace(histogram_quantile(0.95, sum by (le, task_queue) (rate(temporal_${kind}_schedule_to_start_latency_bucket[${promDuration(p.period)}]))), "kind", "${label}", "", "")`;
  return `max by (task_queue) (${p95('activity', 'activity')} or ${p95('workflow_task', 'workflow_task')})`;
}

/** The rules file (YAML) for `periods`. */
export function renderAlertRules(periods: AlarmPeriods = REQUIRED_PERIODS): string {
  const exprs = alarmExpressions(periods);
  const lines = [
    '# plat-alerts: the ten alarms of docs/monitoring.md#alarms.',
    '# Generated by `npm run monitoring:rules` from domain/monitoring/alarm-catalog.ts; edit that, not this.',
    'groups:',
    `  - name: ${RULE_GROUP}`,
    `    interval: ${promDuration(periods.evaluationInterval)}`,
    '    rules:',
  ];
  for (const alarm of ALARMS) lines.push(...ruleLines(alarm, exprs[alarm.name], periods));
  return lines.join('\n') + '\n';
}

/** Where the summary shows the alert's value: every alarm counts whole things. */
export const VALUE_PLACEHOLDER = '{{ printf "%.0f" $value }}';

/** The summary annotation's template; Prometheus fills in the value. */
export function summaryTemplate(alarm: AlarmDefinition, periods: AlarmPeriods = REQUIRED_PERIODS): string {
  const value: Record<string, string> = {
    'plat-LambdaDuration': ` (${VALUE_PLACEHOLDER} of the last 3 periods breaching)`,
    'plat-SystemCritical': '',
    'plat-WorkerBacklog': ` on {{ $labels.task_queue }} (now ${VALUE_PLACEHOLDER} s)`,
  };
  return `${alarmCondition(alarm, periods)}${value[alarm.name] ?? ` (now ${VALUE_PLACEHOLDER})`}`;
}

function ruleLines(alarm: AlarmDefinition, expr: string, periods: AlarmPeriods): string[] {
  return [
    `      - alert: ${alarm.name}`,
    `        expr: ${quote(expr)}`,
    '        labels:',
    `          severity: ${alarm.severity}`,
    '          topic: plat-alerts',
    '        annotations:',
    `          summary: ${quote(summaryTemplate(alarm, periods))}`,
    `          hint: ${quote(alarm.hint)}`,
  ];
}

/**
 * The alarm's condition in words: "projects that failed (...) > 5 over 1 hour". With shortened periods
 * (PLAT_ALARM_HOUR) the words say the periods really in force: "over 1m".
 */
export function alarmCondition(alarm: AlarmDefinition, periods: AlarmPeriods = REQUIRED_PERIODS): string {
  if (alarm.period === '-') return alarm.metric;
  const required = periods.hour === REQUIRED_PERIODS.hour;
  const period = required
    ? alarm.period
    : alarm.period
        .replace('1 hour', promDuration(periods.hour))
        .replace('1 day', promDuration(periods.day))
        .replace('10 minutes', promDuration(2 * periods.period))
        .replace('5 minutes', promDuration(periods.period));
  return `${alarm.metric} ${alarm.threshold} over ${period}`;
}

/** A YAML double-quoted scalar (JSON's string syntax is one). */
function quote(text: string): string {
  return JSON.stringify(text);
}
