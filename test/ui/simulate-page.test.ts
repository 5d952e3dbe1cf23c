/// <reference lib="dom" />
/**
 * The policy simulator page in Debian's Chromium (docs/search-lifecycle.md#simulating-a-policy):
 * reached from the top bar, it simulates a built-in policy without any OpenSearch cluster and draws
 * the bytes per tier and the timeline; a pasted policy's problems are listed.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Browser } from 'playwright-core';
import { apiCaller } from '../harness/api-caller';
import { startTestGateway, type TestGateway } from '../harness/platform-gateway';
import { devServerEnv } from '../harness/temporal-envs';
import {
  horizontalOverflow,
  launchChromium,
  newPage,
  screenshotPath,
  screenshots,
  screenshotsWanted,
  seriousA11yViolations,
  signIn,
} from '../harness/ui-session';

const USER = { username: 'capacity', password: 'plans-before-deploying' };

describe('policy simulator page', () => {
  let env: TestWorkflowEnvironment;
  let gateway: TestGateway;
  let browser: Browser;

  beforeAll(async () => {
    env = await devServerEnv();
    // No OpenSearch: built-in and pasted policies need none.
    gateway = await startTestGateway({ client: env.client, taskQueue: 'simulate-page-ui-test' });
    browser = await launchChromium();
    await apiCaller(gateway.base)('POST', '/auth/signup', USER);
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    await env?.teardown();
  });

  it('simulates a built-in policy and draws its tiers and timeline; lists a pasted policy’s problems', async () => {
    const { context, page, errors } = await newPage(browser);
    try {
      await signIn(page, gateway.base, USER.username, USER.password);
      await Promise.all([
        page.waitForURL(/\/ui\/simulate/),
        page.click('.topbar nav >> text=Policy simulator'),
      ]);
      await page.selectOption('#policy-choice', 'selfManagedTieredPolicy');
      await page.fill('input[name=days]', '100');
      await page.click('#sim-submit');
      await page.waitForSelector('#result:not([hidden])');
      expect(await page.textContent('#headline')).toMatch(/^selfManagedTieredPolicy on logs-\* for 100 days/);
      expect(await page.textContent('#summary')).toMatch(/First deletion\s*day 90 00:00 \(logs-000001\)/);
      // One stacked area per tier an index sits in.
      await page.waitForSelector('#chart svg');
      expect(await page.textContent('#chart')).toContain('warm');
      expect(await page.$$eval('#timeline tbody tr', (rows) => rows.length)).toBeGreaterThan(100);
      expect(await page.textContent('#timeline tbody tr:first-child')).toMatch(
        /day 0 00:00\s*logs-000001\s*created/,
      );
      await screenshots(page, 'simulate');
      if (screenshotsWanted())
        await page.locator('#result').screenshot({ path: screenshotPath('simulate-result.png') });
      expect(await horizontalOverflow(page)).toEqual([]);
      expect(await seriousA11yViolations(page)).toEqual([]);

      await page.selectOption('#policy-choice', 'pasted');
      await page.fill(
        'textarea[name=policy]',
        '{"default_state": "hot", "states": [{"name": "hot", "transitions": [{"state_name": "gone"}]}]}',
      );
      await page.click('#sim-submit');
      await page.waitForSelector('#sim-error:not([hidden])');
      expect(await page.textContent('#sim-error')).toMatch(
        /states\.0\.transitions\.0\.state_name: state hot moves to gone/,
      );
    } finally {
      await context.close();
    }
    expect(errors).toEqual([]);
  });
});
