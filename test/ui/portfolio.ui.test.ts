import type { Browser, Page } from 'playwright-core';
import { type Address, erc20Abi, formatUnits, parseUnits, type TransactionReceipt } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { formatAmount, formatUsd } from '../../src-shared/format/numbers';
import { type ApiClient, apiClient } from '../support/apiClient';
import { tokenPrice } from '../support/chainPrices';
import { launchBnbToken, positionFromReceipts } from '../support/portfolioTrades';
import { tradeThroughService } from '../support/serviceTrade';
import { FIXTURE_TRADER, type LaunchedToken, type TradingFixture } from '../support/tradingFixture';
import {
  APP_TOKEN,
  importLocalKey,
  inEveryLook,
  openApp,
  screenshot,
  startTradingUi,
  stopTradingUi,
} from '../support/webUi';

/*
 * Issue 31's portfolio page in a real browser: the signer (a test account nothing else uses) trades two BNB-pair
 * tokens and a USDT-pair one through the service, sells part of one; the page must show each row with the figures the
 * receipts give, written as the formatters write them, the totals, sort by a column, open a row, and show another
 * wallet read-only.
 */

const SIGNER = testAccounts()[12] as TestAccount;
const WAIT = { timeout: 20_000, interval: 100 };

let f: TradingFixture;
let browser: Browser;
let api: ApiClient;
let second: LaunchedToken;
const receipts = new Map<Address, TransactionReceipt[]>();
const pageErrors = new Map<Page, string[]>();

async function trade(token: Address, side: 'buy' | 'sell', amount: string) {
  const receipt = await tradeThroughService(api, f.service.indexer, 12, token, side, amount);
  receipts.set(token, [...(receipts.get(token) ?? []), receipt]);
}

const balanceOf = (token: Address) =>
  f.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [SIGNER.address] });

const rowTokens = (page: Page) =>
  page.getByTestId('position-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-token')));

let imported = false;

/** The signer lives in main: imported once through Settings (inside a test: it polls), it signs for every page. */
async function signerImported(): Promise<void> {
  if (imported) return;
  const { page } = await openApp(browser, f.service.origin, '/settings');
  await importLocalKey(page, f.service.origin, SIGNER);
  await page.close();
  imported = true;
}

/** The signer's page, opened once the signer's badge is up. */
async function openPortfolio(path = '/portfolio'): Promise<Page> {
  await signerImported();
  const { page, errors } = await openApp(browser, f.service.origin, path);
  await expect.poll(() => page.getByTestId('signer-badge').textContent(), WAIT).toContain(SIGNER.address.slice(0, 6));
  pageErrors.set(page, errors);
  return page;
}

/** Closes a page after checking it logged no error. */
async function done(page: Page): Promise<void> {
  expect(pageErrors.get(page)).toEqual([]);
  await page.close();
}

beforeAll(async () => {
  ({ f, browser } = await startTradingUi());
  api = apiClient(f.service);
  second = await launchBnbToken(f, 8, 'portfolio-ui-second');
});
afterAll(() => stopTradingUi({ f, browser }));

describe('portfolio page', () => {
  it('says what to do while the signer holds nothing', async () => {
    const page = await openPortfolio('/');
    await page.getByTestId('nav-portfolio').click();
    expect(new URL(page.url()).pathname).toBe('/portfolio');
    await page.getByTestId('portfolio-empty').waitFor(WAIT);
    expect(await page.getByTestId('portfolio-own').count()).toBe(1);
    expect(await page.getByTestId('portfolio-empty').textContent()).toContain('Buy a token on its page');
    expect(await page.getByTestId('total-value').textContent()).toBe('$0');
    await inEveryLook(page, ({ width, height, colorScheme }) =>
      screenshot(page, `portfolio-empty-${width}x${height}-${colorScheme}`),
    );
    await done(page);
  });

  it("shows each position with the receipts' figures, the totals, sorted by value", async () => {
    await trade(f.bnbToken.token, 'buy', '0.4');
    await trade(second.token, 'buy', '0.5');
    await trade(f.bnbToken.token, 'buy', '0.6');
    await trade(f.usdtToken.token, 'buy', '50');
    await trade(f.bnbToken.token, 'sell', formatUnits(((await balanceOf(f.bnbToken.token)) * 2n) / 5n, 18));

    const page = await openPortfolio();
    await expect.poll(() => rowTokens(page).then((rows) => rows.length), WAIT).toBe(3);
    // The answer the page read, for the dollar figures (the wei are checked against the receipts).
    const { body } = await api.get(`/wallets/${SIGNER.address}/positions`);
    type Row = (typeof body.positions)[number];
    const byValue = [...body.positions].sort((a: Row, b: Row) =>
      Number(parseUnits(b.value.usd, 6) - parseUnits(a.value.usd, 6)),
    );
    expect(await rowTokens(page)).toEqual(byValue.map((row: Row) => row.token.address));

    for (const token of [f.bnbToken, second, f.usdtToken]) {
      const want = positionFromReceipts(receipts.get(token.token) ?? [], SIGNER.address, token.token);
      const price = await tokenPrice(f.client, token);
      const value = (want.held * price.num) / price.den;
      const row = page.locator(`[data-testid="position-row"][data-token="${token.token}"]`);
      const api = body.positions.find((p: Row) => p.token.address === token.token);
      const symbol = api.token.pair.symbol;
      const decimals = api.token.pair.decimals;
      expect(await row.getByTestId('position-value').getAttribute('data-wei')).toBe(value.toString());
      expect(await row.getByTestId('position-realized').getAttribute('data-wei')).toBe(want.realized.toString());
      expect(await row.getByTestId('position-unrealized').getAttribute('data-wei')).toBe(
        (value - want.cost).toString(),
      );
      expect(await row.getByTestId('position-avg-cost').getAttribute('data-wei')).toBe(
        ((want.cost * 10n ** 18n) / want.held).toString(),
      );
      expect(await row.getByTestId('position-symbol').textContent()).toBe(api.token.symbol);
      // Dollars per whole token as the cost's dollars over the balance: a millionth-of-a-dollar price stays readable.
      expect(await row.getByTestId('position-avg-cost').textContent()).toBe(
        `${formatUsd(Number(api.cost.usd) / Number(formatUnits(want.held, 18)))}${formatAmount(BigInt(api.averageCost.wei), decimals, { significant: 4 })} ${symbol}`,
      );
      expect(await row.getByTestId('position-balance').textContent()).toBe(
        formatAmount(want.held, 18, { significant: 4, compact: true }),
      );
      expect(await row.getByTestId('position-value').textContent()).toBe(
        `${formatUsd(Number(api.value.usd))}${formatAmount(value, decimals, { significant: 4 })} ${symbol}`,
      );
      const unrealized = value - want.cost;
      const sign = unrealized > 0n ? '+' : unrealized < 0n ? '−' : '';
      const usd = Number(api.unrealized.usd);
      expect(await row.getByTestId('position-unrealized').textContent()).toBe(
        `${usd === 0 ? '$0' : `${sign}${formatUsd(Math.abs(usd))}`}${sign}${formatAmount(unrealized < 0n ? -unrealized : unrealized, decimals, { significant: 4 })} ${symbol}`,
      );
      const colour = await row.getByTestId('position-unrealized').locator('span > span').first().getAttribute('class');
      expect(colour).toContain(unrealized > 0n ? 'text-up' : unrealized < 0n ? 'text-down' : 'text-muted');
      expect(await row.getByTestId('position-change').textContent()).toMatch(/^[+−]?\d+(\.\d)?%$|^—$/);
    }
    // The sale took a profit or a loss: the first token's realized figure is not zero, and is coloured.
    const sold = page.locator(`[data-testid="position-row"][data-token="${f.bnbToken.token}"]`);
    expect(await sold.getByTestId('position-realized').textContent()).toMatch(/^[+−]\$/);

    // The totals: the sum of the rows' dollars, as the page writes them, and each pair's sum under them.
    const sum = (figure: 'value' | 'cost') =>
      body.positions.reduce((total: bigint, row: Row) => total + parseUnits(row[figure].usd, 6), 0n);
    expect(await page.getByTestId('total-value').textContent()).toBe(formatUsd(Number(formatUnits(sum('value'), 6))));
    expect(await page.getByTestId('total-cost').textContent()).toBe(formatUsd(Number(formatUnits(sum('cost'), 6))));
    const bnbValue = body.positions
      .filter((row: Row) => row.token.pair.address === f.contracts.wbnb)
      .reduce((total: bigint, row: Row) => total + BigInt(row.value.wei), 0n);
    expect(await page.getByTestId('total-value-pairs').textContent()).toContain(
      `${formatAmount(bnbValue, 18, { significant: 4 })} BNB`,
    );
    await inEveryLook(page, ({ width, height, colorScheme }) =>
      screenshot(page, `portfolio-${width}x${height}-${colorScheme}`),
    );
    await done(page);
  });

  it('sorts by a column either way, and opens the token a row names', async () => {
    const page = await openPortfolio();
    await expect.poll(() => rowTokens(page).then((rows) => rows.length), WAIT).toBe(3);
    const { body } = await api.get(`/wallets/${SIGNER.address}/positions`);
    type Row = (typeof body.positions)[number];
    const byRealized = [...body.positions]
      .sort((a: Row, b: Row) => {
        const d = parseUnits(b.realized.usd, 6) - parseUnits(a.realized.usd, 6);
        return d === 0n ? (a.token.address < b.token.address ? -1 : 1) : Number(d);
      })
      .map((row: Row) => row.token.address);
    await page.getByTestId('sort-realized').click();
    expect(await rowTokens(page)).toEqual(byRealized);
    expect(await page.locator('th[aria-sort="descending"]').textContent()).toBe('Realized');
    // By name, A to Z then Z to A; tokens of one name stay in address order either way.
    const byName = (descending: boolean) =>
      [...body.positions]
        .sort((a: Row, b: Row) => {
          const [x, y] = [a.token.name.toLowerCase(), b.token.name.toLowerCase()];
          if (x !== y) return (x < y ? -1 : 1) * (descending ? -1 : 1);
          return a.token.address < b.token.address ? -1 : 1;
        })
        .map((row: Row) => row.token.address);
    await page.getByTestId('sort-token').click();
    expect(await rowTokens(page)).toEqual(byName(false));
    await page.getByTestId('sort-token').click();
    expect(await rowTokens(page)).toEqual(byName(true));

    await page
      .locator(`[data-testid="position-row"][data-token="${second.token}"] [data-testid="position-balance"]`)
      .click();
    await expect.poll(() => new URL(page.url()).pathname, WAIT).toBe(`/token/${second.token}`);
    await page.getByTestId('token-page').waitFor(WAIT);
    await done(page);
  });

  it('keeps a sold-out token behind the closed toggle', async () => {
    await trade(second.token, 'sell', formatUnits(await balanceOf(second.token), 18));
    const page = await openPortfolio();
    await expect.poll(() => rowTokens(page).then((rows) => rows.length), WAIT).toBe(2);
    expect(await rowTokens(page)).not.toContain(second.token);
    await page.getByTestId('portfolio-closed').check();
    await expect.poll(() => rowTokens(page).then((rows) => rows.length), WAIT).toBe(3);
    const closed = page.locator(`[data-testid="position-row"][data-token="${second.token}"]`);
    expect(await closed.getAttribute('data-closed')).toBe('yes');
    const want = positionFromReceipts(receipts.get(second.token) ?? [], SIGNER.address, second.token);
    expect(await closed.getByTestId('position-realized').getAttribute('data-wei')).toBe(want.realized.toString());
    expect(await closed.getByTestId('position-avg-cost').textContent()).toBe('—');
    await inEveryLook(page, ({ width, height, colorScheme }) =>
      screenshot(page, `portfolio-closed-${width}x${height}-${colorScheme}`),
    );
    await done(page);
  });

  it('shows another wallet read-only, and says so when what was typed is not an address', async () => {
    const page = await openPortfolio();
    await expect.poll(() => rowTokens(page).then((rows) => rows.length), WAIT).toBe(2);
    const other = testAccounts()[FIXTURE_TRADER]?.address as Address;
    await page.getByTestId('portfolio-address').fill('0x123');
    await page.getByTestId('portfolio-show').click();
    expect(await page.getByTestId('portfolio-address-error').textContent()).toContain('is not a wallet address');
    expect(await page.getByTestId('portfolio-page').getAttribute('data-wallet')).toBe(SIGNER.address);

    await page.getByTestId('portfolio-address').fill(`  ${other.toLowerCase()} `);
    await page.getByTestId('portfolio-show').click();
    await page.getByTestId('portfolio-watching').waitFor(WAIT);
    expect(new URL(page.url()).searchParams.get('address')).toBe(other);
    expect(await page.getByTestId('portfolio-wallet').textContent()).toBe(other);
    const { body } = await api.get(`/wallets/${other}/positions`);
    expect(body.positions.length).toBeGreaterThan(0);
    await expect
      .poll(() => rowTokens(page), WAIT)
      .toEqual(expect.arrayContaining(body.positions.map((row: { token: { address: string } }) => row.token.address)));
    await inEveryLook(page, ({ width, height, colorScheme }) =>
      screenshot(page, `portfolio-watching-${width}x${height}-${colorScheme}`),
    );
    await page.getByTestId('portfolio-mine').click();
    await page.getByTestId('portfolio-own').waitFor(WAIT);

    expect(pageErrors.get(page)).toEqual([]);

    // An address in the page's link that is not one goes to the service: the page shows its error and its fix.
    await page.goto(`${f.service.origin}/portfolio?address=0xnope#app=${APP_TOKEN}`);
    await page.getByTestId('error').waitFor(WAIT);
    const refused = await api.get('/wallets/0xnope/positions');
    expect(refused.body.error.code).toBe('INVALID_ADDRESS');
    expect(await page.getByTestId('error-code').textContent()).toBe('INVALID_ADDRESS');
    expect(await page.getByTestId('error-message').textContent()).toBe(refused.body.error.message);
    expect(await page.getByTestId('error-fix').textContent()).toBe(refused.body.error.fix);
    expect(await page.getByTestId('portfolio-not-address').count()).toBe(1);
    expect(await page.getByTestId('portfolio-watching').count()).toBe(0);
    await inEveryLook(page, ({ width, height, colorScheme }) =>
      screenshot(page, `portfolio-bad-address-${width}x${height}-${colorScheme}`),
    );
    // The browser logs the 400 answer; nothing else.
    expect(pageErrors.get(page)?.filter((error) => !error.includes('400'))).toEqual([]);
    await page.close();
  });
});
