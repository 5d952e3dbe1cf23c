/**
 * The `plat-alerts` SNS topic on a local AWS (moto's server mode): plat creates the topic and
 * subscribes ALERT_EMAIL once, and Debian's Alertmanager, configured by plat, publishes an alarm to it
 * over the real SNS API. An SQS queue subscribed by the test sees what the topic delivered.
 */
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { ListSubscriptionsByTopicCommand, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { periodsForHour } from '../../../domain/monitoring/alert-rules';
import { ALERTS_TOPIC, ensureAlertsTopic } from '../../../domain/monitoring/sns-alerts-topic';
import { spawnService, waitUntil, type ChildService } from '../../../scripts/lib/child-service';
import { freePort } from '../../../shared/free-port';
import { alertmanagerConfig } from '../../../scripts/lib/monitoring-config';
import { monitoringProgram } from '../../../scripts/lib/tool-paths';
import { startTestMoto, type TestMoto } from '../../harness/moto';

describe('the plat-alerts SNS topic (moto)', () => {
  let moto: TestMoto;
  let alertmanager: ChildService | undefined;
  let dir: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    moto = await startTestMoto();
    // The SDK's and Alertmanager's default credential chains read these.
    process.env.AWS_ACCESS_KEY_ID = moto.credentials.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = moto.credentials.secretAccessKey;
    process.env.AWS_REGION = moto.region;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-sns-alerts-'));
  });
  afterAll(async () => {
    await alertmanager?.stop();
    await moto?.stop();
    process.env = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates the topic with the e-mail subscription once', async () => {
    const settings = { region: moto.region, endpoint: moto.url, email: 'Ops@Example.com' };
    const first = await ensureAlertsTopic(settings);
    expect(first).toEqual({ topicArn: expect.stringMatching(/:plat-alerts$/), email: 'subscribed' });
    expect(await ensureAlertsTopic({ ...settings, email: 'ops@example.com' })).toEqual({
      topicArn: first.topicArn,
      email: 'already subscribed',
    });
    const sns = new SNSClient({ region: moto.region, endpoint: moto.url });
    const subs = await sns.send(new ListSubscriptionsByTopicCommand({ TopicArn: first.topicArn }));
    expect(subs.Subscriptions?.map((s) => [s.Protocol, s.Endpoint])).toEqual([['email', 'Ops@Example.com']]);
    sns.destroy();
  });

  it("carries Alertmanager's notification to the topic's subscribers", async () => {
    const { topicArn } = await ensureAlertsTopic({ region: moto.region, endpoint: moto.url });
    expect(topicArn).toMatch(new RegExp(`:${ALERTS_TOPIC}$`));
    // The test's own subscriber: a queue that keeps what the topic delivers.
    const sqs = new SQSClient({ region: moto.region, endpoint: moto.url });
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'plat-alerts-observer' }));
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }),
    );
    const sns = new SNSClient({ region: moto.region, endpoint: moto.url });
    await sns.send(
      new SubscribeCommand({ TopicArn: topicArn, Protocol: 'sqs', Endpoint: Attributes!.QueueArn }),
    );
    sns.destroy();

    const port = await freePort();
    const tokenFile = path.join(dir, 'token');
    fs.writeFileSync(tokenFile, 'unused-webhook-token-of-this-test');
    const config = path.join(dir, 'alertmanager.yml');
    fs.writeFileSync(
      config,
      alertmanagerConfig({
        // No gateway here: the webhook fails and is retried, the SNS integration is independent.
        webhookUrl: 'http://127.0.0.1:9/v1/alerts',
        webhookTokenFile: tokenFile,
        sns: { topicArn, region: moto.region, endpoint: moto.url },
        periods: periodsForHour(60),
      }),
    );
    alertmanager = spawnService(
      'alertmanager',
      monitoringProgram('alertmanager'),
      [
        `--config.file=${config}`,
        `--storage.path=${path.join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--cluster.listen-address=',
      ],
      path.join(dir, 'alertmanager.log'),
    );
    const am = `http://127.0.0.1:${port}`;
    await waitUntil('Alertmanager', async () => (await fetch(`${am}/-/ready`)).ok, {
      timeoutMs: 30_000,
      service: alertmanager,
    });
    // What Prometheus sends when an alarm fires (Alertmanager's API v2).
    const posted = await fetch(`${am}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        {
          labels: { alertname: 'plat-ProjectFailureRate', severity: 'warning', topic: 'plat-alerts' },
          annotations: { summary: 'projects that failed > 5 over 1 hour (now 6)' },
          startsAt: new Date().toISOString(),
        },
      ]),
    });
    expect(posted.status).toBe(200);

    const delivered: string[] = [];
    for (let i = 0; i < 60 && !delivered.some((b) => b.includes('plat-ProjectFailureRate')); i++) {
      const got = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 1, MaxNumberOfMessages: 10 }),
      );
      delivered.push(...(got.Messages ?? []).map((m) => m.Body ?? ''));
    }
    sqs.destroy();
    expect(delivered).toHaveLength(1);
    const envelope = JSON.parse(delivered[0]) as { TopicArn: string; Subject: string; Message: string };
    expect(envelope.TopicArn).toBe(topicArn);
    expect(envelope.Subject).toBe('[FIRING] plat-ProjectFailureRate');
    expect(envelope.Message).toContain('now 6');
  });
});
