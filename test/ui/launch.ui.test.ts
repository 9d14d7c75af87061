import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { formatUsd } from '../../src-shared/format/numbers';
import { pngBytes } from '../support/pngImage';
import { startTestService, type TestService } from '../support/startTestService';
import {
  APP_TOKEN,
  approveReview,
  approveUntilSettled,
  importLocalKey,
  launchChromium,
  openApp,
  screenshot,
  webUiOptions,
} from '../support/webUi';

const ME = testAccounts()[9] as TestAccount;
/** A wallet without code: as a pair it answers neither decimals() nor symbol(). */
const NOT_A_TOKEN = testAccounts()[3]?.address as string;

let service: TestService;
let browser: Browser;
let files: string;
let logo: string;

beforeAll(async () => {
  service = await startTestService(undefined, webUiOptions);
  browser = await launchChromium();
  files = mkdtempSync(join(tmpdir(), 'launch-ui-'));
  logo = join(files, 'logo.png');
  writeFileSync(logo, pngBytes(8));
});
afterAll(async () => {
  await browser?.close();
  await service?.dispose();
  if (files) rmSync(files, { recursive: true, force: true });
});

/**
 * Console errors of a page with the address of the resource for network ones: Chromium logs every 4xx answer as
 * "Failed to load resource", and only answers a test provokes may be left out, each by status and exact address.
 */
function watchConsole(page: Page) {
  const seen: { text: string; url: string }[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') seen.push({ text: message.text(), url: message.location().url });
  });
  page.on('pageerror', (error) => seen.push({ text: error.message, url: '' }));
  const allowed: { status: number; url: string }[] = [];
  return {
    expect(status: number, url: string) {
      allowed.push({ status, url });
    },
    count: () => seen.length,
    unexpected: () =>
      seen.filter(
        (error) =>
          !allowed.some(
            (a) =>
              error.url === a.url &&
              error.text.startsWith(`Failed to load resource: the server responded with a status of ${a.status}`),
          ),
      ),
  };
}

const testId = (page: Page, id: string) => page.getByTestId(id);
const attribute = (page: Page, id: string, name: string) => () => testId(page, id).getAttribute(name);

/** BNB's dollar price as the app channel gives it to the UI (market.dollars). */
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

async function api(path: string) {
  const response = await fetch(`${service.url}${path}`);
  return { status: response.status, body: (await response.json()) as any };
}

/** Picks the logo file and waits until the service has stored it. */
async function pickLogo(page: Page) {
  await testId(page, 'launch-image-input').setInputFiles(logo);
  await expect.poll(attribute(page, 'launch-image', 'data-state')).toBe('ready');
}

describe('the launch wizard', () => {
  let page: Page;
  let watch: ReturnType<typeof watchConsole>;
  let openErrors: string[];

  beforeAll(async () => {
    const opened = await openApp(browser, service.origin, '/');
    page = opened.page;
    openErrors = opened.errors;
    watch = watchConsole(page);
  });
  afterAll(async () => {
    await page?.close();
  });
  afterEach(() => {
    expect(watch.unexpected()).toEqual([]);
    // openApp's list (by text alone) also covers the first load, before the watch began: nothing happened there.
    expect(openErrors.length).toBe(watch.count());
  });

  it('opens from the nav once a signer is set up', async () => {
    await importLocalKey(page, service.origin, ME);
    await testId(page, 'nav-launch').click();
    await testId(page, 'launch-wizard').waitFor();
    expect(await testId(page, 'launch-no-signer').count()).toBe(0);
    expect(await attribute(page, 'launch-missing', 'data-fields')()).toBe('image,name,symbol,marketCapPair');
    expect(await testId(page, 'launch-submit').isDisabled()).toBe(true);
  });

  it('refuses files that cannot be a logo, before and after uploading, and previews the one stored', async () => {
    const image = testId(page, 'launch-image');
    await testId(page, 'launch-image-input').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not an image'),
    });
    await expect.poll(() => image.getAttribute('data-state')).toBe('failed');
    expect(await image.getByTestId('error').getAttribute('data-code')).toBe('UNSUPPORTED_IMAGE');

    await testId(page, 'launch-image-input').setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.concat([pngBytes(8), Buffer.alloc(5 * 1024 * 1024)]),
    });
    await expect.poll(() => image.getByTestId('error').getAttribute('data-code')).toBe('IMAGE_TOO_LARGE');

    // Named and typed as a PNG, but the bytes are not one: only the service can tell.
    watch.expect(415, `${service.url}/media/image`);
    await testId(page, 'launch-image-input').setInputFiles({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('GIF? no, just text pretending'),
    });
    await expect.poll(() => image.getByTestId('error').getAttribute('data-code')).toBe('UNSUPPORTED_IMAGE');
    expect(await image.getAttribute('data-state')).toBe('failed');

    await pickLogo(page);
    expect(await testId(page, 'launch-image-preview').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await testId(page, 'launch-image-stored').getAttribute('data-uri')).toMatch(/^ipfs:\/\/b[a-z2-7]{58}$/);
    expect(await image.getByTestId('error').count()).toBe(0);
  });

  it('fills the token and market, draws the presets, and edits a custom shape by typing and by dragging', async () => {
    await testId(page, 'launch-name').fill('Wizard Cat');
    await testId(page, 'launch-symbol').fill('WZCAT');
    await testId(page, 'launch-description').fill('a cat that launches tokens');
    await testId(page, 'launch-website').fill('https://wizard.cat');
    await testId(page, 'launch-x').fill('https://x.com/wizardcat');
    await testId(page, 'launch-telegram').fill('https://t.me/wizardcat');
    await testId(page, 'launch-cap-unit-pair').click();
    await testId(page, 'launch-market-cap').fill('30');
    const settings = (await api('/settings')).body;
    expect(await testId(page, 'launch-supply').inputValue()).toBe(settings.launch.defaultSupply);
    expect(await testId(page, 'launch-pair').inputValue()).toBe('BNB');
    expect(Number(await testId(page, 'launch-fee-tier').inputValue())).toBe(settings.launch.defaultFeeTier);

    const bars = page.getByTestId('launch-shape-bar');
    expect(await bars.count()).toBe(1);
    await testId(page, 'launch-shape-stepped').click();
    expect(await bars.count()).toBe(4);
    expect(await bars.nth(0).getAttribute('data-to')).toBe('10');
    const labels = page.getByTestId('launch-shape-x-label');
    expect(await labels.count()).toBe(11);
    // The scale reads in market caps: from the opening cap (30 BNB in dollars) to about 100 times it.
    const bnbUsd = await bnbDollarPrice();
    expect(await labels.first().textContent()).toBe(formatUsd(30 * bnbUsd));
    expect(await labels.last().textContent()).toBe(formatUsd(30 * bnbUsd * 1.0001 ** 46_000));
    await screenshot(page, 'launch-wizard');

    // Custom starts from the preset on show; two ranges are removed and the rest retyped.
    await testId(page, 'launch-shape-custom').click();
    expect(await testId(page, 'launch-shape').getAttribute('data-mode')).toBe('custom');
    expect(await testId(page, 'launch-range-3').count()).toBe(1);
    await testId(page, 'launch-range-remove-3').click();
    await testId(page, 'launch-range-remove-2').click();
    expect(await testId(page, 'launch-range-2').count()).toBe(0);
    await testId(page, 'launch-range-0-toPct').fill('40');
    await testId(page, 'launch-range-1-fromPct').fill('40');
    await testId(page, 'launch-range-0-bps').fill('6000');
    await testId(page, 'launch-range-1-bps').fill('4000');
    expect(await testId(page, 'launch-shape-remainder').getAttribute('data-value')).toBe('0');
    expect(await testId(page, 'launch-range-1-toPct').inputValue()).toBe('100');
    expect(await bars.count()).toBe(2);
    expect(await bars.nth(1).getAttribute('data-from')).toBe('40');

    // Dragging the shared edge moves the end of one range and the start of the next together.
    const edge = testId(page, 'launch-shape-edge-0-to');
    const box = await edge.boundingBox();
    if (!box) throw new Error('the edge handle is not on screen');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 6 });
    await page.mouse.up();
    const dragged = Number(await testId(page, 'launch-range-0-toPct').inputValue());
    expect(dragged).toBeGreaterThan(40);
    expect(await testId(page, 'launch-range-1-fromPct').inputValue()).toBe(String(dragged));
    // And the arrow keys move it one per cent at a time.
    await edge.focus();
    await page.keyboard.press('ArrowLeft');
    expect(await testId(page, 'launch-range-0-toPct').inputValue()).toBe(String(dragged - 1));
    expect(await testId(page, 'launch-range-1-fromPct').inputValue()).toBe(String(dragged - 1));
    await testId(page, 'launch-range-0-toPct').fill('40');
    await testId(page, 'launch-range-1-fromPct').fill('40');

    await testId(page, 'launch-first-buy').fill('0.1');
    expect(await testId(page, 'launch-missing').count()).toBe(0);
    expect(await testId(page, 'launch-submit').isEnabled()).toBe(true);
    await screenshot(page, 'launch-shape-editor');
  });

  it('blocks the launch while the shares do not add to 10,000 bps', async () => {
    const submit = testId(page, 'launch-submit');
    await testId(page, 'launch-range-1-bps').fill('3000');
    expect(await testId(page, 'launch-shape-remainder').getAttribute('data-value')).toBe('1000');
    expect(await testId(page, 'launch-shape-error').getAttribute('data-code')).toBe('INVALID_SHAPE');
    expect(await submit.isDisabled()).toBe(true);
    await testId(page, 'launch-range-1-bps').fill('5000');
    expect(await testId(page, 'launch-shape-remainder').getAttribute('data-value')).toBe('-1000');
    expect(await submit.isDisabled()).toBe(true);
    await testId(page, 'launch-range-1-bps').fill('4000');
    expect(await testId(page, 'launch-shape-error').count()).toBe(0);
    expect(await submit.isEnabled()).toBe(true);
  });

  it("shows the service's refusal next to the field it names", async () => {
    const submit = testId(page, 'launch-submit');
    // Over the limit the page knows: said by the field, and nothing is sent.
    await testId(page, 'launch-symbol').fill('S'.repeat(33));
    expect(await attribute(page, 'launch-symbol-error', 'data-source')()).toBe('page');
    expect(await attribute(page, 'launch-symbol-error', 'data-code')()).toBe('INVALID_LAUNCH');
    expect(await submit.isDisabled()).toBe(true);
    await testId(page, 'launch-symbol').fill('WZCAT');

    // The service is the judge: a symbol made too long on the way is refused with field `symbol`, shown by the field.
    watch.expect(400, `${service.url}/build/launch`);
    await page.route(`${service.url}/build/launch`, async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}');
      await route.continue({ postData: JSON.stringify({ ...body, symbol: 'S'.repeat(33) }) });
    });
    await submit.click();
    await expect.poll(attribute(page, 'launch-symbol-error', 'data-source')).toBe('service');
    expect(await attribute(page, 'launch-symbol-error', 'data-code')()).toBe('INVALID_LAUNCH');
    expect(await testId(page, 'launch-refused').getByTestId('error').getAttribute('data-code')).toBe('INVALID_LAUNCH');
    await page.unroute(`${service.url}/build/launch`);
    // Editing the form clears the refusal.
    await testId(page, 'launch-symbol').fill('WZCATS');
    expect(await testId(page, 'launch-symbol-error').count()).toBe(0);
    expect(await testId(page, 'launch-refused').count()).toBe(0);
    await testId(page, 'launch-symbol').fill('WZCAT');

    // Only the service can tell that a well-formed address is not a token.
    await testId(page, 'launch-pair').selectOption('other');
    await testId(page, 'launch-pair-address').fill(NOT_A_TOKEN);
    await submit.click();
    await expect.poll(attribute(page, 'launch-pair-error', 'data-code')).toBe('UNSUPPORTED_PAIR');
    expect(await attribute(page, 'launch-pair-error', 'data-source')()).toBe('service');
    await testId(page, 'launch-pair').selectOption('BNB');
    expect(await testId(page, 'launch-pair-error').count()).toBe(0);
  });

  it('builds the launch, shows what was built, and stops at the review screen, where Reject ends it', async () => {
    await testId(page, 'launch-submit').click();
    await testId(page, 'review').waitFor();
    expect(await testId(page, 'review-title').textContent()).toContain('WZCAT');
    expect(await attribute(page, 'launch-build-token', 'data-address')()).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(Number(await attribute(page, 'launch-build-cap', 'data-value')())).toBeGreaterThan(0);
    expect(Number.isFinite(Number(await attribute(page, 'launch-build-drift', 'data-value')()))).toBe(true);
    expect(BigInt((await attribute(page, 'launch-build-cost', 'data-wei')()) ?? '0')).toBeGreaterThan(0n);
    await testId(page, 'review-reject').click();
    await expect.poll(attribute(page, 'progress', 'data-stage')).toBe('rejected');
    expect(await testId(page, 'review').count()).toBe(0);
  });
});

describe('launching through the review screen', () => {
  it('signs and sends the launch, opens the new token, finds it in the list, buys it and sells it', async () => {
    const { page } = await openApp(browser, service.origin, '/launch');
    const watch = watchConsole(page);
    try {
      await expect.poll(() => testId(page, 'signer-badge').textContent()).toContain(ME.address.slice(0, 6));
      await pickLogo(page);
      await testId(page, 'launch-name').fill('Review Cat');
      await testId(page, 'launch-symbol').fill('RVCAT');
      await testId(page, 'launch-market-cap').fill('30');
      await testId(page, 'launch-shape-stepped').click();
      await testId(page, 'launch-first-buy').fill('0.1');
      await testId(page, 'launch-submit').click();
      await approveReview(page);
      // Once the launch is confirmed ('done') the success screen leads on to the new token.
      await testId(page, 'launch-success').waitFor({ timeout: 30_000 });
      await testId(page, 'launch-success-open').click();
      await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toMatch(/^\/token\/0x/);
      const token = /\/token\/(0x[0-9a-fA-F]{40})$/.exec(new URL(page.url()).pathname)?.[1];
      expect(token).toMatch(/^0x[0-9a-fA-F]{40}$/);
      await expect
        .poll(async () => {
          const answer = await api(`/tokens/${token}`);
          return [answer.status, answer.body.symbol];
        })
        .toEqual([200, 'RVCAT']);

      // The new token is in the launches list; from there, buy it, then sell some back (Permit2 approvals first).
      await testId(page, 'nav-launches').click();
      const row = page.locator(`[data-testid="launch-row"][data-token="${token}"]`);
      await row.waitFor({ timeout: 15_000 });
      await row.locator('a').first().click();
      const tokenBalance = async () => BigInt((await testId(page, 'balance-token').getAttribute('data-wei')) ?? '0');
      await testId(page, 'balance-token').waitFor({ timeout: 15_000 });
      const beforeBuy = await tokenBalance();
      await testId(page, 'trade-amount').fill('0.05');
      await testId(page, 'quote').waitFor({ timeout: 15_000 });
      await testId(page, 'trade-submit').click();
      expect(await approveUntilSettled(page)).toBe('done');
      // The balances are read again once the buy settles: wait for the new figure before selling from it.
      await expect.poll(tokenBalance, { timeout: 15_000 }).toBeGreaterThan(beforeBuy);
      const held = await tokenBalance();
      await testId(page, 'trade-side-sell').click();
      await testId(page, 'trade-exact-in').click();
      await testId(page, 'trade-amount').fill('1000');
      await testId(page, 'quote').waitFor({ timeout: 15_000 });
      await testId(page, 'trade-submit').click();
      expect(await approveUntilSettled(page)).toBe('done');
      await expect.poll(tokenBalance, { timeout: 15_000 }).toBe(held - 1000n * 10n ** 18n);
      // The token page may ask before the indexer has the new block: that one refusal is part of the flow.
      watch.expect(400, `${service.url}/tokens/${token}`);
      expect(watch.unexpected()).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
