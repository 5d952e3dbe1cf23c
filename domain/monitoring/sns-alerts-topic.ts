/**
 * The `plat-alerts` topic on AWS (docs/monitoring.md#delivery): the SNS topic Alertmanager publishes
 * every alarm to, with ALERT_EMAIL subscribed. Idempotent: an existing topic and subscription are
 * kept; AWS sends the address a confirmation mail before it receives alarms.
 */
import {
  CreateTopicCommand,
  ListSubscriptionsByTopicCommand,
  SNSClient,
  SubscribeCommand,
  type Subscription,
} from '@aws-sdk/client-sns';

export const ALERTS_TOPIC = 'plat-alerts';

export interface AlertsTopicSettings {
  region: string;
  /** A local AWS (moto, LocalStack) instead of SNS itself. */
  endpoint?: string;
  /** The address subscribed to the topic (ALERT_EMAIL). */
  email?: string;
}

export interface AlertsTopic {
  topicArn: string;
  /** What became of the e-mail subscription. */
  email: 'none' | 'subscribed' | 'already subscribed';
}

export async function ensureAlertsTopic(settings: AlertsTopicSettings): Promise<AlertsTopic> {
  const sns = new SNSClient({ region: settings.region, endpoint: settings.endpoint });
  try {
    // CreateTopic answers the existing topic's ARN when it is there already.
    const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: ALERTS_TOPIC }));
    if (!TopicArn) throw new Error(`SNS answered no ARN for topic ${ALERTS_TOPIC}`);
    if (!settings.email) return { topicArn: TopicArn, email: 'none' };
    const subscriptions: Subscription[] = [];
    let next: string | undefined;
    do {
      const page = await sns.send(new ListSubscriptionsByTopicCommand({ TopicArn, NextToken: next }));
      subscriptions.push(...(page.Subscriptions ?? []));
      next = page.NextToken;
    } while (next);
    const wanted = settings.email.toLowerCase();
    if (subscriptions.some((s) => s.Protocol === 'email' && s.Endpoint?.toLowerCase() === wanted)) {
      return { topicArn: TopicArn, email: 'already subscribed' };
    }
    await sns.send(new SubscribeCommand({ TopicArn, Protocol: 'email', Endpoint: settings.email }));
    return { topicArn: TopicArn, email: 'subscribed' };
  } finally {
    sns.destroy();
  }
}
