/**
 * The alarms on the real engines: plat's worker and gateway as `npm start` runs them, Debian's
 * Prometheus and Alertmanager with the shipped rules (at a test alarm hour of 60 s), and a real SMTP
 * server (aiosmtpd). Projects fail for real (their source database is dropped between the PRD and the
 * approval, so data integration is refused) until plat-ProjectFailureRate fires; it reaches the gateway's webhook and an inbox, the
 * composite waits for its second input, and everything resolves once the failures age out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import mysql from 'mysql2/promise';
import { freePort } from '../../shared/free-port';
import { startMonitoring, type MonitoringStack } from '../../scripts/lib/monitoring-stack';
import { toolsDir } from '../../shared/paths';
import { ALARMS } from '../../domain/monitoring/alarm-catalog';
import { apiCaller } from '../harness/api-caller';
import { harness } from '../harness/harness-state';
import { newTestDataDir } from '../harness/platform-gateway';
import { startProcess, type Proc } from '../harness/processes';

const ALARM_HOUR = '60s';
const WEBHOOK_TOKEN = 'alarm-webhook-token-of-this-test-0123456789';
/** A small source database, created for each batch of projects and dropped before their approval. */
const SOURCE_DB = `alarm_src_${process.pid}`;

interface Inbox {
  process: ChildProcess;
  port: number;
  text: () => string;
}

async function startInbox(): Promise<Inbox> {
  const port = await freePort();
  const bin = path.join(toolsDir(), 'smtp-venv', 'bin', 'aiosmtpd');
  // -n: stay in the foreground; the default handler prints every message it receives.
  const child = spawn(bin, ['-n', '-l', `127.0.0.1:${port}`], {
    env: { ...process.env, PYTHONUNBUFFERED: '1' },
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { process: child, port, text: () => out };
}

async function sourceAdmin() {
  const { host, port, user, password } = harness().mariadb;
  return mysql.createConnection({ host, port, user, password });
}

describe('alarms on Prometheus and Alertmanager (real engines)', () => {
  const procs: Proc[] = [];
  let inbox: Inbox | undefined;
  let monitoring: MonitoringStack | undefined;

  afterAll(async () => {
    for (const p of procs) p.child.kill('SIGKILL');
    inbox?.process.kill('SIGKILL');
    await monitoring?.stop();
    const admin = await sourceAdmin();
    await admin.query(`DROP DATABASE IF EXISTS ${SOURCE_DB}`);
    await admin.end();
  });

  it('fires plat-ProjectFailureRate on failing projects, mails it, shows it, and resolves it', async () => {
    const dataDir = newTestDataDir();
    const gatewayPort = await freePort();
    const workerMetricsPort = await freePort();
    const env = {
      TEMPORAL_ADDRESS: harness().temporal.address,
      PLAT_DATA_DIR: dataDir,
      PLAT_TASK_QUEUE: `alarms-${Date.now()}`,
      PLAT_GATEWAY_PORT: String(gatewayPort),
      PLAT_WORKER_METRICS_PORT: String(workerMetricsPort),
      PLAT_SELF_SIGNUP: 'true',
      PLAT_ALERTS_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
    };
    const base = `http://127.0.0.1:${gatewayPort}`;
    procs.push(startProcess('gateway/platform/platform-main.ts', env));
    inbox = await startInbox();
    const monitoringDir = path.join(dataDir, 'monitoring');
    fs.mkdirSync(monitoringDir, { recursive: true });
    const tokenFile = path.join(monitoringDir, 'webhook.token');
    fs.writeFileSync(tokenFile, WEBHOOK_TOKEN, { mode: 0o600 });
    monitoring = await startMonitoring({
      dir: monitoringDir,
      logDir: path.join(dataDir, 'logs'),
      prometheusPort: await freePort(),
      alertmanagerPort: await freePort(),
      targets: { gateway: `127.0.0.1:${gatewayPort}`, worker: `127.0.0.1:${workerMetricsPort}` },
      alarmHour: ALARM_HOUR,
      receiver: {
        webhookUrl: `${base}/v1/alerts`,
        webhookTokenFile: tokenFile,
        email: {
          to: 'ops@example.com',
          from: 'plat-alerts@example.com',
          smarthost: `127.0.0.1:${inbox.port}`,
          requireTls: false,
        },
      },
    });

    const api = apiCaller(base);
    const diagnosis = async () => {
      const query = async (q: string) =>
        JSON.stringify(
          (
            (await (
              await fetch(`${monitoring!.prometheusUrl}/api/v1/query?query=${encodeURIComponent(q)}`)
            ).json()) as { data: unknown }
          ).data,
        );
      const logs = ['prometheus.log', 'alertmanager.log'].map((f) =>
        fs
          .readFileSync(path.join(dataDir, 'logs', f), 'utf8')
          .split('\n')
          .slice(-8)
          .join('\n'),
      );
      return [
        `up: ${await query('up')}`,
        `failures: ${await query('plat_project_failures_total[2m]')}`,
        `errors: ${await query('sum(plat_activity_errors_total)')}`,
        `prometheus alerts: ${JSON.stringify(await (await fetch(`${monitoring!.prometheusUrl}/api/v1/alerts`)).json())}`,
        ...logs,
        `--- inbox\n${inbox?.text().slice(-1500)}`,
        `--- processes\n${procs.map((p) => p.output().slice(-1500)).join('\n')}`,
      ].join('\n');
    };
    const until = async <T>(what: string, probe: () => Promise<T | undefined>, seconds = 120): Promise<T> => {
      const deadline = Date.now() + seconds * 1000;
      while (Date.now() < deadline) {
        const found = await probe().catch(() => undefined);
        if (found !== undefined) return found;
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error(`never ${what}\n${await diagnosis()}`);
    };
    await until('gateway up', async () => ((await fetch(`${base}/health`)).ok ? true : undefined));
    const token = (await api('POST', '/auth/signup', { username: 'ops', password: 'ops-password-1' })).body
      .id_token as string;

    // The webhook is Alertmanager's alone; the alarms are for operators (ops, the first account).
    expect(
      (await api('POST', '/v1/alerts', { version: '4', receiver: 'x', status: 'firing', alerts: [] })).status,
    ).toBe(401);
    expect((await api('GET', '/v1/alarms')).status).toBe(401);

    const alarms = async () =>
      (await api('GET', '/v1/alarms', undefined, token)).body.alarms as { name: string; state: string }[];
    const stateOf = async (name: string) => (await alarms()).find((a) => a.name === name)?.state;
    const prometheusFiring = async () => {
      const res = await fetch(`${monitoring!.prometheusUrl}/api/v1/alerts`);
      const body = (await res.json()) as {
        data: { alerts: { labels: { alertname: string }; state: string }[] };
      };
      return body.data.alerts.filter((a) => a.state === 'firing').map((a) => a.labels.alertname);
    };
    expect(await alarms()).toHaveLength(ALARMS.length);
    expect(new Set((await alarms()).map((a) => a.state))).toEqual(new Set(['ok']));

    // The worker runs from the start: Prometheus must have seen its counters at zero, or the first
    // failures would be the series' first sample and no increase at all.
    procs.push(startProcess('workers/main.ts', env));
    await until('Prometheus scraping the worker', async () => {
      const res = await fetch(
        `${monitoring!.prometheusUrl}/api/v1/query?query=${encodeURIComponent('count_over_time(plat_project_failures_total[1m]) >= 3')}`,
      );
      return ((await res.json()) as { data: { result: unknown[] } }).data.result.length ? true : undefined;
    });

    /**
     * `count` projects whose PRDs are written on a database that exists, ready to fail for real: once
     * the database is dropped, each one's data integration is refused on approval (no such database,
     * which is not retried). All are written first, so the failures of both rounds come within the
     * alarms' hour of one minute however long a loaded machine takes to write PRDs.
     */
    const projectsToFail = async (count: number): Promise<string[]> => {
      const admin = await sourceAdmin();
      await admin.query(`CREATE DATABASE ${SOURCE_DB}`);
      await admin.query(
        `CREATE TABLE ${SOURCE_DB}.orders (order_id INT PRIMARY KEY, amount DECIMAL(10,2) NOT NULL, ordered_at DATETIME NOT NULL)`,
      );
      await admin.query(
        `INSERT INTO ${SOURCE_DB}.orders SELECT seq, seq * 1.5, TIMESTAMP('2026-01-01') + INTERVAL seq HOUR FROM ${SOURCE_DB}.seq_1_to_200`,
      );
      const { host, port, user, password } = harness().mariadb;
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const created = await api(
          'POST',
          '/v1/projects',
          { jdbc_url: `jdbc:mysql://${host}:${port}/${SOURCE_DB}`, username: user, password },
          token,
        );
        expect(created.status).toBe(201);
        ids.push(created.body.project_id as string);
      }
      const waiting = async () =>
        (await api('GET', '/v1/projects?status=waiting_approval', undefined, token)).body.total as number;
      await until(`${count} PRDs written`, async () => ((await waiting()) === count ? true : undefined));
      await admin.query(`DROP DATABASE ${SOURCE_DB}`);
      await admin.end();
      return ids;
    };
    /** Approves `ids` and waits until every one has failed. */
    const fail = async (ids: string[]): Promise<void> => {
      for (const id of ids) {
        expect((await api('POST', `/v1/projects/${id}/hitl/approve`, undefined, token)).status).toBe(200);
      }
      await until(`${ids.length} projects failed`, async () => {
        for (const id of ids)
          if ((await api('GET', `/v1/projects/${id}`, undefined, token)).body.status !== 'failed')
            return undefined;
        return true;
      });
    };
    const ready = await projectsToFail(11);

    // Six failures: more than 5 in the hour.
    await fail(ready.slice(0, 6));
    await until('plat-ProjectFailureRate firing at the gateway', async () =>
      (await stateOf('plat-ProjectFailureRate')) === 'firing' ? true : undefined,
    );
    // One refused attempt per project (a missing database is not retried): 6 errors, under plat-LambdaErrors.
    const workerMetrics = await (await fetch(`http://127.0.0.1:${workerMetricsPort}/metrics`)).text();
    expect(workerMetrics).toMatch(
      /^plat_activity_errors_total\{function="agent-runner",activity="planOdsCopy"[^}]*\} 6$/m,
    );
    expect(workerMetrics).toMatch(/^plat_agent_invoke_failures_total\{phase="data_ingestion"[^}]*\} 6$/m);
    expect(await prometheusFiring()).toEqual(['plat-ProjectFailureRate']);
    expect(await stateOf('plat-SystemCritical')).toBe('ok');
    await until('the firing e-mail', async () =>
      /Subject: \[FIRING:1\] plat-ProjectFailureRate/.test(inbox!.text()) ? true : undefined,
    );
    expect(inbox.text()).toContain('To: ops@example.com');

    // Five more: 11 failed attempts exceed the 10 of plat-LambdaErrors, and with both inputs in alarm
    // the composite fires.
    await fail(ready.slice(6));
    await until('plat-SystemCritical firing', async () =>
      (await stateOf('plat-SystemCritical')) === 'firing' ? true : undefined,
    );
    expect((await prometheusFiring()).sort()).toEqual(
      ['plat-LambdaErrors', 'plat-ProjectFailureRate', 'plat-SystemCritical'].sort(),
    );

    // No more failures: once they are older than the hour, every alarm resolves.
    await until(
      'every alarm resolved',
      async () => ((await alarms()).every((a) => a.state === 'ok') ? true : undefined),
      150,
    );
    const history = (await api('GET', '/v1/alarms/plat-ProjectFailureRate', undefined, token)).body
      .history as { status: string; summary: string }[];
    expect(history.map((h) => h.status)).toEqual(['resolved', 'firing']);
    // The summary names the periods in force: the test's hour of one minute.
    expect(history[1].summary).toMatch(/> 5 over 1m \(now (6|11)\)/);
    await until('the resolved e-mail', async () =>
      /Subject: \[RESOLVED\] plat-ProjectFailureRate/.test(inbox!.text()) ? true : undefined,
    );
  }, 300_000);
});
