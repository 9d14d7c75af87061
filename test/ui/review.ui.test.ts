import type { Browser, Page } from 'playwright-core';
import { type Address, decodeFunctionData, encodeFunctionData, type Hex, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { tradeRouterAbi } from '../../src-shared/generated/abis';
import type { TradingFixture } from '../support/tradingFixture';
import { unsignedHashOf } from '../support/unsignedHash';
import {
  APP_TOKEN,
  ARTIFACTS,
  approveReview,
  importLocalKey,
  inEveryLook,
  openApp,
  screenshot,
  startTradingUi,
  stopTradingUi,
} from '../support/webUi';

/** The signer the page trades with. */
const TRADER = testAccounts()[8] as TestAccount;
const WAIT = { timeout: 20_000, interval: 100 };

let f: TradingFixture;
let browser: Browser;

beforeAll(async () => {
  ({ f, browser } = await startTradingUi());
});
afterAll(() => stopTradingUi({ f, browser }));

let imported = false;

async function tokenPage(token: Address): Promise<{ page: Page; errors: string[] }> {
  // The signer lives in main: imported once, through Settings (its checks need a running test), for every page.
  if (!imported) {
    const { page } = await openApp(browser, f.service.origin, '/settings');
    await importLocalKey(page, f.service.origin, TRADER);
    await page.close();
    imported = true;
  }
  const opened = await openApp(browser, f.service.origin, `/token/${token}`);
  await expect
    .poll(() => opened.page.getByTestId('signer-badge').textContent(), WAIT)
    .toContain(TRADER.address.slice(0, 6));
  return opened;
}

async function trade(page: Page, side: 'buy' | 'sell', amount: string): Promise<void> {
  if (side === 'sell') await page.getByTestId('trade-side-sell').click();
  await page.getByTestId('trade-amount').fill(amount);
  await page.getByTestId('quote').waitFor();
  await page.getByTestId('trade-submit').click();
  await page.getByTestId('review').waitFor();
}

describe('the review screen', () => {
  it('heads a tampered buy with the decoded (tampered) amount, and shows the failed check before anything else', async () => {
    const { page, errors } = await tokenPage(f.bnbToken.token);
    // Someone between the page and the service spends ten times what the person typed, value included, and leaves
    // the build's own text and claims as they were.
    await page.route('**/api/v1/build/buy', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { tx: { data: Hex; value: string } };
      const { args } = decodeFunctionData({ abi: tradeRouterAbi, data: body.tx.data });
      const params = { ...(args?.[0] as { amount: bigint }) };
      params.amount *= 10n;
      const data = encodeFunctionData({ abi: tradeRouterAbi, functionName: 'buyExactIn', args: [params as never] });
      const value = (BigInt(body.tx.value) * 10n).toString();
      await route.fulfill({ response, json: { ...body, tx: { ...body.tx, data, value } } });
    });
    await trade(page, 'buy', '0.25');
    await page.getByTestId('review-blocked').waitFor();
    expect(await page.getByTestId('review-title').textContent()).toContain('pays exactly 2.5 BNB');
    // The first thing in the dialog is the failed check, in red.
    const first = await page
      .getByTestId('review')
      .evaluate((dialog) => dialog.firstElementChild?.getAttribute('data-testid') ?? null);
    expect(first).toBe('review-blocked');
    expect(await page.getByTestId('check-amount-matches').getAttribute('class')).toBe('check-failed');
    expect(await page.getByTestId('review-sign').isDisabled()).toBe(true);
    await screenshot(page, 'review-tampered-headline');
    // As a person sees it: both window sizes, light and dark.
    await inEveryLook(page, ({ width, height, colorScheme }) =>
      page.screenshot({ path: `${ARTIFACTS}/review-blocked-${width}x${height}-${colorScheme}.png` }),
    );
    // Esc rejects, as the dialog's cancel.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('progress').getAttribute('data-code'), WAIT).toBe('CHECK_FAILED');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the hash the device will show, which is keccak256 of the unsigned transaction that is then sent', async () => {
    const { page, errors } = await tokenPage(f.bnbToken.token);
    await trade(page, 'buy', '0.2');
    expect(await page.getByTestId('review-blocked').count()).toBe(0);
    const shown = (await page.getByTestId('device-hash').textContent()) as Hex;
    expect(await page.getByTestId('device-network').textContent()).toContain('31337');
    expect(await page.getByTestId('device-to').textContent()).toContain('TradeRouter');
    expect(await page.getByTestId('device-amount').textContent()).toContain('0.2 ');
    await screenshot(page, 'review-device');
    await approveReview(page);
    await expect.poll(() => page.getByTestId('progress').getAttribute('data-stage'), WAIT).toBe('done');
    const hash = (await page.getByTestId('progress-hash').getAttribute('data-hash')) as Hex;
    expect(await unsignedHashOf(f.client as never, hash)).toBe(shown);
    expect((await f.client.getTransaction({ hash })).value).toBe(parseEther('0.2'));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows what main itself warns about, and says why this server will not sign it', async () => {
    // Through a referral link: the page takes the referrer as the person's choice, but main cannot tell who chose it,
    // and a first trade binds the wallet to it for life. This server runs without --allow-warned-signing.
    const referrer = f.bnbToken.creator;
    const { page, errors } = await tokenPage(f.bnbToken.token);
    await page.goto(`${f.service.origin}/token/${f.bnbToken.token}?r=${referrer}#app=${APP_TOKEN}`);
    await trade(page, 'buy', '0.1');
    await page.getByTestId('review-blocked').waitFor();
    expect(await page.getByTestId('check-app-will-sign').textContent()).toContain('--allow-warned-signing');
    expect(await page.getByTestId('warning-referrer-not-chosen').textContent()).toContain('binds your wallet');
    expect(await page.getByTestId('review-sign').isDisabled()).toBe(true);
    await inEveryLook(page, ({ width, height, colorScheme }) =>
      page.screenshot({ path: `${ARTIFACTS}/review-main-warns-${width}x${height}-${colorScheme}.png` }),
    );
    const nonce = await f.client.getTransactionCount({ address: TRADER.address });
    await page.getByTestId('review-reject').click();
    await expect.poll(() => page.getByTestId('progress').getAttribute('data-code'), WAIT).toBe('CHECK_FAILED');
    expect(await f.client.getTransactionCount({ address: TRADER.address })).toBe(nonce);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('needs a tick for an unlimited approval before Sign is enabled', async () => {
    // A token launched here builds Permit2's allowance in, so the unlimited approval shows where one is still
    // needed: the first buy paid in USDT, whose first step lets Permit2 move the USDT.
    const { page, errors } = await tokenPage(f.usdtToken.token);
    await trade(page, 'buy', '5');
    // Unlimited, so a warning to tick.
    // Named for what it allows, not by the build's step id ('approve-permit2').
    expect(await page.getByTestId('review-step').textContent()).toMatch(/^Step 1 of 3 · Let Permit2 move your \S+$/);
    await page.getByTestId('warning-unlimited-approval').waitFor();
    expect(await page.getByTestId('review-title').textContent()).toContain('any amount');
    const sign = page.getByTestId('review-sign');
    expect(await sign.isDisabled()).toBe(true);
    await screenshot(page, 'review-warning');
    await page.getByTestId('tick-unlimited-approval').check();
    expect(await sign.isDisabled()).toBe(false);
    await page.getByTestId('tick-unlimited-approval').uncheck();
    expect(await sign.isDisabled()).toBe(true);
    await page.getByTestId('review-reject').click();
    await expect.poll(() => page.getByTestId('progress').getAttribute('data-code'), WAIT).toBe('REJECTED');
    expect(errors).toEqual([]);
    await page.close();
  });
});
