import type { Browser, Page } from 'playwright-core';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { shareOfBalance } from '../../src-shared/format/balance';
import type { TradingFixture } from '../support/tradingFixture';
import {
  APP_TOKEN,
  approveUntilSettled,
  importLocalKey,
  openApp,
  screenshot,
  startTradingUi,
  stopTradingUi,
} from '../support/webUi';

/** The signer the page trades with: a test account nothing else in this file uses. */
const TRADER = testAccounts()[8] as TestAccount;
const WAIT = { timeout: 20_000, interval: 100 };

let f: TradingFixture;
let browser: Browser;

beforeAll(async () => {
  ({ f, browser } = await startTradingUi());
});
afterAll(() => stopTradingUi({ f, browser }));

let imported = false;

/** The token page with the signer up, and every build request the page makes counted. */
async function tokenPage(): Promise<{ page: Page; errors: string[]; builds: string[] }> {
  if (!imported) {
    const { page } = await openApp(browser, f.service.origin, '/settings');
    await importLocalKey(page, f.service.origin, TRADER);
    await page.close();
    imported = true;
  }
  const opened = await openApp(browser, f.service.origin, `/token/${f.bnbToken.token}`);
  const builds: string[] = [];
  opened.page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/v1/build/')) builds.push(request.url());
  });
  await expect
    .poll(() => opened.page.getByTestId('signer-badge').textContent(), WAIT)
    .toContain(TRADER.address.slice(0, 6));
  await opened.page.getByTestId('balance-pair').waitFor();
  return { ...opened, builds };
}

/** The fixture pool's price impact for a buy of `amount` BNB, as the service quotes it. */
async function impactOf(amount: string): Promise<number> {
  const answer = await fetch(`${f.service.url}/quote?token=${f.bnbToken.token}&side=buy&amount=${amount}`);
  return ((await answer.json()) as { priceImpactPct: number }).priceImpactPct;
}

const submit = (page: Page) => page.getByTestId('trade-submit');
const impactTier = (page: Page) => page.getByTestId('quote-impact').getAttribute('data-tier');

describe('the trade panel', () => {
  it('stops a buy over the BNB balance before anything is built: the button says Insufficient BNB', async () => {
    const { page, errors, builds } = await tokenPage();
    const held = await f.client.getBalance({ address: TRADER.address });
    expect(held).toBeLessThan(parseEther('50000'));
    await page.getByTestId('trade-amount').fill('50000');
    await page.getByTestId('quote').waitFor();
    await expect.poll(() => submit(page).textContent(), WAIT).toBe('Insufficient BNB');
    expect(await submit(page).isDisabled()).toBe(true);
    expect(await submit(page).getAttribute('data-short')).toBe('BNB');
    // Long enough for a preview build to have been asked for, had the panel asked.
    await page.waitForTimeout(1500);
    expect(builds).toEqual([]);
    await screenshot(page, 'trade-insufficient');

    // A buy the wallet can pay is back to "Buy": the balance was the only thing in the way.
    await page.getByTestId('trade-amount').fill('0.1');
    await expect.poll(() => submit(page).textContent(), WAIT).toMatch(/^Buy /);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('needs an explicit confirm for a buy over 15% price impact before the review opens, and shows it red', async () => {
    expect(await impactOf('0.8')).toBeGreaterThan(15);
    const { page, errors } = await tokenPage();
    await page.getByTestId('trade-amount').fill('0.8');
    await expect.poll(() => impactTier(page), WAIT).toBe('high');
    await page.getByTestId('trade-impact-high').waitFor();
    expect(await submit(page).isDisabled()).toBe(true);
    expect(await submit(page).textContent()).toMatch(/anyway at −\d+(\.\d+)?% impact$/);
    expect(await page.getByTestId('review').count()).toBe(0);
    await screenshot(page, 'trade-impact-high');

    await page.getByTestId('trade-impact-confirm').check();
    expect(await submit(page).isDisabled()).toBe(false);
    await submit(page).click();
    await page.getByTestId('review').waitFor();
    await page.getByTestId('review-reject').click();
    await expect.poll(() => page.getByTestId('progress').getAttribute('data-stage'), WAIT).toBe('rejected');

    // A new amount asks again: the confirm was for that trade only.
    await page.getByTestId('trade-amount').fill('0.9');
    await expect.poll(() => page.getByTestId('trade-impact-confirm').isChecked(), WAIT).toBe(false);
    expect(await submit(page).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a 5-15% impact amber without blocking, with the network fee in BNB and dollars', async () => {
    const impact = await impactOf('0.25');
    expect(impact).toBeGreaterThan(5);
    expect(impact).toBeLessThan(15);
    const { page, errors } = await tokenPage();
    await page.getByTestId('trade-amount').fill('0.25');
    await expect.poll(() => impactTier(page), WAIT).toBe('warn');
    await page.getByTestId('trade-impact-warning').waitFor();
    expect(await page.getByTestId('trade-impact-confirm').count()).toBe(0);
    await expect.poll(() => submit(page).isEnabled(), WAIT).toBe(true);

    // The network fee comes from the trade built for this wallet: a little BNB, with its dollar value beside it.
    const fee = page.getByTestId('trade-network-fee');
    await fee.waitFor(WAIT);
    const feeWei = BigInt((await fee.getAttribute('data-wei')) ?? '0');
    expect(feeWei).toBeGreaterThan(0n);
    expect(feeWei).toBeLessThan(parseEther('0.01'));
    expect(await fee.textContent()).toContain('BNB');
    await expect.poll(() => fee.locator('[data-usd]').count(), WAIT).toBe(1);
    expect(await fee.textContent()).toMatch(/\$\d/);
    // The quote's amounts are in whole units with dollars beside them.
    expect(await page.getByTestId('quote-pay').textContent()).toMatch(/^0\.25\s*BNB\s*\$\d/);
    await screenshot(page, 'trade-impact-warn');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('resets the form after a buy settles, says how many confirmations a first sell takes, and shows its steps', async () => {
    const { page, errors } = await tokenPage();
    const before = BigInt((await page.getByTestId('balance-token').getAttribute('data-wei')) ?? '-1');
    await page.getByTestId('trade-preset-0.1').click();
    expect(await page.getByTestId('trade-amount').inputValue()).toBe('0.1');
    await expect.poll(() => submit(page).isEnabled(), WAIT).toBe(true);
    await submit(page).click();
    expect(await approveUntilSettled(page)).toBe('done');
    // Settled: the amount and the quote are gone, the balances read again.
    await expect.poll(() => page.getByTestId('trade-amount').inputValue(), WAIT).toBe('');
    expect(await page.getByTestId('quote').count()).toBe(0);
    await expect
      .poll(async () => BigInt((await page.getByTestId('balance-token').getAttribute('data-wei')) ?? '-1'), WAIT)
      .toBeGreaterThan(before);
    await page.getByTestId('progress-hash').waitFor();

    // Half of what was bought, sold: a token launched here gives Permit2 its allowance itself, so the first sell
    // needs one approval (Permit2's of the router) before the sale.
    await page.getByTestId('trade-side-sell').click();
    await page.getByTestId('trade-share-50').click();
    const held = BigInt((await page.getByTestId('balance-token').getAttribute('data-wei')) ?? '0');
    // Half at the balance's precision, rounded down: never 18 noise digits (shareOfBalance's own tests cover the rounding).
    const half = shareOfBalance(held, 18, 50);
    expect(await page.getByTestId('trade-amount').inputValue()).toBe(half.text);
    await expect.poll(() => page.getByTestId('quote-pay').getAttribute('data-wei'), WAIT).toBe(half.wei.toString());
    const confirmations = page.getByTestId('trade-confirmations');
    await confirmations.waitFor(WAIT);
    expect(await confirmations.getAttribute('data-count')).toBe('2');
    expect(await confirmations.textContent()).toContain('2 confirmations: one approval, then the sale');
    await screenshot(page, 'trade-first-sell');

    // Sold through its approval: the progress lists the two steps by name, all done.
    await submit(page).click();
    expect(await approveUntilSettled(page)).toBe('done');
    const steps = page.getByTestId('progress-step');
    expect(await steps.evaluateAll((all) => all.map((step) => step.getAttribute('data-state')))).toEqual([
      'done',
      'done',
    ]);
    expect(await steps.nth(0).textContent()).toMatch(/Let the router spend all your \S+ through Permit2 until /);
    expect(await steps.nth(1).textContent()).toContain('The sale');

    // Activity: one row per action, the sale's approvals folded under it and named for what they allowed.
    await page.getByTestId('nav-activity').click();
    const actions = page.getByTestId('activity-action');
    await expect.poll(() => actions.count(), WAIT).toBe(2);
    const sale = actions.first();
    expect(await sale.getByTestId('activity-row').first().getAttribute('data-kind')).toBe('sell');
    expect(await sale.getByTestId('activity-token').getAttribute('href')).toBe(`/token/${f.bnbToken.token}`);
    const approvals = sale.locator('[data-testid="activity-row"][data-kind="approve"]');
    expect(await approvals.count()).toBe(1);
    expect(await approvals.first().isVisible()).toBe(false);
    await sale.getByTestId('activity-steps-toggle').click();
    expect(await approvals.first().isVisible()).toBe(true);
    expect(await approvals.first().textContent()).toMatch(/Let the router spend all your \S+ through Permit2/);
    await screenshot(page, 'activity-steps');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('unlocks a locked key in the panel, where the button would be', async () => {
    const { page, errors } = await tokenPage();
    const locked = await fetch(`${f.service.origin}/app/signer.lock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${APP_TOKEN}` },
      body: '{}',
    });
    expect(locked.status).toBe(200);
    await page.reload();
    const panel = page.getByTestId('trade-panel');
    await panel.getByTestId('unlock-inline').waitFor(WAIT);
    expect(await panel.getByTestId('trade-submit').count()).toBe(0);
    await screenshot(page, 'trade-locked');
    await panel.getByTestId('unlock-inline-passphrase').fill('correct horse battery');
    await panel.getByTestId('unlock-inline-submit').click();
    await panel.getByTestId('trade-submit').waitFor(WAIT);
    expect(errors).toEqual([]);
    await page.close();
  });
});
