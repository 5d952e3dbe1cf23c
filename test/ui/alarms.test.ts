/// <reference lib="dom" />
/**
 * The alarms on the web pages, in Debian's Chromium: what Alertmanager's webhook reported (its
 * version-4 payload, as test/e2e/alarms.test.ts has the real Alertmanager send it) shows as a pill on
 * every page, a line on the project list, and the alarms page with each alarm's history, for an
 * operator; a tenant is told the page is an operator's.
 */
import { ALARMS } from '../../domain/monitoring/alarm-catalog';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Browser } from 'playwright-core';
import { apiCaller } from '../harness/api-caller';
import { startTestGateway, type TestGateway } from '../harness/platform-gateway';
import { devServerEnv } from '../harness/temporal-envs';
import {
  horizontalOverflow,
  launchChromium,
  newPage,
  screenshots,
  seriousA11yViolations,
  signIn,
} from '../harness/ui-session';

const WEBHOOK_TOKEN = 'ui-test-alert-webhook-token-0123456789';
const USER = { username: 'oncall', password: 'alarms-in-a-browser' };

/** An Alertmanager webhook body (version 4) for one alert of `alertname`. */
function notification(status: 'firing' | 'resolved', alertname: string, summary: string) {
  const startsAt = '2026-11-24T10:00:00.000Z';
  const alert = {
    status,
    labels: { alertname, severity: 'warning', topic: 'plat-alerts' },
    annotations: { summary, hint: 'look at the worker' },
    startsAt,
    endsAt: status === 'resolved' ? '2026-11-24T10:20:00.000Z' : '0001-01-01T00:00:00Z',
    generatorURL: 'http://127.0.0.1:9090/graph',
    fingerprint: `fp-${alertname}`,
  };
  return {
    version: '4',
    groupKey: `{}:{alertname="${alertname}"}`,
    truncatedAlerts: 0,
    status,
    receiver: 'plat-alerts',
    groupLabels: { alertname },
    commonLabels: alert.labels,
    commonAnnotations: alert.annotations,
    externalURL: 'http://127.0.0.1:9093',
    alerts: [alert],
  };
}

describe('alarm pages', () => {
  let env: TestWorkflowEnvironment;
  let gateway: TestGateway;
  let browser: Browser;
  const call = apiCaller(() => gateway.base);
  const deliver = (body: unknown) =>
    fetch(`${gateway.base}/v1/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${WEBHOOK_TOKEN}` },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    env = await devServerEnv();
    gateway = await startTestGateway({
      client: env.client,
      taskQueue: 'alarm-pages-ui-test',
      alertsWebhookToken: WEBHOOK_TOKEN,
      alarmHour: '60s',
    });
    browser = await launchChromium();
    await call('POST', '/auth/signup', USER);
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    await env?.teardown();
  });

  it('refuses webhook calls without its token, and stores a repeated notification once', async () => {
    const body = notification('firing', 'plat-LambdaErrors', 'failed attempts > 10 over 1 hour (now 12)');
    const wrong = await fetch(`${gateway.base}/v1/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer not-it' },
      body: JSON.stringify(body),
    });
    expect(wrong.status).toBe(401);
    expect(await (await deliver(body)).json()).toEqual({ received: 1, recorded: 1 });
    // Alertmanager repeats a firing alert until it resolves: the repeat is not a new firing.
    expect(await (await deliver(body)).json()).toEqual({ received: 1, recorded: 0 });
    const bad = await deliver({ version: '4', status: 'firing', alerts: [{ labels: {} }] });
    expect(bad.status).toBe(400);
  });

  it('shows a firing alarm on every page and its history on the alarms page', async () => {
    const { context, page, errors } = await newPage(browser);
    try {
      await signIn(page, gateway.base, USER.username, USER.password);
      await page.waitForSelector('#alarm-pill');
      expect(await page.textContent('#alarm-pill')).toBe('1 alarm firing');
      await page.waitForSelector('#alarms-line .bad');
      expect(await page.textContent('#alarms-line')).toContain('plat-LambdaErrors');

      await Promise.all([page.waitForURL(/\/ui\/alarms/), page.click('#alarm-pill')]);
      await page.waitForSelector('#alarm-plat-LambdaErrors .badge.s-firing');
      expect(await page.textContent('#headline')).toBe(`1 of ${ALARMS.length} alarms firing`);
      expect(await page.$$eval('#alarms tbody tr', (rows) => rows.length)).toBe(ALARMS.length);
      // A shortened alarm hour shows in the conditions: what Prometheus really evaluates.
      expect(await page.textContent('#alarm-plat-ProjectFailureRate')).toContain('> 5 over 1m');
      await page.click('#alarm-plat-LambdaErrors button');
      await page.waitForSelector('#history-section:not([hidden])');
      expect(await page.textContent('#history tbody')).toContain('(now 12)');
      await screenshots(page, 'alarms-firing');
      expect(await horizontalOverflow(page)).toEqual([]);
      expect(await seriousA11yViolations(page)).toEqual([]);

      // Resolved: the pill goes, the history keeps both.
      await deliver(
        notification('resolved', 'plat-LambdaErrors', 'failed attempts > 10 over 1 hour (now 12)'),
      );
      await page.reload();
      await page.waitForSelector('#alarm-plat-LambdaErrors .badge.s-ok');
      expect(await page.textContent('#headline')).toBe(`All ${ALARMS.length} alarms ok`);
      await page.waitForSelector('#history tbody tr:nth-child(2)');
      expect(await page.$$eval('#history tbody tr .badge', (b) => b.map((e) => e.textContent))).toEqual([
        'resolved',
        'firing',
      ]);
      expect(await page.isVisible('#alarm-pill')).toBe(false);
    } finally {
      await context.close();
    }
    expect(errors).toEqual([]);
  });

  it("tells a tenant the alarms are an operator's, and does not offer them", async () => {
    const tenant = { username: 'tenant', password: 'no-alarms-for-me' };
    expect((await call('POST', '/auth/signup', tenant)).status).toBe(201);
    const { context, page, errors } = await newPage(browser);
    try {
      await signIn(page, gateway.base, tenant.username, tenant.password);
      await page.waitForSelector('#sign-out');
      expect(await page.$$eval('nav[aria-label=main] a', (a) => a.map((e) => e.textContent))).toEqual([
        'Projects',
      ]);
      await page.goto(`${gateway.base}/ui/alarms`);
      await page.waitForSelector('.error-box[role=alert]');
      expect(await page.textContent('.error-box[role=alert]')).toMatch(
        /needs the operator role.*plat users grant/,
      );
    } finally {
      await context.close();
    }
    expect(errors).toEqual([]);
  });
});
