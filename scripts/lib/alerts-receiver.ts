/**
 * Where the receiver `plat-alerts` delivers (docs/monitoring.md#delivery): always the gateway's
 * webhook; then either the SNS topic `plat-alerts` (PLAT_ALERTS_SNS, ALERT_EMAIL subscribed to it) or
 * e-mail to ALERT_EMAIL through SMTP. Secrets go to files the caller writes, never into the
 * configuration text.
 */
import { ensureAlertsTopic } from '../../domain/monitoring/sns-alerts-topic';
import type { PlatConfig } from '../../shared/config';
import type { AlertmanagerSettings } from './monitoring-config';

export interface ReceiverPlan {
  receiver: Omit<AlertmanagerSettings, 'periods'>;
  /** One line for people: where alarms go. */
  summary: string;
}

export async function alertsReceiver(
  config: PlatConfig,
  opts: {
    webhookUrl: string;
    /** Writes a secret to a file the engines can read and answers its path as they see it. */
    secretFile: (name: string, value: string) => string;
  },
): Promise<ReceiverPlan> {
  const webhook = {
    webhookUrl: opts.webhookUrl,
    webhookTokenFile: opts.secretFile('alerts-webhook.token', config.PLAT_ALERTS_WEBHOOK_TOKEN ?? ''),
  };
  if (config.PLAT_ALERTS_SNS) {
    if (!config.AWS_REGION) throw new Error('PLAT_ALERTS_SNS=true needs AWS_REGION');
    const topic = await ensureAlertsTopic({
      region: config.AWS_REGION,
      endpoint: config.AWS_ENDPOINT_URL,
      email: config.ALERT_EMAIL,
    });
    const mail =
      topic.email === 'none'
        ? 'no e-mail subscription (set ALERT_EMAIL)'
        : `${config.ALERT_EMAIL} ${topic.email === 'subscribed' ? 'subscribed (AWS mails a confirmation first)' : 'subscribed'}`;
    return {
      receiver: {
        ...webhook,
        sns: { topicArn: topic.topicArn, region: config.AWS_REGION, endpoint: config.AWS_ENDPOINT_URL },
      },
      summary: `${opts.webhookUrl}, SNS ${topic.topicArn}: ${mail}`,
    };
  }
  if (!config.ALERT_EMAIL) {
    return { receiver: webhook, summary: `${opts.webhookUrl}, no e-mail (set ALERT_EMAIL)` };
  }
  return {
    receiver: {
      ...webhook,
      email: {
        to: config.ALERT_EMAIL,
        from: config.SMTP_FROM,
        smarthost: config.SMTP_SMARTHOST,
        username: config.SMTP_USERNAME,
        passwordFile: config.SMTP_PASSWORD
          ? opts.secretFile('smtp-password', config.SMTP_PASSWORD)
          : undefined,
        requireTls: config.SMTP_REQUIRE_TLS,
      },
    },
    summary: `${opts.webhookUrl}, e-mail to ${config.ALERT_EMAIL} via ${config.SMTP_SMARTHOST}`,
  };
}
