import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { rawCid } from '../../src-main/core/media/cid';
import { launchThroughApi, type ServiceDrivers, serviceDrivers } from '../support/serviceDrivers';
import { startTestService, type TestService } from '../support/startTestService';
import { ARTIFACTS, inEveryLook, launchChromium, openApp, screenshot, webUiOptions } from '../support/webUi';

/** A 2x2 PNG, so a loaded logo has a width. */
const LOGO = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFElEQVR42mNk+M9QzwAEjDAGNzYAAfEDAeGwRjQAAAAASUVORK5CYII=',
    'base64',
  ),
);
const WAIT = { timeout: 15_000 };

let service: TestService;
let s: ServiceDrivers;
let browser: Browser;
/** Launched with a logo, the three links, a description and a first buy. */
let owl: Address;
/** Launched after it at the same opening cap, with no first buy: newer, but a smaller cap. */
let plain: Address;

const launch = (account: number, body: Record<string, unknown>) => launchThroughApi(service, s, account, body);

const rowTokens = (page: Page) =>
  page.getByTestId('launch-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-token')));

beforeAll(async () => {
  service = await startTestService(undefined, webUiOptions);
  s = await serviceDrivers(service);
  browser = await launchChromium();
  const uploaded = (await (
    await fetch(`${service.url}/media/image`, { method: 'POST', body: LOGO, headers: { 'content-type': 'image/png' } })
  ).json()) as { uri: string };
  owl = await launch(3, {
    name: 'Night Owl',
    symbol: 'OWL',
    image: uploaded.uri,
    description: 'The owl that never sleeps.',
    website: 'https://owl.example',
    x: '@nightowl',
    telegram: 'owl_chat',
    firstBuy: '1',
  });
  plain = await launch(5, { name: 'Plain Cat', symbol: 'PCAT', image: uploaded.uri });
  // The logo and the details are read from the metadata after the launch is indexed.
  await vi.waitFor(
    async () => {
      const { body } = await s.api.get(`/tokens/${owl}`);
      expect(body.details).not.toBeNull();
    },
    { timeout: 15_000, interval: 100 },
  );
});
afterAll(async () => {
  await browser?.close();
  await service?.dispose();
  rmSync(webUiOptions.settingsFile ?? '', { force: true });
});

describe('GET /tokens/{address} and its trades', () => {
  it("answer the launch's logo, its metadata's details and its first buy", async () => {
    const token = await s.api.get(`/tokens/${owl}`);
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({
      image: `${service.origin}/media/${rawCid(LOGO)}`,
      details: {
        description: 'The owl that never sleeps.',
        website: 'https://owl.example',
        x: 'https://x.com/nightowl',
        telegram: 'https://t.me/owl_chat',
      },
    });
    expect(new Date(token.body.launchedAt).toISOString()).toBe(token.body.launchedAt);
    const { body } = await s.api.get(`/tokens/${owl}/trades`);
    expect(body.trades).toHaveLength(1);
    expect(body.trades[0]).toMatchObject({
      side: 'buy',
      firstBuy: true,
      trader: testAccounts()[3]?.address,
      pairWei: (10n ** 18n).toString(),
      referrer: null,
    });
    // 1% of the first buy is the site fee, as the FirstBuy event says.
    expect(body.trades[0].feeWei).toBe((10n ** 16n).toString());
    expect(BigInt(body.trades[0].tokenWei)).toBeGreaterThan(0n);
    expect((await s.api.get(`/tokens/${plain}/trades`)).body.trades).toEqual([]);
  });
});

describe('token page', () => {
  it("shows the launch's logo, description and links, and its first buy among the trades and in the chart", async () => {
    const { page, errors } = await openApp(browser, service.origin, `/token/${owl}`);
    await page.getByTestId('token-facts').waitFor();
    const logo = page.getByTestId('token-logo');
    await expect.poll(() => logo.getAttribute('src'), WAIT).toBe(`${service.origin}/media/${rawCid(LOGO)}`);
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await page.getByTestId('token-description').textContent()).toBe('The owl that never sleeps.');
    expect(await page.getByTestId('token-website').getAttribute('href')).toBe('https://owl.example');
    expect(await page.getByTestId('token-x').getAttribute('href')).toBe('https://x.com/nightowl');
    expect(await page.getByTestId('token-telegram').getAttribute('href')).toBe('https://t.me/owl_chat');
    for (const id of ['token-website', 'token-x', 'token-telegram']) {
      expect(await page.getByTestId(id).getAttribute('rel')).toContain('noopener');
    }

    const row = page.getByTestId('trade-row');
    await expect.poll(() => row.count(), WAIT).toBe(1);
    expect(await row.getAttribute('data-side')).toBe('buy');
    expect(await row.getAttribute('data-first-buy')).toBe('yes');
    expect(await row.getByTestId('trade-first-buy').textContent()).toBe('First buy');
    expect(await page.getByTestId('price-chart').getAttribute('data-points')).toBe('1');
    // The chart is lightweight-charts' canvas, drawn at the card's width.
    await expect
      .poll(() =>
        page
          .getByTestId('price-chart')
          .locator('canvas')
          .first()
          .evaluate((c: HTMLCanvasElement) => c.width),
      )
      .toBeGreaterThan(100);
    // With no public link base, sharing offers no link to this computer: the address, and no explorer on the devnet.
    expect(await page.getByTestId('token-share').getAttribute('data-referral')).toBe('no');
    expect(await page.getByTestId('token-share').getAttribute('data-link')).toBe('');
    await page.getByTestId('token-share').click();
    expect(await page.getByTestId('token-share-none-address').textContent()).toBe(owl);
    await page.getByTestId('token-share-none-no-explorer').waitFor();
    await page.getByTestId('token-share').click();
    await screenshot(page, 'token-first-buy');
    // The chart of one trade: a flat price with the last price's label among the axis's ticks.
    await inEveryLook(page, ({ width, colorScheme }) =>
      page.getByTestId('price-chart').screenshot({ path: join(ARTIFACTS, `token-chart-${width}-${colorScheme}.png`) }),
    );
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('launches list', () => {
  it('filters by the q the header search opens, and sorts by market cap', async () => {
    const { page, errors } = await openApp(browser, service.origin, '/');
    await expect.poll(() => rowTokens(page), WAIT).toEqual([plain, owl]);

    // The header's search for a name opens the list filtered by it.
    await page.getByTestId('header-search').fill('owl');
    await page.getByTestId('header-search').press('Enter');
    await expect.poll(() => new URL(page.url()).search).toBe('?q=owl');
    await expect.poll(() => rowTokens(page), WAIT).toEqual([owl]);
    expect(await page.getByTestId('launches-filter').inputValue()).toBe('owl');
    // A text nothing matches says so.
    await page.getByTestId('launches-filter').fill('nothing-like-it');
    await page.getByTestId('launches-no-match').waitFor();
    // An address matches too, whatever its case.
    await page.getByTestId('launches-filter').fill(plain.slice(2, 12).toLowerCase());
    await expect.poll(() => rowTokens(page), WAIT).toEqual([plain]);

    const opened = await openApp(browser, service.origin, '/?q=PCAT');
    await expect.poll(() => rowTokens(opened.page), WAIT).toEqual([plain]);
    await opened.page.close();

    await page.getByTestId('launches-filter').fill('');
    await expect.poll(() => rowTokens(page), WAIT).toEqual([plain, owl]);
    await page.getByTestId('sort-cap').click();
    expect(await page.getByTestId('sort-cap').getAttribute('aria-pressed')).toBe('true');
    // The first buy raised the owl's cap above the same opening cap.
    await expect.poll(() => rowTokens(page), WAIT).toEqual([owl, plain]);
    await expect
      .poll(() => page.getByTestId('launch-cap').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-ready'))))
      .toEqual(['yes', 'yes']);
    expect(await page.getByTestId('launch-change').first().textContent()).toMatch(/^[+−]?\d/);
    await page.getByTestId('sort-newest').click();
    await expect.poll(() => rowTokens(page), WAIT).toEqual([plain, owl]);

    // A launch made while the list is open arrives on top, highlighted for a moment; a click on its row opens it.
    const live = await s.launcher.launch({ creator: 6, saltSeed: 'token-page-live', name: 'Live Owl', symbol: 'LOWL' });
    expect(live.result).toBe('ok');
    const arrived = page.locator(`[data-testid="launch-row"][data-token="${live.token}"]`);
    await expect.poll(() => arrived.getAttribute('data-fresh'), WAIT).toBe('yes');
    expect(await rowTokens(page)).toEqual([live.token, plain, owl]);
    await expect.poll(() => arrived.getAttribute('data-fresh'), WAIT).toBeNull();
    await arrived.locator('td').nth(3).click();
    await page.getByTestId('token-page').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/token/${live.token}`);
    expect(errors).toEqual([]);
    await page.close();
  });
});
