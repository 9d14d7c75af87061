import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { launchChromium as launchBrowser } from '../../scripts/chromium';
import type { TestAccount } from '../../src-main/chain/devnet/testAccounts';
import { passphraseCipher } from '../../src-main/signer/localKey/keyCipher';
import type { ServiceOptions } from '../../src-main/startService';
import { startTradingFixture, type TradingFixture } from './tradingFixture';

const root = join(import.meta.dirname, '..', '..');
/** Screenshots of each screen, kept as test artifacts. */
export const ARTIFACTS = join(root, 'test-results');
export const WEB_ROOT = join(root, 'out/web');
export const APP_TOKEN = 'ui-test-token-000000000000000000';

/** Service options for a browser test: the built web UI, the app channel with a known token, a cheap keystore. */
export const webUiOptions: Partial<ServiceOptions> = {
  webRoot: WEB_ROOT,
  appToken: APP_TOKEN,
  keyCipher: passphraseCipher({ n: 2 ** 12, r: 8, p: 1 }),
  rateLimits: false,
  // The Settings screen's form saves here (one file per test process), never into the developer's own settings.
  settingsFile: join(tmpdir(), `companion-ui-settings-${process.pid}.json`),
  // Chosen as a flag would (--third-party-fetches off), so the first-run question does not cover the screens under
  // test; test/ui/logosChoice.ui.test.ts starts without it to drive that question.
  thirdPartyFetches: false,
};

/** Headless Chromium: Debian's, else the one from the npm registry (scripts/chromium.ts says which and why). */
export const launchChromium = (): Promise<Browser> => launchBrowser();

/** The window a page is opened in: its size, and the colour scheme the system asks for. */
export interface AppLook {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  /** The locale the browser names (navigator.language), as the system would set it. */
  locale?: string;
}

/** The window sizes a trader uses (a laptop, half a screen), each in both themes: what the UI is judged at. */
export const EVERY_LOOK = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
].flatMap((viewport) => (['light', 'dark'] as const).map((colorScheme) => ({ ...viewport, colorScheme })));

/**
 * Runs `act` on the open page at each of EVERY_LOOK, once the theme's colours have finished easing (they change over
 * 150 ms): a screenshot or an axe check taken at once caught buttons half way, in colours neither theme has.
 */
export async function inEveryLook(
  page: Page,
  act: (look: (typeof EVERY_LOOK)[number]) => Promise<unknown>,
): Promise<void> {
  for (const look of EVERY_LOOK) {
    await page.setViewportSize({ width: look.width, height: look.height });
    await page.emulateMedia({ colorScheme: look.colorScheme });
    await page.waitForTimeout(400);
    await act(look);
  }
}

/**
 * A page of the app opened with the run's token (as the address `npm start` prints), collecting console errors so a
 * test can expect none.
 */
export async function openApp(
  browser: Browser,
  origin: string,
  path = '/',
  look: AppLook = {},
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({
    viewport: look.viewport ?? { width: 1280, height: 900 },
    colorScheme: look.colorScheme ?? 'light',
    ...(look.locale ? { locale: look.locale } : {}),
  });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}${path}#app=${APP_TOKEN}`);
  return { page, errors };
}

/**
 * Imports `account`'s key through the Settings screen, as a person would. The first import starts the key worker, a
 * process of its own (run through tsx in tests, a second or two on a busy machine): the badge gets time to follow.
 */
export async function importLocalKey(page: Page, origin: string, account: TestAccount): Promise<void> {
  await page.goto(`${origin}/settings`);
  await page.getByTestId('import-private-key').fill(account.privateKey);
  await page.getByTestId('import-passphrase').fill('correct horse battery');
  await page.getByTestId('import-submit').click();
  await expect
    .poll(() => page.getByTestId('signer-badge').textContent(), { timeout: 15_000, interval: 100 })
    .toContain(account.address.slice(0, 6));
}

/**
 * Approves what the review screen shows, after checking that nothing blocks it, ticking its warnings (unlimited
 * approvals, a bot's referrer) as a person who read them would.
 */
export async function approveReview(page: Page): Promise<void> {
  const review = page.getByTestId('review');
  await review.waitFor();
  const id = await review.getAttribute('data-review-id');
  expect(await page.getByTestId('review-blocked').count()).toBe(0);
  for (const tick of await review.locator('[data-testid^="tick-"]').all()) await tick.check();
  await page.getByTestId('review-sign').click();
  // The next review (an action's next step) may follow at once in the same dialog: wait for this one to go.
  await page.locator(`[data-testid="review"][data-review-id="${id}"]`).waitFor({ state: 'detached' });
}

/** Approves every review the action asks for (approval steps, then the trade) until its progress settles. */
export async function approveUntilSettled(page: Page): Promise<string | null> {
  const progress = page.getByTestId('progress');
  for (let i = 0; i < 6; i++) {
    await expect
      .poll(
        async () =>
          (await page.getByTestId('review').count()) > 0 ||
          ['done', 'failed', 'rejected'].includes((await progress.getAttribute('data-stage')) ?? ''),
        { timeout: 30_000, interval: 100 },
      )
      .toBe(true);
    if ((await page.getByTestId('review').count()) === 0) break;
    await approveReview(page);
  }
  return progress.getAttribute('data-stage');
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/**
 * What a browser test of trading starts from: the trading fixture serving the built web UI, its index caught up with
 * the chain, and a browser. Stop it with stopTradingUi.
 */
export async function startTradingUi(): Promise<{ f: TradingFixture; browser: Browser }> {
  const f = await startTradingFixture(webUiOptions);
  const browser = await launchChromium();
  await f.service.indexer.waitFor(await f.client.getBlockNumber({ cacheTime: 0 }));
  return { f, browser };
}

/** Closes what startTradingUi opened (either may be missing when the start failed). */
export async function stopTradingUi(ui: { f?: TradingFixture; browser?: Browser }): Promise<void> {
  await ui.browser?.close();
  await ui.f?.service.dispose();
}
