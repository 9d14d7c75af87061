import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { parseEther, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { escapeLabel, LABEL_SHOWN_CHARS } from '../../src-renderer/src/requests/keyLabel';
import { formatBalance, shareOfBalance } from '../../src-shared/format/balance';
import { formatExact } from '../../src-shared/format/numbers';
import { jsonInit } from '../support/jsonInit';
import type { TradingFixture } from '../support/tradingFixture';
import {
  ARTIFACTS,
  approveReview,
  importLocalKey,
  inEveryLook,
  openApp,
  startTradingUi,
  stopTradingUi,
} from '../support/webUi';

/*
 * The trade panel's and pages' numbers and links at signing time, in a real browser on the devnet with no public link
 * base: quick amounts at the balance's precision, one balance everywhere, the slippage warning and its retype, share
 * links that would open for nobody else withheld, and a hostile API key label kept in its quotes.
 */

const TRADER_INDEX = 9;
const TRADER = testAccounts()[TRADER_INDEX] as TestAccount;
const BOT = testAccounts()[6] as TestAccount;
const WAIT = { timeout: 20_000, interval: 100 };

let f: TradingFixture;
let browser: Browser;
let symbol: string;

async function api(path: string, init: RequestInit = {}) {
  const response = await fetch(`${f.service.url}${path}`, jsonInit(init));
  return { status: response.status, body: (await response.json()) as any };
}

/** Full-page screenshots at both window sizes, light and dark, as test-results/screens/<name>-<width>-<theme>.png. */
async function screenshots(page: Page, name: string): Promise<void> {
  await inEveryLook(page, async ({ width, colorScheme }) => {
    await page.screenshot({ path: join(ARTIFACTS, 'screens', `${name}-${width}-${colorScheme}.png`), fullPage: true });
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The figure an amount shows (without its symbol or dollars), for the element or the amount inside it. */
const figure = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((element) => {
    const amount = element.hasAttribute('data-wei') ? element : element.querySelector('[data-wei]');
    return amount?.firstElementChild?.firstChild?.textContent ?? '';
  });

const submit = (page: Page) => page.getByTestId('trade-submit');

async function tokenPage(): Promise<{ page: Page; errors: string[] }> {
  const opened = await openApp(browser, f.service.origin, `/token/${f.bnbToken.token}`);
  await expect
    .poll(() => opened.page.getByTestId('signer-badge').textContent(), WAIT)
    .toContain(TRADER.address.slice(0, 6));
  await opened.page.getByTestId('balance-token').waitFor(WAIT);
  return opened;
}

beforeAll(async () => {
  ({ f, browser } = await startTradingUi());
  symbol = (await api(`/tokens/${f.bnbToken.token}`)).body.symbol;
  // The trader holds an amount of the token with every one of its 18 decimals in use, as a real buy leaves.
  const bought = await f.driver.trade(
    TRADER_INDEX,
    'buyExactIn',
    f.driver.params({ token: f.bnbToken.token, pair: f.bnbToken.pair, pool: f.bnbToken.pool }, parseEther('0.137'), 0n),
    parseEther('0.137'),
  );
  expect(bought.result).toBe('ok');
  await f.service.indexer.waitFor(await f.client.getBlockNumber({ cacheTime: 0 }));
});
afterAll(() => stopTradingUi({ f, browser }));

it('imports the trader through Settings', async () => {
  const { page } = await openApp(browser, f.service.origin, '/settings');
  await importLocalKey(page, f.service.origin, TRADER);
  await page.close();
});

describe('balances and quick amounts', () => {
  it('shows each balance from one read in one format, and fills 50% and Max at that precision', async () => {
    const { page, errors } = await tokenPage();
    const held = BigInt((await page.getByTestId('balance-token').getAttribute('data-wei')) ?? '0');
    expect(held % 10n ** 6n).not.toBe(0n);
    const shown = formatBalance(held, 18);

    // The BNB the header shows is the BNB the trade panel pays from and the balances card lists, to the digit.
    const bnbCard = await figure(page, 'balance-pair');
    await expect.poll(() => figure(page, 'header-balance'), WAIT).toBe(bnbCard);
    expect(await figure(page, 'trade-balance')).toBe(bnbCard);
    expect(await page.getByTestId('header-balance').locator('[data-wei]').getAttribute('data-wei')).toBe(
      await page.getByTestId('balance-pair').getAttribute('data-wei'),
    );

    // Selling: the panel's balance is the card's, in the one format.
    await page.getByTestId('trade-side-sell').click();
    expect(await figure(page, 'balance-token')).toBe(shown);
    expect(await figure(page, 'trade-balance')).toBe(shown);

    // 50% of an amount with 18 decimals in use: rounded down at the balance's precision, never 18 noise digits.
    await page.getByTestId('trade-share-50').click();
    const half = await page.getByTestId('trade-amount').inputValue();
    expect(half).toBe(shareOfBalance(held, 18, 50).text);
    expect(half.replace('.', '').replace(/^0+/, '').length).toBeLessThanOrEqual(
      Math.max(6, half.split('.')[0]?.length ?? 0),
    );
    expect(parseUnits(half, 18) * 2n).toBeLessThanOrEqual(held);
    await expect
      .poll(() => page.getByTestId('quote-pay').getAttribute('data-wei'), WAIT)
      .toBe(parseUnits(half, 18).toString());

    // Max: what the balance shows, never more than is held.
    await page.getByTestId('trade-share-100').click();
    const max = await page.getByTestId('trade-amount').inputValue();
    expect(max).toBe(shareOfBalance(held, 18, 100).text);
    expect(formatExact(parseUnits(max, 18), 18)).toBe(shown);
    expect(parseUnits(max, 18)).toBeLessThanOrEqual(held);

    // The sell's headline at signing reads the same legible amount.
    await expect.poll(() => submit(page).isEnabled(), WAIT).toBe(true);
    await submit(page).click();
    // A first sell lets the router spend the token first: that approval is signed, then the sale is reviewed.
    await page.getByTestId('review').waitFor(WAIT);
    if (!((await page.getByTestId('review-step').textContent()) ?? '').includes('sale')) await approveReview(page);
    await expect.poll(() => page.getByTestId('review-step').textContent(), WAIT).toContain('sale');
    const title = (await page.getByTestId('review-title').textContent()) ?? '';
    expect(title).toContain(`pays exactly ${formatExact(parseUnits(max, 18), 18)} ${symbol}`);
    expect(title).not.toMatch(/\d\.\d{7,}/);
    await page.getByTestId('review-reject').click();
    await expect.poll(() => page.getByTestId('progress').getAttribute('data-stage'), WAIT).toBe('rejected');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('slippage', () => {
  it('warns above 5% with the worst case in units and dollars, and above 20% needs the number typed again', async () => {
    const { page, errors } = await tokenPage();
    await page.getByTestId('trade-amount').fill('0.1');
    await expect.poll(() => submit(page).isEnabled(), WAIT).toBe(true);
    expect(await page.getByTestId('trade-slippage-warning').count()).toBe(0);

    // 10%: a warning with what the limit lets the price take, and the trade can go on.
    await page.getByTestId('trade-slippage').fill('10');
    const warning = page.getByTestId('trade-slippage-warning');
    await expect.poll(() => warning.getAttribute('data-tier'), WAIT).toBe('warn');
    await expect.poll(() => page.getByTestId('quote').getAttribute('data-loading'), WAIT).toBe('no');
    const quoted = BigInt((await page.getByTestId('quote-receive').getAttribute('data-wei')) ?? '0');
    const floor = BigInt((await page.getByTestId('quote-limit').getAttribute('data-wei')) ?? '0');
    await expect.poll(() => warning.getAttribute('data-loss-wei'), WAIT).toBe((quoted - floor).toString());
    // About a tenth of what the buy gets, so about a tenth of 0.1 BNB in dollars.
    expect(quoted - floor).toBeGreaterThan(0n);
    expect(Number(await warning.getAttribute('data-loss-usd'))).toBeGreaterThan(0);
    expect(await page.getByTestId('trade-slippage-cost').textContent()).toMatch(
      new RegExp(`receive .*${symbol}.* less than quoted, \\$\\d`),
    );
    await expect.poll(() => submit(page).isEnabled(), WAIT).toBe(true);

    // 25%: the trade waits until the number is typed again; a different number or a paste does not do.
    await page.getByTestId('trade-slippage').fill('25');
    await expect.poll(() => warning.getAttribute('data-tier'), WAIT).toBe('retype');
    await expect.poll(() => submit(page).textContent(), WAIT).toBe('Type the slippage again to go on');
    expect(await submit(page).isDisabled()).toBe(true);
    // Enter in the amount field submits the form: nothing opens for signing.
    await page.getByTestId('trade-amount').press('Enter');
    await page.waitForTimeout(500);
    expect(await page.getByTestId('review').count()).toBe(0);
    await screenshots(page, 'trade-slippage-retype');
    await page.getByTestId('trade-slippage-retype').fill('2.5');
    expect(await submit(page).isDisabled()).toBe(true);
    await page.getByTestId('trade-slippage-retype').fill('25');
    await expect.poll(() => submit(page).isEnabled(), WAIT).toBe(true);
    // A new slippage asks again.
    await page.getByTestId('trade-slippage').fill('30');
    await expect.poll(() => page.getByTestId('trade-slippage-retype').inputValue(), WAIT).toBe('');
    expect(await submit(page).isDisabled()).toBe(true);

    // Back to 10% for the screenshot of the warning alone.
    await page.getByTestId('trade-slippage').fill('10');
    await expect.poll(() => submit(page).isEnabled(), WAIT).toBe(true);
    await screenshots(page, 'trade-slippage-warning');

    // A sell for an exact amount counts the worst case in what it receives: BNB.
    await page.getByTestId('trade-side-sell').click();
    await page.getByTestId('trade-amount').fill('1000');
    await expect.poll(() => warning.getAttribute('data-loss-wei'), WAIT).not.toBeNull();
    expect(await page.getByTestId('trade-slippage-cost').textContent()).toMatch(/receive .*BNB.* less than quoted/);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('share links with no public link base', () => {
  it('offers the token page no loopback link to share: the address to copy, and no explorer on the devnet', async () => {
    const { page, errors } = await tokenPage();
    expect(await page.getByTestId('token-share').getAttribute('data-link')).toBe('');
    await page.getByTestId('token-share').click();
    const none = page.getByTestId('token-share-none');
    await none.waitFor();
    expect(await none.getByTestId('token-share-none-address').textContent()).toBe(f.bnbToken.token);
    expect(await none.getByTestId('token-share-none-no-explorer').textContent()).toContain('devnet');
    expect(await none.getByTestId('token-share-none-why').textContent()).toContain('public base of shared links');
    expect(await page.locator('#root').innerHTML()).not.toMatch(/127\.0\.0\.1|localhost|launchpad-companion:/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows Referrals without links that open for nobody else, and a picked token by its address', async () => {
    const { page, errors } = await openApp(browser, f.service.origin, '/referrals');
    await page.getByTestId('referral-links-no-base').waitFor(WAIT);
    expect(await page.getByTestId('referral-link-launch').count()).toBe(0);
    expect(await page.getByTestId('referral-link-home').count()).toBe(0);
    expect(await page.getByTestId('referral-path').count()).toBe(0);
    await page.getByTestId('referral-token-pick').selectOption(f.bnbToken.token);
    const none = page.getByTestId('referral-token-no-link');
    await none.waitFor(WAIT);
    expect(await none.getByTestId('referral-token-no-link-address').textContent()).toBe(f.bnbToken.token);
    expect(await none.getAttribute('data-explorer')).toBe('no');
    expect(await page.getByTestId('referral-links').textContent()).not.toMatch(
      /127\.0\.0\.1|localhost|launchpad-companion:/,
    );
    await screenshots(page, 'referrals-no-link-base');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('a hostile API key label', () => {
  /** A label that closes its quote and speaks as the app, with a right-to-left override: 29 characters, never cut. */
  const HOSTILE = 'ok” (verified by the app) “x\u202E';

  it('stays inside its own token in the Requests list and the review, escaped, and never reads as the app', async () => {
    const challenge = await api(`/keys/challenge?address=${BOT.address}`);
    const signature = await privateKeyToAccount(BOT.privateKey).signMessage({ message: challenge.body.message });
    const created = await api('/keys', {
      method: 'POST',
      body: JSON.stringify({ nonce: challenge.body.nonce, signature, label: HOSTILE }),
    });
    expect(created.status).toBe(201);
    const intent = await api('/intents', {
      method: 'POST',
      headers: { 'x-api-key': created.body.key },
      body: JSON.stringify({ kind: 'prepare_buy', wallet: TRADER.address, token: f.bnbToken.token, amount: '0.01' }),
    });
    expect(intent.status).toBe(201);

    const { page, errors } = await openApp(browser, f.service.origin, '/requests');
    const row = page.locator('[data-testid="request-row"][data-status="pending"]');
    await row.waitFor(WAIT);
    const label = row.getByTestId('source-key-label');
    expect([...HOSTILE].length).toBeLessThan(LABEL_SHOWN_CHARS);
    expect(await label.textContent()).toBe('ok\\” (verified by the app) \\“x\\u{202E}');
    expect(await label.textContent()).toBe(escapeLabel(HOSTILE));
    /** A line's text with the label's token taken out: the app's own words only. */
    const ownWords = (testId: string) =>
      page.getByTestId(testId).evaluate((line) => {
        const copy = line.cloneNode(true) as HTMLElement;
        for (const token of copy.querySelectorAll('[data-testid="source-key-label"]')) token.remove();
        return copy.textContent ?? '';
      });
    const listed = await ownWords('request-source');
    expect(listed).toMatch(new RegExp(`^asked by API key  of wallet ${BOT.address}, at `));
    expect(listed).not.toContain('verified by the app');
    expect(listed).not.toContain('\u202E');

    await row.getByTestId('request-review').click();
    await page.getByTestId('review').waitFor(WAIT);
    const askedBy = page.getByTestId('review-asked-by');
    await askedBy.waitFor(WAIT);
    expect(await askedBy.getByTestId('source-key-label').textContent()).toBe(await label.textContent());
    const reviewed = await ownWords('review-asked-by');
    expect(reviewed).not.toContain('verified by the app');
    expect(reviewed).toContain(`of wallet ${BOT.address}`);
    await page.getByTestId('review-reject').click();
    expect(errors).toEqual([]);
    await page.close();
  });
});
