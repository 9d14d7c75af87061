import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { erc20Abi, type Hex, isAddressEqual, parseEther, parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { describeViolations, seriousViolations, type Violation } from '../support/accessibility';
import { pngBytes } from '../support/pngImage';
import type { TradingFixture } from '../support/tradingFixture';
import {
  ARTIFACTS,
  approveUntilSettled,
  importLocalKey,
  inEveryLook,
  openApp,
  startTradingUi,
  stopTradingUi,
} from '../support/webUi';

/**
 * The money at signing time and after, as a trader reads it: a tampered value in the review's money block, a split
 * first buy on the launch review, failed checks first on Inspect, and what arrived in Activity. Each is captured at
 * the two window sizes in light and dark, in test-results/screens/<name>-<width>-<theme>.png.
 */

const TRADER = testAccounts()[8] as TestAccount;
const OTHER = testAccounts()[15] as TestAccount;
const WAIT = { timeout: 20_000, interval: 100 };

let f: TradingFixture;
let browser: Browser;
let imported = false;

beforeAll(async () => {
  ({ f, browser } = await startTradingUi());
});
afterAll(() => stopTradingUi({ f, browser }));

/** A page of the app with the trader's key in main (imported once, through Settings). */
async function appPage(path: string): Promise<{ page: Page; errors: string[] }> {
  if (!imported) {
    const { page } = await openApp(browser, f.service.origin, '/settings');
    await importLocalKey(page, f.service.origin, TRADER);
    await page.close();
    imported = true;
  }
  const opened = await openApp(browser, f.service.origin, path);
  await expect
    .poll(() => opened.page.getByTestId('signer-badge').textContent(), WAIT)
    .toContain(TRADER.address.slice(0, 6));
  return opened;
}

/**
 * The window as it is, at both sizes in both themes, each also checked by axe-core (no serious or critical finding);
 * the size and theme are put back as they were.
 */
async function shots(page: Page, name: string): Promise<void> {
  const dir = join(ARTIFACTS, 'screens');
  mkdirSync(dir, { recursive: true });
  const found: Violation[] = [];
  await inEveryLook(page, async ({ width, colorScheme }) => {
    await page.screenshot({ path: join(dir, `${name}-${width}-${colorScheme}.png`) });
    for (const violation of await seriousViolations(page))
      found.push({ ...violation, where: [`${colorScheme} ${width}`] });
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  expect(found, describeViolations(found)).toEqual([]);
}

async function buyOnPage(page: Page, amount: string): Promise<void> {
  await page.getByTestId('trade-amount').fill(amount);
  await page.getByTestId('quote').waitFor();
  await page.getByTestId('trade-submit').click();
}

describe('the review money block', () => {
  it('reads a tampered value as the BNB really sent, in red against what the call pays, and says it in BNB and dollars', async () => {
    const { page, errors } = await appPage(`/token/${f.bnbToken.token}`);
    // Someone between the page and the service changes only the BNB sent: ten times the 0.2 BNB the call pays.
    await page.route('**/api/v1/build/buy', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { tx: { value: string } };
      const value = (BigInt(body.tx.value) * 10n).toString();
      await route.fulfill({ response, json: { ...body, tx: { ...body.tx, value } } });
    });
    const before = {
      nonce: await f.client.getTransactionCount({ address: TRADER.address }),
      bnb: await f.client.getBalance({ address: TRADER.address }),
    };
    await buyOnPage(page, '0.2');
    await page.getByTestId('review-blocked').waitFor();
    expect(await page.getByTestId('review-pay').getAttribute('data-wei')).toBe(parseEther('2').toString());
    expect(await page.getByTestId('review-pay').textContent()).toMatch(/^You pay2\s*BNB\s*\$[\d.]+K/);
    const mismatch = page.getByTestId('review-value-mismatch');
    expect(await mismatch.getAttribute('data-sent')).toBe(parseEther('2').toString());
    expect(await mismatch.textContent()).toMatch(/^The call pays0\.2\s*BNB.*yet the transaction sends 2\s*BNB$/);
    const check = page.getByTestId('check-value-matches');
    expect(await check.getAttribute('class')).toBe('check-failed');
    const words = (await check.textContent()) ?? '';
    expect(words).toMatch(/sends 2 BNB \(\$[\d.,]+K?\); expected 0\.2 BNB \(\$[\d.,]+K?\)/);
    expect(words).not.toMatch(/\d{10,}/);
    expect(await page.getByTestId('review-sign').isDisabled()).toBe(true);
    await shots(page, 'review-tampered-value');
    // Main refuses to prepare it too (its own wording is its own): the page's one failed load is that refusal.
    expect(await page.getByTestId('check-app-will-sign').getAttribute('class')).toBe('check-failed');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('progress').getAttribute('data-code'), WAIT).toBe('CHECK_FAILED');
    expect(errors).toEqual([
      'Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
    ]);
    // What the attacker ends with: nothing signed, nothing spent.
    expect(await f.client.getTransactionCount({ address: TRADER.address })).toBe(before.nonce);
    expect(await f.client.getBalance({ address: TRADER.address })).toBe(before.bnb);
    await page.close();
  });

  it('says who gets a split first buy, and "You get" only the signer’s part, or none of it', async () => {
    const { page, errors } = await appPage('/launch');
    const testId = (id: string) => page.getByTestId(id);
    await testId('launch-wizard').waitFor();
    const logo = join(mkdtempSync(join(tmpdir(), 'review-money-ui-')), 'logo.png');
    writeFileSync(logo, pngBytes(4));
    await testId('launch-image-input').setInputFiles(logo);
    await expect.poll(() => testId('launch-image').getAttribute('data-state'), WAIT).toBe('ready');
    await testId('launch-name').fill('Split Cat');
    await testId('launch-symbol').fill('SPLIT');
    await testId('launch-market-cap').fill('30');
    await testId('launch-first-buy').fill('0.1');
    await testId('launch-split-on').check();
    await testId('launch-split-wallet-0').fill(OTHER.address);
    await testId('launch-split-pct-0').fill('70');
    await testId('launch-split-add').click();
    await testId('launch-split-wallet-1').fill(TRADER.address);
    await testId('launch-split-pct-1').fill('30');
    await expect.poll(() => testId('launch-submit').isEnabled(), WAIT).toBe(true);
    await testId('launch-submit').click();
    await testId('review').waitFor();
    const shares = page.getByTestId('review-first-buy-share');
    await expect.poll(() => shares.count(), WAIT).toBe(2);
    expect(await shares.nth(0).getAttribute('data-wallet')).toBe(OTHER.address);
    expect(await shares.nth(0).getAttribute('data-signer')).toBe('false');
    expect(await shares.nth(0).textContent()).toMatch(/70% · at least [\d,.]+\s*SPLIT/);
    expect(await shares.nth(1).getAttribute('data-signer')).toBe('true');
    expect(await shares.nth(1).textContent()).toMatch(/^You · 30% · at least [\d,.]+\s*SPLIT/);
    const mine = BigInt((await testId('review-get').getAttribute('data-wei')) ?? '0');
    // The whole floor is in the launch summary; "You get" is 30% of it, rounded down as the factory rounds.
    const floor = BigInt(
      (await testId('review-launch-first-buy').locator('[data-wei]').nth(1).getAttribute('data-wei')) ?? '0',
    );
    expect(floor).toBeGreaterThan(0n);
    expect(mine).toBe((floor * 3000n) / 10_000n);
    expect(await testId('review-launch-split').textContent()).toContain('split among 2 wallets');
    await testId('warning-first-buy-to-0').waitFor();
    await shots(page, 'review-launch-split');
    await page.keyboard.press('Escape');
    await expect.poll(() => testId('review').count(), WAIT).toBe(0);

    // All of it to another wallet: no "You get" at all, and the review says so.
    await testId('launch-split-remove-1').click();
    await testId('launch-split-pct-0').fill('100');
    await expect.poll(() => testId('launch-submit').isEnabled(), WAIT).toBe(true);
    await testId('launch-submit').click();
    await testId('review').waitFor();
    await testId('review-get-none').waitFor();
    expect(await testId('review-get').count()).toBe(0);
    expect(await page.getByTestId('review-first-buy-share').count()).toBe(1);
    expect(await testId('review-launch-split').textContent()).toBe('all sent to one wallet, named above');
    await shots(page, 'review-launch-split-elsewhere');
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('dates at signing time', () => {
  it('heads the Permit2 approval with how far off its expiry is and its day, never an ISO date', async () => {
    // A buy paid in USDT: Permit2 may move the USDT (step 1), then the router may spend it through Permit2 (step 2).
    const { page, errors } = await appPage(`/token/${f.usdtToken.token}`);
    await buyOnPage(page, '5');
    await page.getByTestId('warning-unlimited-approval').waitFor();
    await page.getByTestId('tick-unlimited-approval').check();
    await page.getByTestId('review-sign').click();
    await expect.poll(() => page.getByTestId('review-step').textContent(), WAIT).toMatch(/^Step 2 of 3/);
    const title = (await page.getByTestId('review-title').textContent()) ?? '';
    expect(title).toMatch(/through Permit2, expiring in 30 days, \S.*\d{4}$/);
    expect(await page.getByTestId('warning-unlimited-approval').textContent()).toMatch(/until it expires in 30 days, /);
    const iso = /\d{4}-\d{2}-\d{2}T\d{2}:/;
    expect(title).not.toMatch(iso);
    expect(await page.getByTestId('review').textContent()).not.toMatch(iso);
    await shots(page, 'review-permit2-expiry');
    await page.getByTestId('review-reject').click();
    await expect.poll(() => page.getByTestId('progress').getAttribute('data-code'), WAIT).toBe('REJECTED');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('Inspect', () => {
  it('lists a failed check first: under the verdict, and at the top of its transaction', async () => {
    const response = await fetch(`${f.service.url}/build/buy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wallet: TRADER.address, token: f.bnbToken.token, amount: '0.3' }),
    });
    const build = (await response.json()) as { tx: { value: string } };
    const tampered = { ...build, tx: { ...build.tx, value: parseEther('3').toString() } };
    const { page, errors } = await openApp(browser, f.service.origin, '/inspect');
    await page.getByTestId('inspect-input').fill(JSON.stringify(tampered));
    await expect.poll(() => page.getByTestId('inspect-verdict').getAttribute('data-ok'), WAIT).toBe('false');
    const listed = page.getByTestId('inspect-failed-checks').locator('li');
    expect(await listed.count()).toBe(1);
    expect(await listed.first().getAttribute('data-testid')).toBe('inspect-failed-value-matches');
    expect(await listed.first().textContent()).toContain('The transaction');
    // In BNB and, with the app's BNB price, in dollars.
    await expect
      .poll(() => listed.first().textContent(), WAIT)
      .toMatch(/sends 3 BNB \(\$[\d.,]+K?\); expected 0\.3 BNB \(\$[\d.,]+K?\)/);
    const first = page.getByTestId('inspect-main').locator('li').first();
    expect(await first.getAttribute('data-testid')).toBe('inspect-check-value-matches');
    expect(await first.getAttribute('class')).toBe('check-failed');
    // The verdict and the failed check are on screen before any scrolling, at the smaller window too.
    await page.setViewportSize({ width: 1024, height: 700 });
    expect(await page.getByTestId('inspect-failed-checks').isVisible()).toBe(true);
    const box = await page.getByTestId('inspect-failed-checks').boundingBox();
    expect((box?.y ?? 1000) + (box?.height ?? 0)).toBeLessThan(700);
    await shots(page, 'inspect-failed-check');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('Activity', () => {
  it('shows what arrived after a buy, to the wei of the chain’s Transfer logs, not the floor', async () => {
    const { page, errors } = await appPage(`/token/${f.bnbToken.token}`);
    await buyOnPage(page, '0.25');
    expect(await approveUntilSettled(page)).toBe('done');
    const hash = (await page.getByTestId('progress-hash').getAttribute('data-hash')) as Hex;
    const receipt = await f.client.getTransactionReceipt({ hash });
    const arrived = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs })
      .filter((log) => isAddressEqual(log.address, f.bnbToken.token) && isAddressEqual(log.args.to, TRADER.address))
      .reduce((sum, log) => sum + log.args.value, 0n);
    expect(arrived).toBeGreaterThan(0n);
    await page.close();

    const activity = await appPage('/activity');
    const row = activity.page.locator(`[data-testid="activity-action"]`).filter({
      has: activity.page.locator(`[data-hash="${hash}"]`),
    });
    await expect
      .poll(() => row.getByTestId('activity-received').getAttribute('data-wei'), WAIT)
      .toBe(arrived.toString());
    expect(await row.getByTestId('activity-paid').getAttribute('data-wei')).toBe(parseEther('0.25').toString());
    expect(await row.textContent()).not.toContain('at least');
    await shots(activity.page, 'activity-after-buy');
    expect([...errors, ...activity.errors]).toEqual([]);
    await activity.page.close();
  });
});
