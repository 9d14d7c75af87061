import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradingFixture } from '../support/tradingFixture';
import { openApp, startTradingUi, stopTradingUi } from '../support/webUi';

/**
 * A browser that names a locale `Intl` refuses: the Chromium of `@sparticuz/chromium` reports a fresh Debian
 * machine's `LANG=C.UTF-8` as `en-US@posix`, and `new Intl.NumberFormat('en-US@posix')` throws. Every page that
 * formats numbers, dates or draws the price chart must still render, in the app's fallback locale.
 */
const WAIT = { timeout: 15_000, interval: 100 };
const POSIX = 'en-US@posix';

let f: TradingFixture;
let browser: Browser;

beforeAll(async () => {
  ({ f, browser } = await startTradingUi());
});
afterAll(() => stopTradingUi({ f, browser }));

describe(`a browser whose locale is ${POSIX}`, () => {
  it('names the refused tag, as the fallback Chromium does on a fresh machine', async () => {
    const { page } = await openApp(browser, f.service.origin, '/', { locale: POSIX });
    expect(await page.evaluate(() => navigator.language)).toBe(POSIX);
    const refused = await page.evaluate((tag) => {
      try {
        new Intl.NumberFormat(tag);
        return false;
      } catch {
        return true;
      }
    }, POSIX);
    expect(refused).toBe(true);
    await page.close();
  });

  it('renders the token page with its price chart, the launches, Activity and Referrals without an error', async () => {
    const token = await openApp(browser, f.service.origin, `/token/${f.bnbToken.token}`, { locale: POSIX });
    await expect.poll(() => token.page.getByTestId('price-chart').getAttribute('data-points'), WAIT).not.toBe('0');
    await token.page.getByTestId('price-chart-last').waitFor(WAIT);
    // Dates and amounts read as the fallback locale writes them.
    expect(await token.page.getByTestId('price-chart-last').textContent()).toMatch(/\d/);
    expect(token.errors).toEqual([]);
    await token.page.close();

    for (const path of ['/', '/activity', '/referrals', '/keys', '/requests']) {
      const { page, errors } = await openApp(browser, f.service.origin, path, { locale: POSIX });
      await page.waitForLoadState('networkidle');
      await expect.poll(() => page.locator('main').textContent(), WAIT).not.toBe('');
      expect(errors, path).toEqual([]);
      await page.close();
    }
  });
});
