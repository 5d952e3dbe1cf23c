/// <reference lib="dom" />
/**
 * Browser helpers of the UI tests: Debian's Chromium driven by playwright-core, a signed-in page, and
 * screenshots under `.data/ui-screenshots/` when PLAT_UI_SCREENSHOTS=1 (look at them before calling a
 * page done).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { PageFunction } from 'playwright-core/types/structs';
import { repoRoot } from '../../shared/paths';
import { chromiumPath } from './browser';

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

/** Resizes the page and gives it time to lay out again (charts resize on a ResizeObserver). */
async function resize(page: Page, viewport: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(viewport);
  await page.waitForTimeout(300);
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
}

/**
 * A fresh browser context (own localStorage) at desktop size; `errors` collects the page's uncaught
 * script errors, which a test expects to stay empty.
 */
export async function newPage(
  browser: Browser,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`${page.url()}: ${err.message}`));
  return { context, page, errors };
}

/** Signs in through the sign-in page; the browser returns to `next`. */
export async function signIn(page: Page, base: string, username: string, password: string, next = '/') {
  await page.goto(`${base}/ui/signin?next=${encodeURIComponent(next)}`);
  await page.fill('#plat-login input[name=username]', username);
  await page.fill('#plat-login input[name=password]', password);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/ui/signin')), page.click('#submit')]);
}

/**
 * Replaces the whole text of `selector` as a user pasting it would: through the clipboard, then Ctrl+V
 * over the selected text. page.fill types a multi-line text through Chromium's editing one line at a
 * time (two input events a line, each over the whole value, so time grows with the square of the
 * lines): a 2,700-line PRD took 12 s on an idle machine and passed the 30 s action timeout under
 * `npm test` on 2 cores. A paste is a single edit (well under a second).
 */
export async function pasteText(page: Page, selector: string, text: string): Promise<void> {
  await page.context().grantPermissions(['clipboard-write'], { origin: new URL(page.url()).origin });
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.locator(selector).selectText();
  await page.keyboard.press('Control+V');
  // A disabled or read-only field takes no paste: fail here, not at a later step.
  const value = await page.inputValue(selector);
  if (value !== text)
    throw new Error(`pasting into ${selector} left ${value.length} characters, not ${text.length}`);
}

/** Whether this run saves screenshots: asked for with PLAT_UI_SCREENSHOTS=1 (docs/web-ui.md#accessibility-and-screens). */
export const screenshotsWanted = (): boolean => process.env.PLAT_UI_SCREENSHOTS === '1';

/** Where a screenshot named `name` goes. */
export const screenshotPath = (name: string): string => path.join(repoRoot, '.data', 'ui-screenshots', name);

/**
 * Saves what the screen shows and the whole page, at desktop and at phone width, when the run asks
 * for screenshots. They are for people to look at, nothing asserts on them, and the PNGs cost a
 * UI suite a sixth of its CPU (measured on 2 cores: 11 of 71 s in project-pages.test.ts).
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  if (!screenshotsWanted()) return;
  const dir = path.dirname(screenshotPath(name));
  fs.mkdirSync(dir, { recursive: true });
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await resize(page, viewport);
    await page.screenshot({ path: path.join(dir, `${name}-${size}.png`) });
    await page.screenshot({ path: path.join(dir, `${name}-${size}-full.png`), fullPage: true });
  }
  await resize(page, DESKTOP);
}

/**
 * Waits until `predicate(arg)` holds in the page, looking every 100 ms. page.waitForFunction looks on
 * every animation frame by default, which keeps the renderer drawing 60 frames a second for as long
 * as a project runs (measured: 3 s of Chromium's CPU in the project pages' suite).
 */
export async function waitInPage<A>(
  page: Page,
  predicate: PageFunction<A, unknown>,
  arg?: A,
  timeout?: number,
): Promise<void> {
  await page.waitForFunction(predicate, arg as A, { polling: 100, timeout });
}

/**
 * What sticks out sideways on a phone: the outermost elements wider than the screen, as
 * `tag#id.class (+N px)`; empty when nothing makes the page scroll sideways.
 */
export async function horizontalOverflow(page: Page): Promise<string[]> {
  await resize(page, PHONE);
  const culprits = await page.evaluate(() => {
    const limit = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= limit) return [];
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      const right = el.getBoundingClientRect().right;
      const parent = el.parentElement!.getBoundingClientRect().right;
      if (right > limit + 1 && parent <= limit + 1) {
        const name = `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.classList.length ? '.' + Array.from(el.classList).join('.') : ''}`;
        out.push(`${name} (+${Math.round(right - limit)} px)`);
      }
    }
    return out.slice(0, 5);
  });
  await resize(page, DESKTOP);
  return culprits;
}

/**
 * axe-core's serious and critical accessibility violations on the page as it is now, each as
 * `rule: first offending element`; a test expects none.
 */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    // Violations only: axe then keeps one node of each other result (its documented way to run faster).
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')} (${v.help})`);
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}
