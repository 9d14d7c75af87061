import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { seriousViolations } from '../support/accessibility';
import { launchThroughApi, type ServiceDrivers, serviceDrivers } from '../support/serviceDrivers';
import { startTestService, type TestService } from '../support/startTestService';
import { APP_TOKEN, ARTIFACTS, inEveryLook, launchChromium, screenshot, webUiOptions } from '../support/webUi';

/**
 * The Watchlist and notifications in a real browser: a creator starred on a token's page, a launch of theirs made
 * through the service, and the page raising the browser's Notification for it (the permission granted in the
 * browser's context, each construction recorded in the page); clicking it opens the new token's page. Then the
 * Watchlist page with a token, its alert rule and the creator, and Settings' switches, in every look.
 */

const WAIT = { timeout: 20_000 };
const CREATOR = 3;
const creatorAddress = testAccounts()[CREATOR]?.address as Address;

let service: TestService;
let s: ServiceDrivers;
let browser: Browser;
let first: Address;
/** The logo every launch here names (a launch needs one), uploaded to the service's media store. */
let image: string;
/** A 2x2 PNG. */
const LOGO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFElEQVR42mNk+M9QzwAEjDAGNzYAAfEDAeGwRjQAAAAASUVORK5CYII=',
  'base64',
);

/** A launch by test account `account`, with the logo and a first buy, once the index has it. */
const launch = (account: number, name: string, symbol: string) =>
  launchThroughApi(service, s, account, { name, symbol, image, firstBuy: '0.5' });

/**
 * A page of the app with the run's token, in a context where notifications are allowed (or refused), recording each
 * Notification the page makes in `window.notes` so a test can read it and click it.
 */
async function openWithNotifications(path: string, allow: boolean): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    permissions: allow ? ['notifications'] : [],
  });
  await context.addInitScript(() => {
    const Real = window.Notification;
    const notes: Notification[] = [];
    class Recorded extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        notes.push(this);
      }
    }
    Object.defineProperty(window, 'notes', { value: notes });
    window.Notification = Recorded as typeof Notification;
  });
  if (allow) {
    // What a browser that allowed says. The context's grant is enough for Debian's Chromium, but the headless shell
    // the npm package carries (the CI's C-locale pass) still reads `denied` from Notification.permission after it,
    // while its requestPermission() answers `granted`.
    await context.addInitScript(() => {
      Object.defineProperty(Notification, 'permission', { get: () => 'granted' });
    });
  } else {
    // A browser that refused: Chromium's headless context answers `default`; the person's browser said no.
    await context.addInitScript(() => {
      Object.defineProperty(Notification, 'permission', { get: () => 'denied' });
      Notification.requestPermission = () => Promise.resolve('denied');
    });
  }
  const page = await context.newPage();
  await page.goto(`${service.origin}${path}#app=${APP_TOKEN}`);
  return page;
}

const notesOf = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { notes: Notification[] }).notes.map((note) => ({ title: note.title, body: note.body })),
  );

beforeAll(async () => {
  service = await startTestService(undefined, webUiOptions);
  s = await serviceDrivers(service);
  browser = await launchChromium();
  const uploaded = await fetch(`${service.url}/media/image`, {
    method: 'POST',
    body: new Uint8Array(LOGO),
    headers: { 'content-type': 'image/png' },
  });
  image = ((await uploaded.json()) as { uri: string }).uri;
  first = await launch(CREATOR, 'Night Owl', 'OWL');
});
afterAll(async () => {
  await browser?.close();
  await service?.dispose();
  rmSync(webUiOptions.settingsFile ?? '', { force: true });
});

describe('the watchlist in the browser', () => {
  it("notifies a watched creator's launch with the browser's Notification, and the click opens the token", async () => {
    const page = await openWithNotifications(`/token/${first}`, true);
    const star = page.getByTestId('star-creator');
    await expect.poll(() => star.getAttribute('data-starred'), WAIT).toBe('no');
    await star.click();
    await expect.poll(() => star.getAttribute('data-starred'), WAIT).toBe('yes');
    // The token's facts with its own star (not yet) and the creator's (starred).
    await inEveryLook(page, ({ width, colorScheme }) =>
      page.getByTestId('token-facts').screenshot({ path: join(ARTIFACTS, `token-stars-${width}-${colorScheme}.png`) }),
    );
    expect((await (await fetch(`${service.url}/watchlist`)).json()).creators).toMatchObject([
      { address: creatorAddress },
    ]);
    // Another creator's launch raises nothing; the watched creator's raises one.
    await launch(4, 'Stray Cat', 'STRAY');
    const next = await launch(CREATOR, 'Dawn Owl', 'DAWN');
    await expect
      .poll(() => notesOf(page), WAIT)
      .toEqual([
        {
          title: `${creatorAddress.slice(0, 6)}…${creatorAddress.slice(-4)} launched DAWN`,
          body: 'Dawn Owl (DAWN), by a creator you watch.',
        },
      ]);
    await page.evaluate(() =>
      (window as unknown as { notes: Notification[] }).notes[0]?.dispatchEvent(new Event('click')),
    );
    await expect.poll(() => page.getByTestId('token-page').getAttribute('data-token'), WAIT).toBe(next);
    expect(new URL(page.url()).pathname).toBe(`/token/${next}`);
    await page.context().close();
  });

  it('lists the starred token with its market and an alert rule set on the page, in every look', async () => {
    const page = await openWithNotifications(`/token/${first}`, true);
    const star = page.getByTestId('star-token');
    await expect.poll(() => star.getAttribute('data-starred'), WAIT).toBe('no');
    await star.click();
    await expect.poll(() => star.getAttribute('data-starred'), WAIT).toBe('yes');
    await page.getByTestId('nav-watchlist').click();
    const row = page.locator(`[data-testid="watched-token"][data-token="${first}"]`);
    await expect.poll(() => row.getByTestId('watched-cap').textContent(), WAIT).toMatch(/^\$\d/);
    expect(await row.getByTestId('watched-price').textContent()).toMatch(/^\$/);
    expect(await row.getByTestId('watched-alert').textContent()).toBe('No alert');

    // A bad figure gets the service's own answer; a good one is saved and shown as a trader reads it.
    await row.getByTestId('watched-alert-edit').click();
    await page.getByTestId('alert-metric-cap').click();
    await page.getByTestId('alert-figure').fill('12,000');
    await page.getByTestId('alert-save').click();
    await expect.poll(() => page.getByTestId('error').getAttribute('data-code'), WAIT).toBe('INVALID_AMOUNT');
    await page.getByTestId('alert-figure').fill('12000');
    await page.getByTestId('alert-save').click();
    await expect.poll(() => row.getByTestId('watched-alert').textContent(), WAIT).toMatch(/^Market cap above \$12K/);
    const stored = (await (await fetch(`${service.url}/watchlist`)).json()).tokens;
    expect(stored).toMatchObject([
      { address: first, alert: { metric: 'cap', direction: 'above', currency: 'usd', figure: '12000' } },
    ]);
    expect(['armed', 'fired']).toContain(stored[0].alert.state);
    await expect.poll(() => page.getByTestId('watched-creator').count(), WAIT).toBe(1);
    await expect
      .poll(() => page.getByTestId('watched-creator-launches').textContent(), WAIT)
      .toMatch(/OWL.*|DAWN.*OWL/);
    await inEveryLook(page, async ({ width, colorScheme }) => {
      await screenshot(page, `watchlist-${width}-${colorScheme}`);
      expect(await seriousViolations(page)).toEqual([]);
    });
    // The rule's form, open on the row.
    await row.getByTestId('watched-alert-edit').click();
    await page.getByTestId('alert-form').waitFor(WAIT);
    await inEveryLook(page, async ({ width, colorScheme }) => {
      await screenshot(page, `watchlist-alert-form-${width}-${colorScheme}`);
      expect(await seriousViolations(page)).toEqual([]);
    });
    await page.context().close();
  });

  it("shows Settings' switches, keeps a kind switched off, and says so when the browser refuses", async () => {
    const page = await openWithNotifications('/settings', false);
    const launchSwitch = page.getByTestId('alert-kind-launch-switch');
    await expect.poll(() => launchSwitch.getAttribute('aria-checked'), WAIT).toBe('true');
    await launchSwitch.click();
    await expect.poll(() => launchSwitch.getAttribute('aria-checked'), WAIT).toBe('false');
    expect((await (await fetch(`${service.url}/alerts/kinds`)).json()).launch).toBe(false);
    // Switched back on: the browser is asked, refuses, and the page says what to do.
    await launchSwitch.click();
    await expect.poll(() => launchSwitch.getAttribute('aria-checked'), WAIT).toBe('true');
    await page.getByTestId('notifications-blocked').waitFor(WAIT);
    const section = page.locator('#notifications');
    await inEveryLook(page, async ({ width, colorScheme }) => {
      await section.scrollIntoViewIfNeeded();
      await section.screenshot({ path: join(ARTIFACTS, `settings-notifications-${width}-${colorScheme}.png`) });
    });
    await page.context().close();
  });
});
