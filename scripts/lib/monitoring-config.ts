/**
 * The configuration files of the local Prometheus and Alertmanager (docs/monitoring.md#running-them):
 * Prometheus scrapes plat's three processes, evaluates the shipped alarms and sends them to
 * Alertmanager, whose single route ends at the receiver `plat-alerts` (the gateway's webhook, plus
 * e-mail to ALERT_EMAIL, plus the SNS topic on AWS). Written as JSON, which both read as YAML.
 */
import type { AlarmPeriods } from '../../domain/monitoring/alert-rules';
import { promDuration } from '../../domain/monitoring/alert-rules';

export const ALERTS_RECEIVER = 'plat-alerts';

export interface PrometheusSettings {
  /**
   * `host:port` of each process to scrape, by job name; `dns+host:port` scrapes every address the name
   * resolves to (compose's replicas of one service: docs/monitoring.md#worker-fleet).
   */
  targets: Record<string, string>;
  /** `host:port` of Alertmanager. */
  alertmanager: string;
  rulesFile: string;
  periods: AlarmPeriods;
}

export function prometheusConfig(s: PrometheusSettings): string {
  // 15 s (Prometheus's default) for the real hour; shorter hours scrape as often as they evaluate.
  const scrape = Math.max(1, Math.min(15, s.periods.evaluationInterval));
  return JSON.stringify(
    {
      global: {
        scrape_interval: promDuration(scrape),
        evaluation_interval: promDuration(s.periods.evaluationInterval),
      },
      rule_files: [s.rulesFile],
      alerting: { alertmanagers: [{ static_configs: [{ targets: [s.alertmanager] }] }] },
      scrape_configs: Object.entries(s.targets).map(([job, target]) => ({
        job_name: job,
        ...scrapeTargets(target),
      })),
    },
    null,
    2,
  );
}

/** One static target, or DNS discovery of every replica behind a name (`dns+worker:9464`). */
function scrapeTargets(target: string): object {
  const dns = /^dns\+(.+):(\d+)$/.exec(target);
  if (!dns) return { static_configs: [{ targets: [target] }] };
  return { dns_sd_configs: [{ names: [dns[1]], type: 'A', port: Number(dns[2]), refresh_interval: '30s' }] };
}

export interface AlertmanagerSettings {
  /** The gateway's `POST /v1/alerts`. */
  webhookUrl: string;
  /** A file holding the webhook's bearer token (kept out of the configuration itself). */
  webhookTokenFile: string;
  email?: {
    to: string;
    from: string;
    smarthost: string;
    username?: string;
    /** A file holding the SMTP password. */
    passwordFile?: string;
    requireTls: boolean;
  };
  /** The SNS topic `plat-alerts` (AWS configured). */
  sns?: { topicArn: string; region: string; endpoint?: string };
  periods: AlarmPeriods;
}

export function alertmanagerConfig(s: AlertmanagerSettings): string {
  const scale = s.periods.hour / 3600;
  const seconds = (real: number) => promDuration(Math.max(1, Math.round(real * scale)));
  const receiver: Record<string, unknown> = {
    name: ALERTS_RECEIVER,
    webhook_configs: [
      {
        url: s.webhookUrl,
        send_resolved: true,
        http_config: { authorization: { type: 'Bearer', credentials_file: s.webhookTokenFile } },
      },
    ],
  };
  if (s.email) {
    receiver.email_configs = [
      {
        to: s.email.to,
        from: s.email.from,
        smarthost: s.email.smarthost,
        require_tls: s.email.requireTls,
        send_resolved: true,
        ...(s.email.username ? { auth_username: s.email.username } : {}),
        ...(s.email.passwordFile ? { auth_password_file: s.email.passwordFile } : {}),
      },
    ];
  }
  if (s.sns) {
    receiver.sns_configs = [
      {
        topic_arn: s.sns.topicArn,
        send_resolved: true,
        sigv4: { region: s.sns.region },
        ...(s.sns.endpoint ? { api_url: s.sns.endpoint } : {}),
        subject: '[{{ .Status | toUpper }}] {{ .GroupLabels.alertname }}',
      },
    ];
  }
  return JSON.stringify(
    {
      global: { resolve_timeout: seconds(300) },
      route: {
        receiver: ALERTS_RECEIVER,
        group_by: ['alertname'],
        // Alertmanager's defaults for the real hour (30 s, 5 min, 4 h), shrunk with a test hour.
        group_wait: seconds(30),
        group_interval: seconds(300),
        repeat_interval: seconds(4 * 3600),
      },
      receivers: [receiver],
    },
    null,
    2,
  );
}
