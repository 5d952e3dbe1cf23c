/**
 * A local Prometheus and Alertmanager (Debian packages) watching plat (docs/monitoring.md#running-them):
 * their configuration is written under `dir`, the shipped alarm rules are rendered for the configured
 * alarm hour, and both answer on loopback ports.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { durationSeconds, periodsForHour, renderAlertRules } from '../../domain/monitoring/alert-rules';
import { spawnService, stopOnFailure, waitUntil, type ChildService } from './child-service';
import { alertmanagerConfig, prometheusConfig, type AlertmanagerSettings } from './monitoring-config';
import { monitoringProgram } from './tool-paths';

export interface MonitoringOptions {
  /** Where configuration and both engines' data go. */
  dir: string;
  logDir: string;
  prometheusPort: number;
  alertmanagerPort: number;
  /** `host:port` of each plat process to scrape, by job name. */
  targets: Record<string, string>;
  /** The alarms' hour (PLAT_ALARM_HOUR), e.g. `1h`. */
  alarmHour: string;
  /** The receiver's destinations (the periods come from `alarmHour`). */
  receiver: Omit<AlertmanagerSettings, 'periods'>;
}

export interface MonitoringStack {
  prometheus: ChildService;
  alertmanager: ChildService;
  prometheusUrl: string;
  alertmanagerUrl: string;
  stop(): Promise<void>;
}

/** Where the written configuration lives, as the engines will read it. */
export interface MonitoringFiles {
  rulesFile: string;
  prometheusConfig: string;
  alertmanagerConfig: string;
}

/**
 * Writes the rules (for the alarm hour), prometheus.yml and alertmanager.yml into `dir`. `seenAt` is
 * where the engines find `dir` (a container's mount point); by default, `dir` itself.
 */
export function writeMonitoringConfig(
  opts: Pick<MonitoringOptions, 'dir' | 'targets' | 'alarmHour' | 'receiver'> & {
    alertmanager: string;
    seenAt?: string;
  },
): MonitoringFiles {
  const periods = periodsForHour(durationSeconds(opts.alarmHour));
  const files: MonitoringFiles = {
    rulesFile: path.join(opts.dir, 'plat-alerts.rules.yml'),
    prometheusConfig: path.join(opts.dir, 'prometheus.yml'),
    alertmanagerConfig: path.join(opts.dir, 'alertmanager.yml'),
  };
  fs.mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(files.rulesFile, renderAlertRules(periods));
  const rulesSeenAt = path.join(opts.seenAt ?? opts.dir, path.basename(files.rulesFile));
  fs.writeFileSync(
    files.prometheusConfig,
    prometheusConfig({
      targets: opts.targets,
      alertmanager: opts.alertmanager,
      rulesFile: rulesSeenAt,
      periods,
    }),
  );
  fs.writeFileSync(files.alertmanagerConfig, alertmanagerConfig({ ...opts.receiver, periods }), {
    mode: 0o600,
  });
  return files;
}

export async function startMonitoring(opts: MonitoringOptions): Promise<MonitoringStack> {
  const amAddress = `127.0.0.1:${opts.alertmanagerPort}`;
  const files = writeMonitoringConfig({ ...opts, alertmanager: amAddress });

  const alertmanager = spawnService(
    'alertmanager',
    monitoringProgram('alertmanager'),
    [
      `--config.file=${files.alertmanagerConfig}`,
      `--storage.path=${path.join(opts.dir, 'alertmanager-data')}`,
      `--web.listen-address=${amAddress}`,
      // A single instance: no gossip port to collide with another Alertmanager on 9094.
      '--cluster.listen-address=',
    ],
    path.join(opts.logDir, 'alertmanager.log'),
  );
  const prometheus = spawnService(
    'prometheus',
    monitoringProgram('prometheus'),
    [
      `--config.file=${files.prometheusConfig}`,
      `--storage.tsdb.path=${path.join(opts.dir, 'prometheus-data')}`,
      `--web.listen-address=127.0.0.1:${opts.prometheusPort}`,
    ],
    path.join(opts.logDir, 'prometheus.log'),
  );
  const stop = async () => {
    await Promise.all([prometheus.stop(), alertmanager.stop()]);
  };
  const prometheusUrl = `http://127.0.0.1:${opts.prometheusPort}`;
  const alertmanagerUrl = `http://${amAddress}`;
  await stopOnFailure({ stop }, () =>
    Promise.all([
      waitUntil('Alertmanager', () => ready(`${alertmanagerUrl}/-/ready`), {
        timeoutMs: 60_000,
        service: alertmanager,
      }),
      waitUntil('Prometheus', () => ready(`${prometheusUrl}/-/ready`), {
        timeoutMs: 60_000,
        service: prometheus,
      }),
    ]),
  );
  return { prometheus, alertmanager, prometheusUrl, alertmanagerUrl, stop };
}

async function ready(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  return res.ok;
}
