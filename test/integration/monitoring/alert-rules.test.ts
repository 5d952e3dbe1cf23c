/**
 * The shipped alerting rules, run by Prometheus's own rule engine (`promtool test rules`): every
 * alarm is fed series that cross its threshold and series that stay just under it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ALARMS } from '../../../domain/monitoring/alarm-catalog';
import { VALUE_PLACEHOLDER, summaryTemplate } from '../../../domain/monitoring/alert-rules';
import { monitoringProgram } from '../../../scripts/lib/tool-paths';
import { SHIPPED_RULES_FILE } from '../../../scripts/write-alert-rules';

interface Series {
  series: string;
  values: string;
}

interface RuleCase {
  name: string;
  /** Sample spacing of `series` (promtool's `interval`). */
  interval?: string;
  series: Series[];
  evalTime: string;
  /**
   * The alarms that must fire at `evalTime` with their value (or, for an alarm per task queue, each
   * alert's value and labels); every other alarm must not.
   */
  firing: Record<string, number | { value: number; labels: Record<string, string> }[]>;
}

const ALL_LABELS = { severity: 'warning', topic: 'plat-alerts' };

function expectedAlerts(alarmName: string, expected: RuleCase['firing'][string] | undefined) {
  if (expected === undefined) return [];
  const alarm = ALARMS.find((a) => a.name === alarmName)!;
  const alerts = typeof expected === 'number' ? [{ value: expected, labels: {} }] : expected;
  return alerts.map(({ value, labels }) => ({
    exp_labels: { ...ALL_LABELS, severity: alarm.severity, ...labels },
    exp_annotations: {
      summary: Object.entries(labels).reduce(
        (text, [name, v]) => text.replace(`{{ $labels.${name} }}`, v),
        summaryTemplate(alarm).replace(VALUE_PLACEHOLDER, String(value)),
      ),
      hint: alarm.hint,
    },
  }));
}

function promtoolTest(rc: RuleCase) {
  return {
    interval: rc.interval ?? '1m',
    input_series: rc.series,
    alert_rule_test: ALARMS.map((a) => ({
      eval_time: rc.evalTime,
      alertname: a.name,
      exp_alerts: expectedAlerts(a.name, rc.firing[a.name]),
    })),
  };
}

const failures = (values: string): Series => ({
  series: 'plat_project_failures_total{service="worker"}',
  values,
});
const runnerErrors = (activity: string, values: string): Series => ({
  series: `plat_activity_errors_total{service="worker",function="agent-runner",activity="${activity}"}`,
  values,
});
const bucket = (le: string, values: string): Series => ({
  series: `plat_activity_duration_seconds_bucket{service="worker",function="agent-runner",activity="generatePrd",le="${le}"}`,
  values,
});

/** The SDK's schedule-to-start histogram of one queue (its buckets: 0.1 0.5 1 5 10 100 1000 s). */
const waits = (
  kind: 'activity' | 'workflow_task',
  queue: string,
  buckets: Record<string, string>,
): Series[] =>
  Object.entries(buckets).map(([le, values]) => ({
    series: `temporal_${kind}_schedule_to_start_latency_bucket{task_queue="${queue}",le="${le}"}`,
    values,
  }));

const CASES: RuleCase[] = [
  {
    // Half a sample off the grid, increase() reads 5 failures as 5.08: the rule must still count 5.
    name: '5 project failures in the hour stay under plat-ProjectFailureRate',
    series: [failures('0x70 1 2 3 4 5 5x30')],
    evalTime: '100m30s',
    firing: {},
  },
  {
    name: '6 project failures in the hour fire plat-ProjectFailureRate',
    series: [failures('0x70 1 2 3 4 5 6 6x30')],
    evalTime: '100m30s',
    firing: { 'plat-ProjectFailureRate': 6 },
  },
  {
    // A worker scraped for a few minutes only: increase() would read these 6 failures as 7.2.
    name: 'a young series counts its 6 failures as 6, not extrapolated',
    interval: '15s',
    series: [failures('0 0 0 0 6 6')],
    evalTime: '1m20s',
    firing: { 'plat-ProjectFailureRate': 6 },
  },
  {
    name: 'a young series with 5 failures stays under, not extrapolated to 6',
    interval: '15s',
    series: [failures('0 0 0 0 5 5')],
    evalTime: '1m20s',
    firing: {},
  },
  {
    name: 'failures before and after a worker restart add up',
    series: [failures('0x10 3 3 0 0 3 3x10')],
    evalTime: '20m',
    firing: { 'plat-ProjectFailureRate': 6 },
  },
  {
    name: 'a Prometheus that first sees a long-running worker does not count its old failures',
    series: [failures('500 500 500 500 500')],
    evalTime: '4m',
    firing: {},
  },
  {
    name: 'failures older than the hour do not count',
    series: [failures('0 10 20 20x80')],
    evalTime: '80m',
    firing: {},
  },
  {
    name: '1,000,000 tokens in a day stay under plat-TokenUsageHigh',
    interval: '1h',
    series: [
      { series: 'plat_model_tokens_total{direction="input"}', values: '0 500000 700000' },
      { series: 'plat_model_tokens_total{direction="output"}', values: '0 100000 300000' },
    ],
    evalTime: '2h',
    firing: {},
  },
  {
    name: '1,000,001 tokens in a day fire plat-TokenUsageHigh',
    interval: '1h',
    series: [
      { series: 'plat_model_tokens_total{direction="input"}', values: '0 500000 700000' },
      { series: 'plat_model_tokens_total{direction="output"}', values: '0 100000 300001' },
    ],
    evalTime: '2h',
    firing: { 'plat-TokenUsageHigh': 1000001 },
  },
  {
    // One attempt a minute: 10 slow minutes (200 s each, P95 in 180..240), then 5 fast ones.
    name: 'two of three 5-minute periods with P95 over 180 s fire plat-LambdaDuration',
    series: [
      bucket('120', '0x10 1+1x4'),
      bucket('180', '0x10 1+1x4'),
      bucket('240', '0+1x15'),
      bucket('+Inf', '0+1x15'),
    ],
    evalTime: '15m',
    firing: { 'plat-LambdaDuration': 2 },
  },
  {
    name: 'one slow period of three stays under plat-LambdaDuration',
    series: [
      bucket('120', '0x5 1+1x9'),
      bucket('180', '0x5 1+1x9'),
      bucket('240', '0+1x15'),
      bucket('+Inf', '0+1x15'),
    ],
    evalTime: '15m',
    firing: {},
  },
  {
    name: 'attempts of 170 s (P95 under 180 s) stay under plat-LambdaDuration',
    series: [
      bucket('120', '0x15'),
      bucket('180', '0+1x15'),
      bucket('240', '0+1x15'),
      bucket('+Inf', '0+1x15'),
    ],
    evalTime: '15m',
    firing: {},
  },
  {
    name: "10 agent-runner errors stay under plat-LambdaErrors, whatever other functions' errors",
    series: [
      runnerErrors('generatePrd', '0 4 4x10'),
      runnerErrors('ingestOds', '0 6 6x10'),
      {
        series: 'plat_activity_errors_total{function="memory-pipelines",activity="digestMemories"}',
        values: '0 50 50x10',
      },
    ],
    evalTime: '10m',
    firing: {},
  },
  {
    name: '11 agent-runner errors fire plat-LambdaErrors',
    series: [runnerErrors('generatePrd', '0 4 4x10'), runnerErrors('ingestOds', '0 7 7x10')],
    evalTime: '10m',
    firing: { 'plat-LambdaErrors': 11 },
  },
  {
    name: '10 failed warehouse statements stay under plat-AthenaQueryFailed',
    series: [
      {
        series: 'plat_warehouse_query_failures_total{engine="duckdb",reason="failed"}',
        values: '0 10 10x10',
      },
    ],
    evalTime: '10m',
    firing: {},
  },
  {
    name: '11 failed warehouse statements over both engines fire plat-AthenaQueryFailed',
    series: [
      {
        series: 'plat_warehouse_query_failures_total{engine="duckdb",reason="failed"}',
        values: '0 10 10x10',
      },
      { series: 'plat_warehouse_query_failures_total{engine="athena",reason="timeout"}', values: '0 1 1x10' },
    ],
    evalTime: '10m',
    firing: { 'plat-AthenaQueryFailed': 11 },
  },
  {
    name: 'each phase alarm counts its own phase: 6 advisor failures, 5 governance failures',
    series: [
      { series: 'plat_agent_invoke_failures_total{phase="analytics_advisor"}', values: '0 6 6x10' },
      { series: 'plat_agent_invoke_failures_total{phase="data_governance"}', values: '0 5 5x10' },
      { series: 'plat_agent_invoke_failures_total{phase="prd"}', values: '0 40 40x10' },
    ],
    evalTime: '10m',
    firing: { 'plat-AAInvokeFailed': 6 },
  },
  {
    name: '6 governance failures fire plat-DGInvokeFailed',
    series: [
      { series: 'plat_agent_invoke_failures_total{phase="analytics_advisor"}', values: '0 5 5x10' },
      { series: 'plat_agent_invoke_failures_total{phase="data_governance"}', values: '0 6 6x10' },
    ],
    evalTime: '10m',
    firing: { 'plat-DGInvokeFailed': 6 },
  },
  {
    // Five tasks a minute, one taken within 10 s and four within 100 s: P95 = 10 + 90 × 3.75/4 ≈ 94 s.
    name: 'a queue whose tasks wait over 30 s (P95) for 10 minutes fires plat-WorkerBacklog for that queue',
    series: [
      ...waits('activity', 'plat-platform-agents', { '10': '0+1x25', '100': '0+5x25', '+Inf': '0+5x25' }),
      ...waits('activity', 'plat-platform-operations', { '1': '0+5x25', '10': '0+5x25', '+Inf': '0+5x25' }),
    ],
    evalTime: '20m',
    firing: { 'plat-WorkerBacklog': [{ value: 94, labels: { task_queue: 'plat-platform-agents' } }] },
  },
  {
    name: 'workflow tasks waiting count too, queue by queue',
    series: [
      ...waits('workflow_task', 'plat-platform', { '10': '0+1x25', '100': '0+5x25', '+Inf': '0+5x25' }),
      ...waits('activity', 'plat-platform', { '1': '0+5x25', '+Inf': '0+5x25' }),
    ],
    evalTime: '20m',
    firing: { 'plat-WorkerBacklog': [{ value: 94, labels: { task_queue: 'plat-platform' } }] },
  },
  {
    // Slow for the last 6 minutes only: workers may still catch up.
    name: 'a backlog younger than 10 minutes stays under plat-WorkerBacklog',
    series: waits('activity', 'plat-platform-agents', {
      '10': '0+5x14 70+1x6',
      '100': '0+5x20',
      '+Inf': '0+5x20',
    }),
    evalTime: '20m',
    firing: {},
  },
  {
    // All within 10 s, most within 5: P95 under 30 s.
    name: 'tasks taken within seconds stay under plat-WorkerBacklog',
    series: waits('activity', 'plat-platform-host-h1', { '5': '0+4x25', '10': '0+5x25', '+Inf': '0+5x25' }),
    evalTime: '20m',
    firing: {},
  },
  {
    name: 'a refresh failed within the hour fires plat-RefreshStale',
    series: [{ series: 'plat_refresh_failures_total{service="worker"}', values: '0x10 1 1x10' }],
    evalTime: '20m',
    firing: { 'plat-RefreshStale': 1 },
  },
  {
    name: 'a refresh failed more than an hour ago is quiet',
    series: [{ series: 'plat_refresh_failures_total{service="worker"}', values: '0 1 1x90' }],
    evalTime: '80m',
    firing: {},
  },
  {
    name: 'stale scheduled projects fire plat-RefreshStale once, whatever the number of gateways',
    series: [
      { series: 'plat_refresh_stale_projects{service="gateway",instance="g1"}', values: '2x10' },
      { series: 'plat_refresh_stale_projects{service="gateway",instance="g2"}', values: '2x10' },
    ],
    evalTime: '5m',
    firing: { 'plat-RefreshStale': 2 },
  },
  {
    name: 'no stale scheduled project is quiet',
    series: [{ series: 'plat_refresh_stale_projects{service="gateway",instance="g1"}', values: '0x10' }],
    evalTime: '5m',
    firing: {},
  },
  {
    name: 'plat-SystemCritical fires when errors and project failures are both in alarm',
    series: [runnerErrors('generatePrd', '0 11 11x10'), failures('0 6 6x10')],
    evalTime: '10m',
    firing: { 'plat-LambdaErrors': 11, 'plat-ProjectFailureRate': 6, 'plat-SystemCritical': 1 },
  },
  {
    name: 'plat-SystemCritical stays quiet with errors alone',
    series: [runnerErrors('generatePrd', '0 11 11x10'), failures('0 5 5x10')],
    evalTime: '10m',
    firing: { 'plat-LambdaErrors': 11 },
  },
  {
    name: 'plat-SystemCritical stays quiet with project failures alone',
    series: [runnerErrors('generatePrd', '0 10 10x10'), failures('0 6 6x10')],
    evalTime: '10m',
    firing: { 'plat-ProjectFailureRate': 6 },
  },
];

describe('alerting rules', () => {
  let dir: string;
  let promtool: string;

  beforeAll(() => {
    promtool = monitoringProgram('promtool');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-rules-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('ships the rules rendered from the alarm catalog (npm run monitoring:rules)', () => {
    // A child process: prettier, which styles the file, loads as ESM only outside jest's VM.
    const writer = path.join(__dirname, '..', '..', '..', 'scripts', 'write-alert-rules.ts');
    const run = spawnSync(process.execPath, ['--import', 'tsx', writer, '--check'], { encoding: 'utf8' });
    expect(run.stdout).toContain('is current');
    expect(run.status).toBe(0);
  });

  it('passes promtool check rules with all ten alarms', () => {
    const out = execFileSync(promtool, ['check', 'rules', SHIPPED_RULES_FILE], { encoding: 'utf8' });
    expect(out).toContain(`SUCCESS: ${ALARMS.length} rules found`);
    expect(ALARMS).toHaveLength(10);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, rc) => {
    const file = path.join(dir, `${CASES.indexOf(rc)}.test.yml`);
    const spec = { rule_files: [SHIPPED_RULES_FILE], evaluation_interval: '1m', tests: [promtoolTest(rc)] };
    // JSON is YAML: promtool reads it as its test file.
    fs.writeFileSync(file, JSON.stringify(spec, null, 1));
    const run = spawnSync(promtool, ['test', 'rules', file], { encoding: 'utf8' });
    expect(`${run.stdout}${run.stderr}`).toContain('SUCCESS');
    expect(run.status).toBe(0);
  });
});
