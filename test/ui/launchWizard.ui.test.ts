import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { formatUsd } from '../../src-shared/format/numbers';
import { pngBytes } from '../support/pngImage';
import { startTestService, type TestService } from '../support/startTestService';
import {
  APP_TOKEN,
  ARTIFACTS,
  approveReview,
  importLocalKey,
  inEveryLook,
  launchChromium,
  openApp,
  screenshot,
  webUiOptions,
} from '../support/webUi';

const ME = testAccounts()[8] as TestAccount;

let service: TestService;
let browser: Browser;
let files: string;
let logo: string;
let page: Page;

beforeAll(async () => {
  service = await startTestService(undefined, webUiOptions);
  browser = await launchChromium();
  files = mkdtempSync(join(tmpdir(), 'launch-wizard-ui-'));
  logo = join(files, 'logo.png');
  writeFileSync(logo, pngBytes(4));
  page = (await openApp(browser, service.origin, '/')).page;
});
afterAll(async () => {
  await page?.close();
  await browser?.close();
  await service?.dispose();
  if (files) rmSync(files, { recursive: true, force: true });
});

const testId = (id: string) => page.getByTestId(id);

/** BNB's dollar price as the app channel gives it to the UI. */
async function bnbDollarPrice(): Promise<number> {
  const response = await fetch(`${service.origin}/app/market.dollars`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${APP_TOKEN}` },
    body: '{}',
  });
  const { result } = (await response.json()) as { result: { currencies: { symbol: string; usdPerUnit: number }[] } };
  const bnb = result.currencies.find((c) => c.symbol === 'BNB')?.usdPerUnit;
  if (!bnb) throw new Error('no dollar price of BNB');
  return bnb;
}

describe('the launch wizard in market-cap terms', () => {
  it('opens with a signer set up', async () => {
    await importLocalKey(page, service.origin, ME);
    await testId('nav-launch').click();
    await testId('launch-wizard').waitFor();
  });

  it('converts the cap when its unit switches between BNB and dollars, at the service dollar price', async () => {
    const bnbUsd = await bnbDollarPrice();
    await testId('launch-cap-unit-pair').click();
    await testId('launch-market-cap').fill('30');
    await testId('launch-cap-unit-usd').click();
    expect(await testId('launch-cap-unit-usd').getAttribute('aria-pressed')).toBe('true');
    const usd = Number(await testId('launch-market-cap').inputValue());
    expect(Math.abs(usd - 30 * bnbUsd)).toBeLessThanOrEqual(0.005);
    expect(await testId('launch-cap-other').textContent()).toContain('30 BNB');
    await testId('launch-cap-unit-pair').click();
    expect(Number(await testId('launch-market-cap').inputValue())).toBeCloseTo(30, 4);
    // The preview row shows the cap in dollars, as the list will.
    expect(await testId('launch-preview-cap').textContent()).toBe(formatUsd(30 * bnbUsd));
  });

  it('reads the shape editor in dollar market caps, from the opening cap up', async () => {
    const bnbUsd = await bnbDollarPrice();
    await testId('launch-shape-stepped').click();
    await testId('launch-shape-custom').click();
    const labels = page.getByTestId('launch-shape-x-label');
    expect(await labels.first().textContent()).toBe(formatUsd(30 * bnbUsd));
    for (const label of await labels.allTextContents()) expect(label).toMatch(/^\$/);
    const first = await testId('launch-range-0-prices').textContent();
    expect(first).toBe(`${formatUsd(30 * bnbUsd)} → ${formatUsd(30 * bnbUsd * 1.0001 ** 4600)}`);
    await screenshot(page, 'launch-wizard-caps');
    // Ticks are only in the details fold.
    expect(await testId('launch-shape-ticks').getAttribute('open')).toBeNull();
  });

  it('keeps the draft through a reload, and Start over clears it', async () => {
    await testId('launch-image-input').setInputFiles(logo);
    await expect.poll(() => testId('launch-image').getAttribute('data-state')).toBe('ready');
    const uri = await testId('launch-image-stored').getAttribute('data-uri');
    await testId('launch-name').fill('Kept Cat');
    await testId('launch-symbol').fill('KEPT');
    await testId('launch-first-buy').fill('0.2');
    await testId('launch-range-0-bps').fill('3000');
    await page.reload();
    await testId('launch-wizard').waitFor();
    expect(await testId('launch-name').inputValue()).toBe('Kept Cat');
    expect(await testId('launch-symbol').inputValue()).toBe('KEPT');
    expect(await testId('launch-market-cap').inputValue()).toBe('30');
    expect(await testId('launch-first-buy').inputValue()).toBe('0.2');
    expect(await testId('launch-shape').getAttribute('data-mode')).toBe('custom');
    expect(await testId('launch-range-0-bps').inputValue()).toBe('3000');
    // The logo comes back by the link the service stored it at, not as bytes.
    expect(await testId('launch-image').getAttribute('data-state')).toBe('ready');
    expect(await testId('launch-image-stored').getAttribute('data-uri')).toBe(uri);
    expect(await testId('launch-image-preview').getAttribute('src')).toMatch(/\/media\//);

    await testId('launch-start-over').click();
    expect(await testId('launch-name').inputValue()).toBe('');
    await page.reload();
    await testId('launch-wizard').waitFor();
    expect(await testId('launch-name').inputValue()).toBe('');
    expect(await testId('launch-image').getAttribute('data-state')).toBe('none');
  });

  it('launches through the review, which reads the launch, and ends on a success screen with the logo and links', async () => {
    await testId('launch-image-input').setInputFiles(logo);
    await expect.poll(() => testId('launch-image').getAttribute('data-state')).toBe('ready');
    await testId('launch-name').fill('Done Cat');
    await testId('launch-symbol').fill('DONE');
    await testId('launch-market-cap').fill('30');
    await testId('launch-first-buy').fill('0.1');
    await testId('launch-submit').click();
    await testId('review').waitFor();
    const summary = testId('review-launch');
    expect(await summary.getByTestId('review-launch-cap').textContent()).toContain('BNB');
    expect(await summary.getByTestId('review-launch-cap').textContent()).toContain('$');
    expect(await summary.getByTestId('review-launch-ranges').textContent()).toMatch(/\$.+→ no cap/);
    const pct = Number(await summary.getByTestId('review-launch-first-buy').getAttribute('data-pct'));
    expect(pct).toBeGreaterThan(0);
    expect(pct).toBeLessThan(100);
    expect(await summary.getByTestId('review-launch-gas').textContent()).toMatch(/BNB.*\$/);
    await screenshot(page, 'launch-review-summary');
    await approveReview(page);
    await testId('launch-success').waitFor({ timeout: 30_000 });
    await screenshot(page, 'launch-success');
    const token = await testId('launch-success').getAttribute('data-token');
    expect(token).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(await testId('launch-success-logo').getAttribute('src')).toMatch(/^data:image\/png/);
    expect(await testId('launch-success-name').textContent()).toContain('Done Cat');
    expect(await testId('launch-success-hash').inputValue()).toMatch(/^0x[0-9a-f]{64}$/);
    // No public link base: no link to this computer or the app's scheme is offered, but the address and why.
    expect(await testId('launch-success-share').count()).toBe(0);
    expect(await testId('launch-success-no-link-address').textContent()).toBe(token);
    expect(await testId('launch-success-no-link-why').textContent()).toContain('public base of shared links');
    await testId('launch-success-no-link-no-explorer').waitFor();
    expect(await testId('launch-success').innerHTML()).not.toMatch(/127\.0\.0\.1|localhost|launchpad-companion:/);
    await inEveryLook(page, ({ width, colorScheme }) =>
      page.screenshot({
        path: join(ARTIFACTS, 'screens', `launch-success-no-link-base-${width}-${colorScheme}.png`),
        fullPage: true,
      }),
    );
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
    // A successful launch clears the draft.
    await page.reload();
    await testId('launch-wizard').waitFor();
    expect(await testId('launch-name').inputValue()).toBe('');
  });
});
