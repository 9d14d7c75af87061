import { once } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { Address } from 'viem';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { HEADLESS_DEFAULTS, readConfig } from '../../src-main/config/readConfig';
import { rawCid } from '../../src-main/core/media/cid';
import { type ServiceDrivers, serviceDrivers } from '../support/serviceDrivers';
import { startTestService, type TestService } from '../support/startTestService';
import { ARTIFACTS, EVERY_LOOK, launchChromium, openApp, webUiOptions } from '../support/webUi';

/** A 2x2 PNG, so a loaded logo has a width. */
const LOGO = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFElEQVR42mNk+M9QzwAEjDAGNzYAAfEDAeGwRjQAAAAASUVORK5CYII=',
    'base64',
  ),
);
const OWN = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/** The log file the Settings screen points to (the service only shows it; the entry's logger writes it). */
const LOG_FILE = join(tmpdir(), 'companion-ui-logs', 'companion.log');

let service: TestService;
let s: ServiceDrivers;
let browser: Browser;
/** Where another person's launch keeps its metadata and logo; it records who asked. */
const asked: string[] = [];
const host = createServer((req, res) => {
  asked.push(`${req.url} ${req.headers['user-agent'] ?? ''}`);
  if (req.url === '/metadata.json') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ name: 'Far', symbol: 'FAR', image: `http://127.0.0.1:${port()}/logo.png` }));
  } else res.writeHead(200, { 'content-type': 'image/png' }).end(LOGO);
});
const port = () => (host.address() as AddressInfo).port;

beforeAll(async () => {
  host.listen(0, '127.0.0.1');
  await once(host, 'listening');
  service = await startTestService(undefined, { ...webUiOptions, thirdPartyFetches: true, logFile: LOG_FILE });
  s = await serviceDrivers(service);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.dispose();
  host.close();
  rmSync(webUiOptions.settingsFile ?? '', { force: true });
});

it('shows every logo from this server only: the uploaded one and another person, fetched and stored first', async () => {
  const far = await s.launcher.launch({
    creator: 2,
    saltSeed: 'far-logo',
    symbol: 'FAR',
    metadataURI: `http://127.0.0.1:${port()}/metadata.json`,
  });
  expect(far.result).toBe('ok');
  const uploaded = (await (
    await fetch(`${service.url}/media/image`, { method: 'POST', body: OWN, headers: { 'content-type': 'image/png' } })
  ).json()) as { uri: string };
  const wallet = testAccounts()[3]?.address as Address;
  const built = await s.api.post('/build/launch', {
    wallet,
    name: 'Own',
    symbol: 'OWN',
    marketCapPair: '10',
    image: uploaded.uri,
  });
  expect(built.status, JSON.stringify(built.body)).toBe(200);
  await service.indexer.waitFor((await s.api.signAndSend(3, built.body.tx)).blockNumber);
  const expected = {
    [far.token as string]: `${service.origin}/media/${rawCid(LOGO)}`,
    [built.body.token as string]: `${service.origin}/media/${rawCid(OWN)}`,
  };
  await vi.waitFor(
    async () => {
      const { body } = await s.api.get('/launches?limit=10');
      const images = Object.fromEntries(
        body.launches.map((launch: { token: string; image: string }) => [launch.token, launch.image]),
      );
      expect(images).toEqual(expected);
    },
    { timeout: 15_000, interval: 100 },
  );
  const fetchedBeforePage = asked.length;

  const { page, errors } = await openApp(browser, service.origin, '/');
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  const imgSrc = csp
    ?.split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith('img-src'));
  expect(imgSrc).toBe("img-src 'self' data:");
  for (const [token, src] of Object.entries(expected)) {
    const logo = page.locator(`[data-testid="launch-row"][data-token="${token}"] [data-testid="launch-logo"]`);
    await expect.poll(() => logo.getAttribute('src'), { timeout: 15_000 }).toBe(src);
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  }
  // The browser never went to the other person's host: only the service did, before the page opened.
  expect(asked.length).toBe(fetchedBeforePage);
  expect(asked.some((line) => /Chrome/.test(line))).toBe(false);
  expect(errors).toEqual([]);
});

it('has a Settings switch for third-party fetches that applies at once and is kept for the next start', async () => {
  const { page, errors } = await openApp(browser, service.origin, '/settings');
  await expect.poll(() => page.getByTestId('app-third-party-fetches').textContent()).toBe('fetched');
  const box = page.getByTestId('settings-third-party-fetches');
  expect(await box.isChecked()).toBe(true);
  await box.click();
  await expect.poll(() => box.isChecked()).toBe(false);
  await expect.poll(() => page.getByTestId('app-third-party-fetches').textContent()).toBe('not fetched');
  const saved = JSON.parse(readFileSync(webUiOptions.settingsFile ?? '', 'utf8')) as { thirdPartyFetches?: boolean };
  expect(saved.thirdPartyFetches).toBe(false);
  // What the next start reads from it.
  expect(
    readConfig({
      args: [],
      env: { APP_SETTINGS: webUiOptions.settingsFile ?? '' },
      entry: 'headless',
      defaults: HEADLESS_DEFAULTS,
    }).thirdPartyFetches,
  ).toBe(false);
  expect(errors).toEqual([]);
});

it('shows in Settings where the log file is, with a button that copies its path', async () => {
  const { page, errors } = await openApp(browser, service.origin, '/settings');
  await expect.poll(() => page.getByTestId('app-log-file').textContent()).toBe(LOG_FILE);
  const copy = page.getByTestId('app-log-file-copy');
  await copy.click();
  // Copied, or (where the browser allows no clipboard) offered selected in a field to copy by hand.
  await expect.poll(() => copy.getAttribute('data-copy-state')).toMatch(/^(copied|manual)$/);
  if ((await copy.getAttribute('data-copy-state')) === 'manual') {
    expect(await page.getByTestId('app-log-file-copy-text').inputValue()).toBe(LOG_FILE);
  }
  expect(errors).toEqual([]);
  await page.close();
  // The row as a person sees it, at both window sizes, light and dark.
  for (const { width, height, colorScheme } of EVERY_LOOK) {
    const look = await openApp(browser, service.origin, '/settings', { viewport: { width, height }, colorScheme });
    const row = look.page.getByTestId('app-log-file');
    await expect.poll(() => row.textContent()).toBe(LOG_FILE);
    await row.scrollIntoViewIfNeeded();
    // Colours ease in over 150 ms: the screenshot shows them settled, not mid-transition.
    await look.page.waitForTimeout(400);
    await look.page.screenshot({ path: join(ARTIFACTS, `settings-log-file-${width}-${colorScheme}.png`) });
    expect(look.errors).toEqual([]);
    await look.page.close();
  }
});
