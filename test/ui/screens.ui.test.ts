import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { describeViolations, seriousViolations, type Violation } from '../support/accessibility';
import { jsonInit } from '../support/jsonInit';
import type { TradingFixture } from '../support/tradingFixture';
import {
  type AppLook,
  ARTIFACTS,
  approveUntilSettled,
  importLocalKey,
  openApp,
  startTradingUi,
  stopTradingUi,
} from '../support/webUi';

/**
 * Every page of the app at the two window sizes a trader uses (a laptop, a half screen) in light and dark, as full-page
 * screenshots in test-results/screens/<page>-<width>-<theme>.png to look at, each with its window title checked and
 * axe-core's serious and critical findings failing the test.
 */

/** The signer the pages show: imported once through Settings, it signs the buy that fills the activity list. */
const TRADER = testAccounts()[8] as TestAccount;
/** A bot with an API key, which prepares the request the requests page lists. */
const BOT = testAccounts()[5] as TestAccount;
const WAIT = { timeout: 15_000, interval: 100 };
const APP = 'Launchpad Companion';

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
];
const THEMES = ['light', 'dark'] as const;

let f: TradingFixture;
let browser: Browser;
/** The BNB-paired token's symbol, which names its page. */
let symbol: string;
/** A buy built by the API, pasted into the inspector. */
let build: unknown;

async function api(path: string, init: RequestInit = {}) {
  const response = await fetch(`${f.service.url}${path}`, jsonInit(init));
  return { status: response.status, body: (await response.json()) as any };
}

/** A key for BOT, made by signing a key challenge as a bot would, and the buy it prepares for TRADER with it. */
async function preparedRequest(): Promise<void> {
  const challenge = await api(`/keys/challenge?address=${BOT.address}`);
  const signature = await privateKeyToAccount(BOT.privateKey).signMessage({ message: challenge.body.message });
  const created = await api('/keys', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ nonce: challenge.body.nonce, signature, label: 'screens bot' }),
  });
  expect(created.status).toBe(201);
  const intent = await api('/intents', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': created.body.key },
    body: JSON.stringify({ kind: 'prepare_buy', wallet: TRADER.address, token: f.bnbToken.token, amount: '0.05' }),
  });
  expect(intent.status).toBe(201);
}

/** The amount typed on the token page, quoted, ready to press Buy. */
async function buyQuoted(page: Page, amount: string): Promise<void> {
  await page.getByTestId('trade-amount').fill(amount);
  await expect.poll(() => page.getByTestId('trade-submit').isEnabled(), WAIT).toBe(true);
}

beforeAll(async () => {
  ({ f, browser } = await startTradingUi());
  symbol = (await api(`/tokens/${f.bnbToken.token}`)).body.symbol;
  build = (
    await api('/build/buy', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wallet: TRADER.address, token: f.bnbToken.token, amount: '0.3' }),
    })
  ).body;
});
afterAll(() => stopTradingUi({ f, browser }));

// expect.poll only runs inside a test: the screens' setup is the first test, and the screens below rely on it.
it('imports a signer through Settings, buys through the token page, and has a bot prepare a request', async () => {
  const { page } = await openApp(browser, f.service.origin, '/settings');
  await importLocalKey(page, f.service.origin, TRADER);
  await page.goto(`${f.service.origin}/token/${f.bnbToken.token}`);
  await buyQuoted(page, '0.1');
  await page.getByTestId('trade-submit').click();
  expect(await approveUntilSettled(page)).toBe('done');
  await page.close();
  await preparedRequest();
  await f.service.indexer.waitFor(await f.client.getBlockNumber({ cacheTime: 0 }));
});

interface Screen {
  /** The screenshot's name. */
  name: string;
  path: () => string;
  title: () => string;
  /** Waits until the page shows its data (not a loading state), and sets up what the screenshot is of. */
  ready: (page: Page) => Promise<void>;
  /** Console errors that are part of the page's flow (a 401 that means "sign in"), each in full. */
  expectedErrors?: string[];
  /** Leaves nothing behind for the next page (a review left open would stay pending in main). */
  done?: (page: Page) => Promise<void>;
}

const shown = (id: string) => (page: Page) => page.getByTestId(id).first().waitFor();

const SCREENS: Screen[] = [
  {
    name: 'launches',
    path: () => '/',
    title: () => `Launches · ${APP}`,
    ready: async (page) => {
      await expect.poll(() => page.getByTestId('launch-row').count(), WAIT).toBe(2);
      await expect
        .poll(() => page.getByTestId('launch-cap').evaluateAll((cells) => cells.map((c) => c.dataset.ready)), WAIT)
        .toEqual(['yes', 'yes']);
    },
  },
  {
    name: 'token',
    path: () => `/token/${f.bnbToken.token}`,
    title: () => `${symbol} · ${APP}`,
    ready: async (page) => {
      await page.getByTestId('token-facts').waitFor();
      await page.getByTestId('trade-row').first().waitFor();
      await page.getByTestId('balance-pair').waitFor();
    },
  },
  {
    name: 'review',
    path: () => `/token/${f.bnbToken.token}`,
    title: () => `${symbol} · ${APP}`,
    ready: async (page) => {
      await page.getByTestId('balance-pair').waitFor();
      await buyQuoted(page, '0.25');
      await page.getByTestId('trade-submit').click();
      await page.getByTestId('review').waitFor();
      await expect.poll(() => page.getByTestId('review-step').textContent(), WAIT).toBe('The buy');
    },
    done: async (page) => {
      await page.getByTestId('review-reject').click();
      await expect.poll(() => page.getByTestId('progress').getAttribute('data-stage'), WAIT).toBe('rejected');
    },
  },
  { name: 'launch', path: () => '/launch', title: () => `Launch a token · ${APP}`, ready: shown('launch-wizard') },
  { name: 'referrals', path: () => '/referrals', title: () => `Referrals · ${APP}`, ready: shown('referrer-standing') },
  {
    name: 'keys',
    path: () => '/keys',
    title: () => `API keys · ${APP}`,
    ready: async (page) => {
      await expect.poll(() => page.getByTestId('keys-list').getAttribute('data-state'), WAIT).toBe('signed-out');
    },
    // Listing the keys before signing in to this browser is answered 401, which is how the page learns to offer it.
    expectedErrors: ['Failed to load resource: the server responded with a status of 401 (Unauthorized)'],
  },
  {
    name: 'requests',
    path: () => '/requests',
    title: () => `Requests · ${APP}`,
    ready: async (page) => {
      await expect.poll(() => page.locator('[data-testid="request-row"][data-status="pending"]').count(), WAIT).toBe(1);
    },
  },
  { name: 'activity', path: () => '/activity', title: () => `Activity · ${APP}`, ready: shown('activity-row') },
  {
    name: 'inspect',
    path: () => '/inspect',
    title: () => `Inspect · ${APP}`,
    ready: async (page) => {
      await page.getByTestId('inspect-input').fill(JSON.stringify(build));
      await expect.poll(() => page.getByTestId('inspect-verdict').getAttribute('data-ok'), WAIT).toBe('true');
    },
  },
  { name: 'portfolio', path: () => '/portfolio', title: () => `Portfolio · ${APP}`, ready: shown('position-row') },
  // The trader launched nothing: the dashboard's empty state, which says how to start.
  { name: 'creator', path: () => '/creator', title: () => `Your launches · ${APP}`, ready: shown('creator-none') },
  { name: 'watchlist', path: () => '/watchlist', title: () => `Watchlist · ${APP}`, ready: shown('watchlist') },
  { name: 'settings', path: () => '/settings', title: () => `Settings · ${APP}`, ready: shown('local-key-state') },
  { name: 'not-found', path: () => '/no-such-page', title: () => `Page not found · ${APP}`, ready: shown('not-found') },
];

const SCREENS_DIR = join(ARTIFACTS, 'screens');

describe('every screen at each size and theme', () => {
  it.each(SCREENS)('$name: titled, screenshotted, and free of serious accessibility faults', async (screen) => {
    mkdirSync(SCREENS_DIR, { recursive: true });
    const found: Violation[] = [];
    for (const colorScheme of THEMES) {
      for (const viewport of SIZES) {
        const look: AppLook = { viewport, colorScheme };
        const { page, errors } = await openApp(browser, f.service.origin, screen.path(), look);
        // The signer's badge is up: every page is seen as a trader with a signer sees it.
        await expect
          .poll(() => page.getByTestId('signer-badge').textContent(), WAIT)
          .toContain(TRADER.address.slice(0, 6));
        await screen.ready(page);
        await expect.poll(() => page.title(), WAIT).toBe(screen.title());
        await page.screenshot({
          path: join(SCREENS_DIR, `${screen.name}-${viewport.width}-${colorScheme}.png`),
          fullPage: true,
        });
        for (const violation of await seriousViolations(page)) {
          const seen = found.find((v) => v.rule === violation.rule && v.target === violation.target);
          const where = `${colorScheme} ${viewport.width}`;
          if (seen) seen.where = [...(seen.where ?? []), where];
          else found.push({ ...violation, where: [where] });
        }
        await screen.done?.(page);
        expect(errors.filter((error) => !screen.expectedErrors?.includes(error))).toEqual([]);
        await page.close();
      }
    }
    expect(found, describeViolations(found)).toEqual([]);
  });

  it('shows the app icon as the favicon, served from the page origin the CSP allows', async () => {
    const { page } = await openApp(browser, f.service.origin, '/');
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(href).toMatch(/^\/assets\/.+\.svg$/);
    const icon = await fetch(`${f.service.origin}${href}`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toContain('image/svg+xml');
    await page.close();
  });
});
