import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rawCid } from '../../src-main/core/media/cid';
import { describeViolations, seriousViolations } from '../support/accessibility';
import { type ServiceDrivers, serviceDrivers } from '../support/serviceDrivers';
import { startTestService, type TestService } from '../support/startTestService';
import { ARTIFACTS, launchChromium, openApp, webUiOptions } from '../support/webUi';

/** A 2x2 PNG, so a loaded logo has a width. */
const LOGO = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFElEQVR42mNk+M9QzwAEjDAGNzYAAfEDAeGwRjQAAAAASUVORK5CYII=',
    'base64',
  ),
);
const SCREENS = join(ARTIFACTS, 'screens');
const LOOKS = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
].flatMap((viewport) => (['light', 'dark'] as const).map((colorScheme) => ({ viewport, colorScheme })));

let service: TestService;
let s: ServiceDrivers;
let browser: Browser;
let settingsFile: string;
/** Every request another person's launch host received. */
const asked: string[] = [];
const host = createServer((req, res) => {
  asked.push(req.url ?? '');
  if (req.url === '/metadata.json') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ name: 'Far', symbol: 'FAR', image: `http://127.0.0.1:${port()}/logo.png` }));
  } else res.writeHead(200, { 'content-type': 'image/png' }).end(LOGO);
});
const port = () => (host.address() as AddressInfo).port;

beforeAll(async () => {
  host.listen(0, '127.0.0.1');
  await once(host, 'listening');
  settingsFile = join(mkdtempSync(join(tmpdir(), 'companion-first-run-')), 'app-settings.json');
  // A first run: nothing has chosen about other people's logos, neither a flag nor a saved setting.
  const { thirdPartyFetches: _chosenByTheHarness, ...firstRun } = webUiOptions;
  service = await startTestService(undefined, { ...firstRun, settingsFile });
  s = await serviceDrivers(service);
  browser = await launchChromium();
  mkdirSync(SCREENS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await service?.dispose();
  host.close();
  rmSync(settingsFile, { force: true });
});

/** Waits for colours to settle (they ease in over 150 ms), then takes the screenshot. */
async function screenshot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(SCREENS, name) });
}

it('asks once on the first run, fetching nothing before the answer, and shows their logos once the person says so', async () => {
  const far = await s.launcher.launch({
    creator: 2,
    saltSeed: 'first-run-far',
    symbol: 'FAR',
    metadataURI: `http://127.0.0.1:${port()}/metadata.json`,
  });
  expect(far.result).toBe('ok');
  await service.indexer.waitFor(await service.chain.client.getBlockNumber({ cacheTime: 0 }));
  const row = (page: Page) => page.locator(`[data-testid="launch-row"][data-token="${far.token}"]`);

  // The question as the person sees it, at both window sizes, light and dark, over the launches list.
  for (const look of LOOKS) {
    const { page, errors } = await openApp(browser, service.origin, '/', look);
    const dialog = page.getByTestId('logos-choice-dialog');
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await dialog.textContent()).toMatch(/IP address and when you looked/);
    // Esc does not answer for the person.
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);
    await row(page).waitFor({ timeout: 15_000 });
    await screenshot(page, `logos-choice-${look.viewport.width}-${look.colorScheme}.png`);
    const found = await seriousViolations(page);
    expect(found, describeViolations(found)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }
  // Meanwhile the launch shows its placeholder, and nobody's server was asked anything.
  expect(asked).toEqual([]);

  const { page, errors } = await openApp(browser, service.origin, '/');
  expect(await row(page).locator('img').count()).toBe(0);
  await page.getByTestId('logos-choice-on').click();
  await page.getByTestId('logos-choice-dialog').waitFor({ state: 'detached' });
  expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual({ thirdPartyFetches: true });
  // The logo is fetched by the service, stored, and shown from this server, without reloading the page.
  const logo = row(page).locator('[data-testid="launch-logo"]');
  await expect
    .poll(() => logo.getAttribute('src'), { timeout: 20_000 })
    .toBe(`${service.origin}/media/${rawCid(LOGO)}`);
  expect(asked).toEqual(['/metadata.json', '/logo.png']);
  // Asked once: a page opened later does not ask again.
  await page.reload();
  await row(page).waitFor();
  await page.waitForTimeout(500);
  expect(await page.getByTestId('logos-choice-dialog').count()).toBe(0);
  expect(errors).toEqual([]);
  await page.close();
});

it('keeps the choice in a Settings switch that changes it at once', async () => {
  for (const look of LOOKS) {
    const { page, errors } = await openApp(browser, service.origin, '/settings', look);
    const box = page.getByTestId('settings-third-party-fetches');
    await expect.poll(() => box.isChecked(), { timeout: 15_000 }).toBe(true);
    await page.getByTestId('logos-switch-card').scrollIntoViewIfNeeded();
    await screenshot(page, `settings-logos-on-${look.viewport.width}-${look.colorScheme}.png`);
    const found = await seriousViolations(page);
    expect(found, describeViolations(found)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }
  const { page, errors } = await openApp(browser, service.origin, '/settings', LOOKS[1]);
  const box = page.getByTestId('settings-third-party-fetches');
  await expect.poll(() => box.isChecked(), { timeout: 15_000 }).toBe(true);
  await box.click();
  await expect.poll(() => box.isChecked()).toBe(false);
  await expect.poll(() => page.getByTestId('logos-switch-state').textContent()).toMatch(/^Off: nothing is downloaded/);
  expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual({ thirdPartyFetches: false });
  expect(await page.getByTestId('app-third-party-fetches').textContent()).toBe('not fetched');
  await page.getByTestId('logos-switch-card').scrollIntoViewIfNeeded();
  await screenshot(page, 'settings-logos-off-1440-dark.png');
  const found = await seriousViolations(page);
  expect(found, describeViolations(found)).toEqual([]);
  expect(errors).toEqual([]);
  await page.close();
});
