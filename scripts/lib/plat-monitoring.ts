/**
 * `npm start -- --with-monitoring` (docs/monitoring.md#running-them): provisions Prometheus and
 * Alertmanager from Debian, gives the gateway's alarm webhook its token, and starts both watching
 * the worker, the gateway and the memory service (with the SNS topic, when PLAT_ALERTS_SNS is set).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { PlatConfig } from '../../shared/config';
import { repoRoot } from '../../shared/paths';
import { alertsReceiver } from './alerts-receiver';
import { startMonitoring, type MonitoringStack } from './monitoring-stack';

const run = promisify(execFile);

/** Installs the two Debian packages when missing (prints nothing when they are there). */
export async function provisionMonitoring(): Promise<void> {
  await run('bash', [path.join(repoRoot, 'scripts', 'provision.sh'), '--with-monitoring'], {
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** The webhook's token: the configured one, else one generated once into the data directory. */
export function alertsWebhookToken(config: PlatConfig, monitoringDir: string): string {
  if (config.PLAT_ALERTS_WEBHOOK_TOKEN) return config.PLAT_ALERTS_WEBHOOK_TOKEN;
  const file = path.join(monitoringDir, 'alerts-webhook.token');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(monitoringDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, randomBytes(24).toString('hex'), { mode: 0o600 });
  }
  return fs.readFileSync(file, 'utf8').trim();
}

export async function startPlatMonitoring(opts: {
  config: PlatConfig;
  monitoringDir: string;
  logDir: string;
  gatewayUrl: string;
  memoryUrl: string;
  webhookToken: string;
}): Promise<{ stack: MonitoringStack; lines: [string, string][] }> {
  const { config, monitoringDir } = opts;
  const secretFile = (name: string, value: string) => {
    const file = path.join(monitoringDir, name);
    fs.writeFileSync(file, value, { mode: 0o600 });
    return file;
  };
  const plan = await alertsReceiver(
    { ...config, PLAT_ALERTS_WEBHOOK_TOKEN: opts.webhookToken },
    { webhookUrl: `${opts.gatewayUrl}/v1/alerts`, secretFile },
  );
  const stack = await startMonitoring({
    dir: monitoringDir,
    logDir: opts.logDir,
    prometheusPort: config.PROMETHEUS_PORT,
    alertmanagerPort: config.ALERTMANAGER_PORT,
    targets: {
      worker: `127.0.0.1:${config.PLAT_WORKER_METRICS_PORT}`,
      gateway: new URL(opts.gatewayUrl).host,
      memory: new URL(opts.memoryUrl).host,
    },
    alarmHour: config.PLAT_ALARM_HOUR,
    receiver: plan.receiver,
  });
  // Debian's build serves only the classic UI (/classic/alerts); upstream builds serve /alerts.
  const upstreamUi = await fetch(`${stack.prometheusUrl}/alerts`).then(
    (r) => r.ok,
    () => false,
  );
  const alertsPage = `${stack.prometheusUrl}${upstreamUi ? '/alerts' : '/classic/alerts'}`;
  return {
    stack,
    lines: [
      ['Prometheus (alarms)', `${alertsPage}  (alarm hour ${config.PLAT_ALARM_HOUR})`],
      ['Alertmanager', `${stack.alertmanagerUrl}  (receiver plat-alerts: ${plan.summary})`],
    ],
  };
}
