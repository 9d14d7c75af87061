import type { Browser, Page } from 'playwright-core';
import { type Address, http, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { launcher } from '../support/launcher';
import type { TradingFixture } from '../support/tradingFixture';
import {
  approveUntilSettled,
  importLocalKey,
  openApp,
  screenshot,
  startTradingUi,
  stopTradingUi,
} from '../support/webUi';

/** The signer the page trades with: a test account nothing else uses. */
const TRADER = testAccounts()[8] as TestAccount;
const WAIT = { timeout: 15_000, interval: 100 };

let f: TradingFixture;
let browser: Browser;

beforeAll(async () => {
  ({ f, browser } = await startTradingUi());
});
afterAll(() => stopTradingUi({ f, browser }));

let imported = false;

/** The signer lives in main: imported once (through Settings, inside a test), it signs for every page of the run. */
async function signerImported(): Promise<void> {
  if (imported) return;
  const { page } = await openApp(browser, f.service.origin, '/settings');
  await importLocalKey(page, f.service.origin, TRADER);
  expect(await page.getByTestId('local-key-state').textContent()).toBe('unlocked');
  await page.getByTestId('app-network').waitFor();
  await screenshot(page, 'settings-signer');
  await page.close();
  imported = true;
}

/** The app opened directly at `path` (as a referral link would), with the signer's badge up. */
async function openAt(path: string): Promise<{ page: Page; errors: string[] }> {
  await signerImported();
  const opened = await openApp(browser, f.service.origin, path);
  await expect
    .poll(() => opened.page.getByTestId('signer-badge').textContent(), WAIT)
    .toContain(TRADER.address.slice(0, 6));
  return opened;
}

const rowTokens = (page: Page) =>
  page.getByTestId('launch-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-token')));

const dataWei = async (page: Page, testId: string) =>
  BigInt((await page.getByTestId(testId).getAttribute('data-wei')) ?? '-1');

describe('launches list', () => {
  it('lists the launches newest first with their market caps, adds new ones live, and links to the token', async () => {
    const { page, errors } = await openApp(browser, f.service.origin, '/');
    await expect.poll(() => rowTokens(page), WAIT).toEqual([f.usdtToken.token, f.bnbToken.token]);
    const caps = page.getByTestId('launch-cap');
    await expect
      .poll(() => caps.evaluateAll((cells) => cells.map((c) => c.getAttribute('data-ready'))), WAIT)
      .toEqual(['yes', 'yes']);

    // A launch made while the page is open appears on top by polling, once.
    const transport = http(`${f.service.origin}/rpc`);
    const l = launcher(
      {
        accounts: testAccounts(),
        contracts: { factory: f.contracts.factory as Address, wbnb: f.contracts.wbnb as Address },
        transport,
      },
      f.client,
    );
    const launched = await l.launch({
      pair: f.contracts.wbnb as Address,
      creator: 5,
      saltSeed: 'ui-live-launch',
      name: 'Live Launch',
      symbol: 'LIVE',
      openingTick: -207200,
    });
    expect(launched.result).toBe('ok');
    await expect.poll(() => rowTokens(page), WAIT).toEqual([launched.token, f.usdtToken.token, f.bnbToken.token]);
    // Several more polls change nothing: no duplicate rows.
    await page.waitForTimeout(3500);
    expect(await rowTokens(page)).toEqual([launched.token, f.usdtToken.token, f.bnbToken.token]);
    await screenshot(page, 'launches-list');

    await page
      .locator(`[data-testid="launch-row"][data-token="${f.bnbToken.token}"]`)
      .getByTestId('launch-link')
      .click();
    await page.getByTestId('token-page').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/token/${f.bnbToken.token}`);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('token page', () => {
  it('shows the token, its market, trades and chart, the signer balances, quotes as you type, and reviews a buy', async () => {
    const referrer = f.bnbToken.creator;
    const { page, errors } = await openAt(`/token/${f.bnbToken.token}?r=${referrer}`);

    await page.getByTestId('token-facts').waitFor();
    const api = (await (await fetch(`${f.service.url}/tokens/${f.bnbToken.token}/trades`)).json()) as {
      market: { priceWei: string };
      trades: unknown[];
    };
    await expect.poll(() => page.getByTestId('token-price').getAttribute('data-wei'), WAIT).toBe(api.market.priceWei);
    expect(await page.getByTestId('trade-row').count()).toBe(api.trades.length);
    expect(await page.getByTestId('price-chart').getAttribute('data-points')).toBe(String(api.trades.length));
    await expect.poll(() => page.getByTestId('balance-pair').count(), WAIT).toBe(1);
    expect(await dataWei(page, 'balance-token')).toBe(0n);
    expect(await dataWei(page, 'balance-pair')).toBe(await f.client.getBalance({ address: TRADER.address }));
    expect(await page.getByTestId('trade-referrer').getAttribute('data-address')).toBe(referrer);
    expect(await page.getByTestId('trade-slippage').inputValue()).toBe('0.5');

    // A quote as you type; a bad amount is answered inline with its code.
    await page.getByTestId('trade-amount').fill('0.1234567890123456789');
    await expect.poll(() => page.getByTestId('quote-error').getAttribute('data-code'), WAIT).toBe('TOO_MANY_DECIMALS');
    expect(await page.getByTestId('trade-submit').isDisabled()).toBe(true);
    // That refused quote is a 400, which the browser logs as a failed resource; nothing else may be logged.
    expect(errors.splice(0).filter((error) => !error.includes('status of 400'))).toEqual([]);
    await page.getByTestId('trade-amount').fill('0.8');
    await expect
      .poll(() => page.getByTestId('quote-pay').getAttribute('data-wei'), WAIT)
      .toBe(parseEther('0.8').toString());
    expect(await page.getByTestId('quote-limit').getAttribute('data-kind')).toBe('minReceive');
    expect(await dataWei(page, 'quote-receive')).toBeGreaterThan(0n);
    await screenshot(page, 'token-page');

    // 0.8 BNB moves this fixture's thin pool over 15%: the buy waits for its own confirm before anything is built.
    expect(await page.getByTestId('quote-impact').getAttribute('data-tier')).toBe('high');
    expect(await page.getByTestId('trade-submit').isDisabled()).toBe(true);
    await page.getByTestId('trade-impact-confirm').check();

    // The buy is built and shown on the review screen; rejecting it sends nothing.
    await page.getByTestId('trade-submit').click();
    await page.getByTestId('review').waitFor();
    expect(await page.getByTestId('review-step').textContent()).toBe('The buy');
    expect((await page.getByTestId('review-title').textContent())?.length).toBeGreaterThan(0);
    await page.getByTestId('review-reject').click();
    await expect.poll(() => page.getByTestId('progress').getAttribute('data-stage'), WAIT).toBe('rejected');
    expect(await dataWei(page, 'balance-token')).toBe(0n);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('trading through the review screen', () => {
  it('buys through the form, then sells exact in through its approval step', async () => {
    const { page, errors } = await openAt(`/token/${f.bnbToken.token}`);
    await expect.poll(() => page.getByTestId('balance-token').count(), WAIT).toBe(1);
    const before = await dataWei(page, 'balance-token');

    await page.getByTestId('trade-amount').fill('0.8');
    await page.getByTestId('quote').waitFor();
    // Over 15% price impact on this pool: confirmed explicitly, as a person who read it would.
    await page.getByTestId('trade-impact-confirm').check();
    await page.getByTestId('trade-submit').click();
    expect(await approveUntilSettled(page)).toBe('done');
    await expect.poll(() => dataWei(page, 'balance-token'), WAIT).toBeGreaterThan(before);
    await expect
      .poll(
        () => page.getByTestId('trade-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-side'))[0]),
        WAIT,
      )
      .toBe('buy');
    await screenshot(page, 'token-bought');

    const bought = await dataWei(page, 'balance-token');
    await page.getByTestId('trade-side-sell').click();
    await page.getByTestId('trade-exact-in').click();
    await page.getByTestId('trade-amount').fill('1000');
    await expect
      .poll(() => page.getByTestId('quote-pay').getAttribute('data-wei'), WAIT)
      .toBe(parseEther('1000').toString());
    await page.getByTestId('trade-submit').click();
    expect(await approveUntilSettled(page)).toBe('done');
    await expect.poll(() => dataWei(page, 'balance-token'), WAIT).toBe(bought - parseEther('1000'));

    // Everything signed is in the activity list, newest first: the sell, its approval step (Permit2's of the router:
    // the token gives Permit2 its own allowance), the buy.
    await page.getByTestId('nav-activity').click();
    await page.getByTestId('activity').waitFor();
    const rows = await page
      .getByTestId('activity-row')
      .evaluateAll((all) => all.map((row) => `${row.getAttribute('data-kind')}:${row.getAttribute('data-status')}`));
    expect(rows[0]).toBe('sell:confirmed');
    expect(rows.at(-1)).toBe('buy:confirmed');
    expect(rows.slice(1, -1)).toEqual(['approve:confirmed']);
    await screenshot(page, 'activity');
    expect(errors).toEqual([]);
    await page.close();
  });
});

/** The call data with its lowest bit flipped: always a change (setting a byte could leave it as it was). */
const flipLastBit = (data: string) =>
  `${data.slice(0, -2)}${(Number.parseInt(data.slice(-2), 16) ^ 1).toString(16).padStart(2, '0')}`;

describe('a tampered build', () => {
  it.each([
    [
      'the value',
      'value-matches',
      (tx: Record<string, string>) => ({ ...tx, value: (BigInt(tx.value ?? '0') * 2n).toString() }),
    ],
    ['the target', 'to-known', (tx: Record<string, string>) => ({ ...tx, to: TRADER.address })],
    // The last byte of the call data is inside the deadline word of the trade's parameters.
    [
      'the call data',
      'deadline-matches',
      (tx: Record<string, string>) => ({ ...tx, data: flipLastBit(tx.data ?? '0x') }),
    ],
  ])(
    'is blocked on the review screen when %s differs from what the build claims',
    async (_what, failedCheck, tamper) => {
      const { page, errors } = await openAt(`/token/${f.bnbToken.token}`);
      // A man in the middle between the page and the service (or a compromised service) changes the transaction.
      await page.route('**/api/v1/build/buy', async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { tx: Record<string, string> };
        await route.fulfill({ response, json: { ...body, tx: tamper(body.tx) } });
      });
      await page.getByTestId('trade-amount').fill('0.25');
      await page.getByTestId('quote').waitFor();
      await page.getByTestId('trade-submit').click();
      await page.getByTestId('review').waitFor();
      await page.getByTestId('review-blocked').waitFor();
      expect(await page.getByTestId(`check-${failedCheck}`).getAttribute('class')).toBe('check-failed');
      expect(await page.getByTestId('review-sign').isDisabled()).toBe(true);
      await screenshot(page, `review-blocked-${failedCheck}`);
      // Main's own guard refuses to prepare a call whose value or target is not what a buy pays or goes to: the
      // review says so too, and the browser logs that refusal (422 from the app channel) as a failed load.
      const refusedByMain = (await page.getByTestId('check-app-will-sign').count()) > 0;
      expect(refusedByMain).toBe(failedCheck !== 'deadline-matches');
      await page.getByTestId('review-reject').click();
      await expect.poll(() => page.getByTestId('progress').getAttribute('data-code'), WAIT).toBe('CHECK_FAILED');
      const expected = refusedByMain ? [expect.stringContaining('status of 422')] : [];
      expect(errors).toEqual(expected);
      await page.close();
    },
  );
});

describe('the offline inspector page', () => {
  it('decodes a pasted build with the network cut, and fails a tampered one', async () => {
    const build = (await (
      await fetch(`${f.service.url}/build/buy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ wallet: TRADER.address, token: f.bnbToken.token, amount: '0.3' }),
      })
    ).json()) as { tx: { value: string } };
    const { page, errors } = await openApp(browser, f.service.origin, '/inspect');
    await page.getByTestId('inspect-input').waitFor();
    // The app's own first reads (settings, signer, prices) finish before the cable is pulled: one cut mid-flight is a
    // failed load in the console, which says nothing about the inspector.
    await page.waitForLoadState('networkidle');
    await page.context().setOffline(true);
    try {
      await page.getByTestId('inspect-input').fill(JSON.stringify(build));
      await expect.poll(() => page.getByTestId('inspect-verdict').getAttribute('data-ok'), WAIT).toBe('true');
      expect(await page.getByTestId('inspect-main').textContent()).toContain('TradeRouter');
      await screenshot(page, 'inspect');
      const tampered = { ...build, tx: { ...build.tx, value: (BigInt(build.tx.value) + 1n).toString() } };
      await page.getByTestId('inspect-input').fill(JSON.stringify(tampered));
      await expect.poll(() => page.getByTestId('inspect-verdict').getAttribute('data-ok'), WAIT).toBe('false');
      expect(await page.getByTestId('inspect-check-value-matches').getAttribute('class')).toBe('check-failed');
      await page.getByTestId('inspect-input').fill('{"not": "a build"');
      await page.getByTestId('inspect-error').waitFor();
      // Offline longer than the alerts poll's turn (1.5 s): a page that asked the service now would log a failed load.
      await page.waitForTimeout(2000);
    } finally {
      await page.context().setOffline(false);
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});
