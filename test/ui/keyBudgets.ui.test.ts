import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { DEFAULT_RATE_LIMITS } from '../../src-main/http/createApp';
import { describeViolations, seriousViolations, type Violation } from '../support/accessibility';
import { startTestService, type TestService } from '../support/startTestService';
import {
  ARTIFACTS,
  approveReview,
  importLocalKey,
  inEveryLook,
  launchChromium,
  openApp,
  webUiOptions,
} from '../support/webUi';

/**
 * The API keys page as the app's owner uses it to give a bot a budget of its own: made with the key, shown when it is
 * made and in the list, and spent by the key at the service. Screenshots at both window sizes, light and dark, in
 * test-results/screens/keys-budget-<width>-<theme>.png.
 */
const ME = testAccounts()[11] as TestAccount;
const WAIT = { timeout: 15_000, interval: 100 };
/** Listing the keys before this browser signs in is answered 401, which is how the page learns to offer it. */
const SIGN_IN_PROMPT = 'Failed to load resource: the server responded with a status of 401 (Unauthorized)';

let service: TestService;
let browser: Browser;

beforeAll(async () => {
  // The spec's limits on, as a person runs the app: a budget only means something with them.
  service = await startTestService(undefined, { ...webUiOptions, rateLimits: DEFAULT_RATE_LIMITS });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.dispose();
});

const testId = (page: Page, id: string) => page.getByTestId(id);

/** Makes a key through the form: the label, the budget when given, and the signature on the review screen. */
async function createKey(page: Page, label: string, budget?: { quotes: string; builds: string }): Promise<string> {
  await testId(page, 'key-label').fill(label);
  if (budget) {
    await testId(page, 'key-budget-on').check();
    await testId(page, 'key-budget-quotes').fill(budget.quotes);
    await testId(page, 'key-budget-builds').fill(budget.builds);
  } else {
    await testId(page, 'key-budget-on').uncheck();
  }
  await testId(page, 'key-create').click();
  await approveReview(page);
  await testId(page, 'key-created').waitFor();
  return (await testId(page, 'key-created-value').textContent()) ?? '';
}

it("gives a key a budget of its own in the app: shown when made and in the list, and spent by the key's requests", async () => {
  const { page, errors } = await openApp(browser, service.origin, '/', { viewport: { width: 1440, height: 900 } });
  try {
    await importLocalKey(page, service.origin, ME);
    await testId(page, 'nav-keys').click();
    await expect.poll(() => testId(page, 'keys-list').getAttribute('data-state'), WAIT).toBe('signed-out');

    // A budget that is not a whole number of 1 or more is caught before any signature is asked for.
    await testId(page, 'key-label').fill('sniper');
    await testId(page, 'key-budget-on').check();
    await testId(page, 'key-budget-quotes').fill('0');
    await testId(page, 'key-budget-quotes-error').waitFor();
    expect(await testId(page, 'key-create').isDisabled()).toBe(true);
    await testId(page, 'key-budget-quotes').fill('1.5');
    expect(await testId(page, 'key-create').isDisabled()).toBe(true);

    const plainKey = await createKey(page, 'watcher');
    expect(await testId(page, 'key-created-budget').count()).toBe(0);
    await testId(page, 'key-created-done').click();
    const sniperKey = await createKey(page, 'sniper', { quotes: '900', builds: '90' });
    expect(await testId(page, 'key-created-budget').textContent()).toBe(
      'Its own budget: 900 quotes and 90 builds a minute.',
    );

    // The service counts the sniper's quotes against its own 900, and the watcher's against the address's 120.
    const quoteWith = (key: string) =>
      fetch(`${service.url}/quote?token=0x00000000000000000000000000000000c0ffee01&side=buy&amount=1`, {
        headers: { 'x-api-key': key },
      });
    const sniperQuote = await quoteWith(sniperKey);
    expect(sniperQuote.status).toBe(400);
    expect(sniperQuote.headers.get('ratelimit-policy')).toMatch(/^"quotes";q=900;w=60;pk=:[A-Za-z0-9+/=]+:$/);
    expect(sniperQuote.headers.get('ratelimit')).toMatch(/^"quotes";r=899;t=\d+$/);
    const watcherQuote = await quoteWith(plainKey);
    expect(watcherQuote.headers.get('ratelimit-policy')).toBe(`"quotes";q=${DEFAULT_RATE_LIMITS.quotesPerMinute};w=60`);

    await testId(page, 'keys-sign-in').click();
    await approveReview(page);
    await expect.poll(() => testId(page, 'keys-list').getAttribute('data-state'), WAIT).toBe('ready');
    const rows = page.getByTestId('key-row');
    await expect.poll(() => rows.count(), WAIT).toBe(2);
    const sniperRow = rows.filter({ has: page.getByText('sniper', { exact: true }) });
    expect(await sniperRow.getByTestId('key-row-budget').getAttribute('data-budget')).toBe('own');
    expect(await sniperRow.getByTestId('key-row-budget-quotes').getAttribute('data-value')).toBe('900');
    expect(await sniperRow.getByTestId('key-row-budget-builds').getAttribute('data-value')).toBe('90');
    const watcherRow = rows.filter({ has: page.getByText('watcher', { exact: true }) });
    expect(await watcherRow.getByTestId('key-row-budget').getAttribute('data-budget')).toBe('address');
    expect(await watcherRow.getByTestId('key-row-budget').textContent()).toBe('address limits');

    // The page as the owner sees it now: the new key, the form with its budget open, and both keys listed.
    await testId(page, 'key-label').fill('next bot');
    await testId(page, 'key-budget-on').check();
    mkdirSync(join(ARTIFACTS, 'screens'), { recursive: true });
    const found: Violation[] = [];
    await inEveryLook(page, async ({ width, colorScheme }) => {
      await page.screenshot({
        path: join(ARTIFACTS, 'screens', `keys-budget-${width}-${colorScheme}.png`),
        fullPage: true,
      });
      for (const violation of await seriousViolations(page)) {
        found.push({ ...violation, where: [`${colorScheme} ${width}`] });
      }
    });
    expect(found, describeViolations(found)).toEqual([]);
    expect(errors.filter((error) => error !== SIGN_IN_PROMPT)).toEqual([]);
  } finally {
    await page.close();
  }
});
