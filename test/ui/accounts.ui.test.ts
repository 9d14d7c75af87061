import type { Browser, Page } from 'playwright-core';
import { type Address, zeroHash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestAccount, testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { ReferralVault } from '../../src-main/chain/generated/contracts';
import { jsonInit } from '../support/jsonInit';
import { type ServiceDrivers, serviceDrivers } from '../support/serviceDrivers';
import { startTestService, type TestService } from '../support/startTestService';
import {
  APP_TOKEN,
  approveReview,
  importLocalKey,
  launchChromium,
  openApp,
  screenshot,
  webUiOptions,
} from '../support/webUi';

/** The service's and the devnet's clock, moved a week on to close a week of the lifetime share. */
let offsetMs = 0;
const now = () => Date.now() + offsetMs;
const WEEK_MS = 7 * 24 * 3600 * 1000;

const ME = testAccounts()[10] as TestAccount;
/** Where this run's shared links point: a public site serving the app's pages, under a path. */
const PUBLIC_LINK_BASE = 'https://pad.example/app';
/** A wallet that trades through ME's link, binding itself to ME, so ME earns a lifetime share. */
const TRADER = 8;

let service: TestService;
let s: ServiceDrivers;
let browser: Browser;
let token: Address;

beforeAll(async () => {
  // Started with --allow-warned-signing: a bot's launch paying elsewhere is signed here once each warning is ticked (a
  // server without it refuses such requests: test/ui/review.ui.test.ts).
  service = await startTestService(undefined, {
    ...webUiOptions,
    publicLinkBase: PUBLIC_LINK_BASE,
    now,
    allowWarnedSigning: true,
  });
  s = await serviceDrivers(service);
  const launched = await s.launcher.launch({ creator: 2, saltSeed: 'accounts-ui' });
  if (launched.result !== 'ok') throw new Error(`launch failed: ${launched.result}`);
  token = launched.token;
  botKey = await keyOf(BOT, BOT_KEY_LABEL);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.dispose();
});

/**
 * Console errors of a page, with the address of the resource for network ones: Chromium logs every 4xx answer as
 * "Failed to load resource", and only the answers a test expects may be left out, each by status and exact address.
 */
function watchConsole(page: Page) {
  const seen: { text: string; url: string }[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') seen.push({ text: message.text(), url: message.location().url });
  });
  page.on('pageerror', (error) => seen.push({ text: error.message, url: '' }));
  const expected: { status: number; url: string }[] = [];
  return {
    /** An answer of this status from exactly this address is part of the flow (e.g. 401 before signing in). */
    expect(status: number, url: string) {
      expected.push({ status, url });
    },
    /** Every error seen since the watch began. */
    count() {
      return seen.length;
    },
    unexpected() {
      return seen.filter(
        (error) =>
          !expected.some(
            (allowed) =>
              error.url === allowed.url &&
              error.text.startsWith(`Failed to load resource: the server responded with a status of ${allowed.status}`),
          ),
      );
    },
  };
}

const testId = (page: Page, id: string) => page.getByTestId(id);
const attribute = (page: Page, id: string, name: string) => () => testId(page, id).getAttribute(name);

async function api(path: string, init: RequestInit = {}) {
  const response = await fetch(`${service.url}${path}`, jsonInit(init));
  return { status: response.status, body: (await response.json()) as any };
}

/** The bot that prepares requests for ME: its wallet, and the key it asks with (made in beforeAll). */
const BOT = testAccounts()[5] as TestAccount;
const BOT_KEY_LABEL = 'ui test bot';
let botKey: string;

/** A live key of `account`, made by signing a key challenge as a bot would. */
async function keyOf(account: TestAccount, label: string): Promise<string> {
  const challenge = await api(`/keys/challenge?address=${account.address}`);
  const signature = await privateKeyToAccount(account.privateKey).signMessage({ message: challenge.body.message });
  const created = await api('/keys', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ nonce: challenge.body.nonce, signature, label }),
  });
  expect(created.status).toBe(201);
  return created.body.key as string;
}

/** A prepared request needs a known source: the bot asks with its key, and follows the request with it. */
async function prepareBuy(amount: string) {
  const created = await api('/intents', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': botKey },
    body: JSON.stringify({ kind: 'prepare_buy', wallet: ME.address, token, amount }),
  });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

/** The request as the bot that asked for it reads it. */
const readIntent = async (id: string) => (await api(`/intents/${id}`, { headers: { 'x-api-key': botKey } })).body;

const row = (page: Page, id: string) => page.locator(`[data-testid="request-row"][data-intent-id="${id}"]`);

describe('referrals, API keys and prepared requests pages', () => {
  let page: Page;
  let consoleErrors: ReturnType<typeof watchConsole>;
  let openAppErrors: string[];

  beforeAll(async () => {
    const opened = await openApp(browser, service.origin, '/');
    page = opened.page;
    openAppErrors = opened.errors;
    consoleErrors = watchConsole(page);
    // Before signing in, the keys list is refused (no credentials): the page turns that into a sign-in prompt.
    consoleErrors.expect(401, `${service.url}/keys?wallet=${ME.address}`);
  });
  afterAll(async () => {
    await page?.close();
  });
  afterEach(() => {
    expect(consoleErrors.unexpected()).toEqual([]);
    // openApp's list (by text alone) also covers the first load, before the watch began: nothing happened there.
    expect(openAppErrors.length).toBe(consoleErrors.count());
  });

  it('leaves the wallet unregistered when the referral challenge is rejected on the review screen', async () => {
    await importLocalKey(page, service.origin, ME);
    await testId(page, 'nav-referrals').click();
    await expect.poll(attribute(page, 'referrer-registered', 'data-value')).toBe('no');
    await testId(page, 'referrer-register').click();
    await testId(page, 'review').waitFor();
    expect(await testId(page, 'review-message').textContent()).toContain(ME.address);
    await testId(page, 'review-reject').click();
    await testId(page, 'referrer-register-rejected').waitFor();
    expect(await testId(page, 'referrer-registered').getAttribute('data-value')).toBe('no');
    expect((await api(`/referrals/${ME.address}`)).body.registered).toBe(false);
  });

  it('registers as a referrer through the review screen, and gives links to copy', async () => {
    await testId(page, 'referrer-register').click();
    await testId(page, 'review').waitFor();
    expect(await testId(page, 'review-message').textContent()).toContain(ME.address);
    await approveReview(page);
    await expect.poll(attribute(page, 'referrer-registered', 'data-value')).toBe('yes');
    expect(await testId(page, 'referrer-eligible').getAttribute('data-value')).toBe('yes');
    expect(await testId(page, 'referrer-register').count()).toBe(0);
    expect((await api(`/referrals/${ME.address}`)).body.registered).toBe(true);

    const launchLink = await testId(page, 'referral-link-launch-value').textContent();
    expect(new URL(launchLink ?? '').searchParams.get('r')).toBe(ME.address);
    // Links are made under the configured public base, never under this machine's loopback address.
    expect(launchLink).toBe(`${PUBLIC_LINK_BASE}/launch?r=${ME.address}`);
    expect(await testId(page, 'referral-links').textContent()).not.toMatch(/127\.0\.0\.1|localhost/);
    // A token's link without editing {token}: picked from the launches, or pasted.
    await testId(page, 'referral-token-pick').selectOption(token);
    await expect
      .poll(() => testId(page, 'referral-link-token-value').textContent())
      .toBe(`${PUBLIC_LINK_BASE}/token/${token}?r=${ME.address}`);
    await testId(page, 'referral-token-pick').selectOption('');
    await testId(page, 'referral-token-address').fill(token.toLowerCase());
    await expect
      .poll(() => testId(page, 'referral-link-token-value').textContent())
      .toBe(`${PUBLIC_LINK_BASE}/token/${token.toLowerCase()}?r=${ME.address}`);
    await testId(page, 'referral-path').fill(`/token/${token}`);
    await testId(page, 'referral-path-make').click();
    const picked = new URL((await testId(page, 'referral-link-picked-value').textContent()) ?? '');
    expect(picked.toString().startsWith(`${PUBLIC_LINK_BASE}/`)).toBe(true);
    expect(picked.pathname).toBe(`/app/token/${token}`);
    expect(picked.searchParams.get('r')).toBe(ME.address);
    // Copying works, or (where the browser denies the clipboard) the link is shown selected to copy by hand.
    await testId(page, 'referral-link-picked-copy').click();
    await expect.poll(attribute(page, 'referral-link-picked-copy', 'data-copy-state')).not.toBe('idle');
    if ((await testId(page, 'referral-link-picked-copy').getAttribute('data-copy-state')) === 'manual') {
      expect(await testId(page, 'referral-link-picked-copy-text').inputValue()).toBe(picked.toString());
    }
    // Where the browser refuses the clipboard, the link is shown, selected, to copy by hand.
    await page.evaluate(() => {
      Object.defineProperty(navigator.clipboard, 'writeText', {
        value: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')),
      });
    });
    await testId(page, 'referral-link-launch-copy').click();
    await expect.poll(attribute(page, 'referral-link-launch-copy', 'data-copy-state')).toBe('manual');
    const field = testId(page, 'referral-link-launch-copy-text');
    expect(await field.inputValue()).toBe(launchLink);
    expect(
      await field.evaluate((input: HTMLInputElement) => [
        document.activeElement === input,
        (input.selectionEnd ?? 0) - (input.selectionStart ?? 0),
      ]),
    ).toEqual([true, launchLink?.length]);
    await screenshot(page, 'referrals');
  });

  it("shares the token page's referral link under the public link base", async () => {
    await page.goto(`${service.origin}/token/${token}`);
    const share = testId(page, 'token-share');
    await expect.poll(() => share.getAttribute('data-referral'), { timeout: 15_000 }).toBe('yes');
    const link = new URL((await share.getAttribute('data-link')) ?? '');
    expect(`${link.origin}${link.pathname}`.toLowerCase()).toBe(`${PUBLIC_LINK_BASE}/token/${token}`.toLowerCase());
    expect(link.searchParams.get('r')).toBe(ME.address);
  });

  it('creates an API key shown once, lists it once signed in, and revokes it', async () => {
    await testId(page, 'nav-keys').click();
    await expect.poll(attribute(page, 'keys-list', 'data-state')).toBe('signed-out');
    await testId(page, 'key-label').fill('ui bot');
    await testId(page, 'key-create').click();
    await testId(page, 'review').waitFor();
    expect(await testId(page, 'review-message').textContent()).toContain(ME.address);
    await approveReview(page);
    const key = (await testId(page, 'key-created-value').textContent()) ?? '';
    expect(key).toMatch(/^lpc_live_/);
    await testId(page, 'key-created-warning').waitFor();
    await screenshot(page, 'key-created');
    const { body: listed } = await api('/keys', { headers: { 'x-api-key': key } });
    const id = listed.keys[0].id as string;

    await testId(page, 'keys-sign-in').click();
    await approveReview(page);
    await expect.poll(attribute(page, 'keys-list', 'data-state')).toBe('ready');
    const keyRow = page.locator(`[data-testid="key-row"][data-key-id="${id}"]`);
    expect(await keyRow.getAttribute('data-revoked')).toBe('no');
    expect(await keyRow.getByTestId('key-row-label').textContent()).toBe('ui bot');
    await screenshot(page, 'keys');

    // Shown once: after "done", and on coming back to the page, the key is not there any more.
    await testId(page, 'key-created-done').click();
    await testId(page, 'nav-referrals').click();
    await testId(page, 'nav-keys').click();
    await expect.poll(attribute(page, 'keys-list', 'data-state')).toBe('ready');
    expect(await testId(page, 'key-created').count()).toBe(0);
    expect(await page.getByText(key).count()).toBe(0);

    await keyRow.getByTestId('key-revoke').click();
    await keyRow.getByTestId('key-revoke-confirm').click();
    await expect.poll(() => keyRow.getAttribute('data-revoked')).toBe('yes');
    const refused = await api('/keys', { headers: { 'x-api-key': key } });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('API_KEY_REVOKED');
  });

  it("lists a bot's prepared request as it comes, stops at the review screen, and rejects it", async () => {
    await testId(page, 'nav-requests').click();
    await testId(page, 'requests-empty').waitFor();
    expect(await testId(page, 'nav-requests-count').count()).toBe(0);
    // Made while the page is open: the list polls.
    const id = await prepareBuy('0.05');
    await row(page, id).waitFor({ timeout: 12_000 });
    // The navigation counts the request that waits.
    await expect.poll(() => testId(page, 'nav-requests-count').textContent()).toMatch(/^1\b/);
    // The row reads as a trade: the token by its symbol, the 0.05 BNB the bot fixed, and the tokens it would get.
    const symbol = (await api(`/tokens/${token}`)).body.symbol as string;
    expect(await row(page, id).getByTestId('request-token').textContent()).toBe(symbol);
    expect(await row(page, id).getByTestId('request-pay').textContent()).toMatch(/^0\.05\s*W?BNB/);
    expect(await row(page, id).getByTestId('request-pay').locator('[data-wei]').getAttribute('data-wei')).toBe(
      (5n * 10n ** 16n).toString(),
    );
    await expect.poll(() => row(page, id).getByTestId('request-receive').textContent()).toContain(symbol);
    expect(await row(page, id).getAttribute('data-status')).toBe('pending');
    expect(await row(page, id).getAttribute('data-kind')).toBe('prepare_buy');
    // The row says which key asked: its label and its wallet.
    const source = row(page, id).getByTestId('request-source');
    expect(await source.getAttribute('data-source')).toBe('key');
    // The label is shown as a token of its own (escaped; see keyLabel.ts), the wallet in full after it.
    expect(await source.getByTestId('source-key-label').textContent()).toBe(BOT_KEY_LABEL);
    expect(await source.textContent()).toContain(`${BOT_KEY_LABEL} of wallet ${BOT.address}`);
    // One the app itself prepared says so.
    const fromApp = await api('/intents', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-token': APP_TOKEN },
      body: JSON.stringify({ kind: 'prepare_buy', wallet: ME.address, token, amount: '0.01' }),
    });
    expect(fromApp.status).toBe(201);
    const appSource = row(page, fromApp.body.id).getByTestId('request-source');
    await appSource.waitFor({ timeout: 12_000 });
    await expect.poll(() => testId(page, 'nav-requests-count').textContent()).toMatch(/^2\b/);
    expect(await appSource.getAttribute('data-source')).toBe('app');
    expect(await appSource.textContent()).toMatch(/^asked by this app, at /);
    await screenshot(page, 'requests');

    await row(page, id).getByTestId('request-review').click();
    await testId(page, 'review').waitFor();
    await testId(page, 'review-reject').click();
    await expect.poll(() => row(page, id).getByTestId('progress').getAttribute('data-stage')).toBe('rejected');
    // Turning the review down leaves the request open; the bot learns nothing until Reject.
    expect(['pending', 'built']).toContain((await readIntent(id)).state);

    // Rejecting asks for a confirm, with a reason the bot reads; keeping it changes nothing.
    await row(page, id).getByTestId('request-reject').click();
    await testId(page, 'request-reject-dialog').waitFor();
    await testId(page, 'request-reject-cancel').click();
    expect(await testId(page, 'request-reject-dialog').count()).toBe(0);
    expect(['pending', 'built']).toContain((await readIntent(id)).state);
    await row(page, id).getByTestId('request-reject').click();
    await testId(page, 'request-reject-reason').fill('too big a buy for today');
    await testId(page, 'request-reject-confirm').click();
    await expect.poll(() => row(page, id).getAttribute('data-status')).toBe('rejected');
    const rejected = await readIntent(id);
    expect(rejected.state).toBe('failed');
    expect(rejected.reason).toBe('rejected by the user: too big a buy for today');
    expect(await row(page, id).getByTestId('request-reason').textContent()).toBe('too big a buy for today');
    // The app's own request still waits; handled too, the count is gone.
    await expect.poll(() => testId(page, 'nav-requests-count').textContent()).toMatch(/^1\b/);
    await row(page, fromApp.body.id).getByTestId('request-reject').click();
    await testId(page, 'request-reject-confirm').click();
    await expect.poll(() => row(page, fromApp.body.id).getAttribute('data-status')).toBe('rejected');
    await expect.poll(() => testId(page, 'nav-requests-count').count()).toBe(0);
  });

  it('offers a claim once a week of lifetime share is claimable, and claims it through the review screen', async () => {
    const buy = async (referrer: Address | null) => {
      const built = await api('/build/buy', {
        method: 'POST',
        body: JSON.stringify({ wallet: testAccounts()[TRADER]?.address, token, amount: '1', referrer }),
      });
      expect(built.status, JSON.stringify(built.body)).toBe(200);
      await s.api.signAndSend(TRADER, built.body.tx);
    };
    await buy(ME.address); // binds TRADER to ME
    await buy(null); // bound: a share of this trade's income is ME's
    offsetMs += WEEK_MS;
    await s.api.client.request({ method: 'evm_mine' } as never);
    await service.indexer.waitFor(await s.api.client.getBlockNumber({ cacheTime: 0 }));
    // The operator posts the week; its claims open an hour later (the vault's window for correcting it).
    await vi.waitFor(
      async () => {
        const root = await s.api.client.readContract({
          address: s.contracts.referrals as Address,
          abi: ReferralVault.abi,
          functionName: 'roots',
          args: [BigInt((await api(`/referrals/${ME.address}`)).body.lifetime.claimableWeeks[0]?.week ?? 0)],
        });
        expect(root).not.toBe(zeroHash);
      },
      { timeout: 15_000, interval: 200 },
    );
    offsetMs += 3_601_000;
    await s.api.client.request({ method: 'evm_mine' } as never);
    await service.indexer.waitFor(await s.api.client.getBlockNumber({ cacheTime: 0 }));
    await vi.waitFor(
      async () => {
        const record = (await api(`/referrals/${ME.address}`)).body;
        expect(record.lifetime.claimableWeeks[0]?.claimable).toBe(true);
      },
      { timeout: 15_000, interval: 200 },
    );

    await testId(page, 'nav-referrals').click();
    await testId(page, 'lifetime-claim').click();
    await testId(page, 'review').waitFor();
    await approveReview(page);
    await expect
      .poll(() => testId(page, 'lifetime').getByTestId('progress').getAttribute('data-stage'), { timeout: 30_000 })
      .toBe('done');
    await vi.waitFor(
      async () => {
        const record = (await api(`/referrals/${ME.address}`)).body;
        expect(record.lifetime.claimableWeeks[0]?.paid).toBe(true);
      },
      { timeout: 15_000, interval: 200 },
    );
  });
});

describe('prepared request through the review screen', () => {
  it('builds, signs and sends it, and reports the hash: the request ends confirmed', async () => {
    const { page, errors } = await openApp(browser, service.origin, '/requests');
    try {
      // The service's clock (and so the chain's deadlines) was moved a week on above; the person's clock goes with it,
      // or the review screen rightly finds the deadline a week too far.
      await page.clock.install({ time: now() });
      await page.reload();
      await expect.poll(() => testId(page, 'signer-badge').textContent()).toContain(ME.address.slice(0, 6));
      const id = await prepareBuy('0.02');
      await row(page, id).waitFor({ timeout: 12_000 });
      await row(page, id).getByTestId('request-review').click();
      await approveReview(page);
      await expect.poll(() => row(page, id).getAttribute('data-status'), { timeout: 30_000 }).toBe('confirmed');
      const intent = await readIntent(id);
      expect(intent.state).toBe('confirmed');
      expect(intent.tx.hash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("judges a bot's launch by the person's interest: a first buy and a royalty paid elsewhere each need a tick", async () => {
    const { page, errors } = await openApp(browser, service.origin, '/requests');
    try {
      await page.clock.install({ time: now() });
      await page.reload();
      await expect.poll(() => testId(page, 'signer-badge').textContent()).toContain(ME.address.slice(0, 6));
      const upload = await api('/media/image', {
        method: 'POST',
        headers: { 'content-type': 'image/png' },
        body: Buffer.from(
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
          'base64',
        ),
      });
      // The attack as it was found: the bot's own request, every claim of the build true to it, pays the bot.
      const created = await api('/intents', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': botKey },
        body: JSON.stringify({
          kind: 'prepare_launch',
          wallet: ME.address,
          name: 'Generous',
          symbol: 'GIFT',
          marketCapPair: '30',
          image: upload.body.uri,
          firstBuy: '0.5',
          firstBuyTo: [{ wallet: BOT.address, pct: 100 }],
          royaltyTo: BOT.address,
        }),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.id as string;
      await row(page, id).waitFor({ timeout: 12_000 });
      await row(page, id).getByTestId('request-review').click();
      await testId(page, 'review').waitFor();
      // Nothing fails (the build is exactly what the bot asked), so only the person's interest stands in the way.
      expect(await testId(page, 'review-blocked').count()).toBe(0);
      expect(await testId(page, 'review-asked-by').textContent()).toContain(BOT.address);
      expect(await testId(page, 'warning-first-buy-to-0').textContent()).toContain(BOT.address);
      expect(await testId(page, 'warning-royalty-to-other').textContent()).toContain(BOT.address);
      const sign = testId(page, 'review-sign');
      expect(await sign.isDisabled()).toBe(true);
      await testId(page, 'tick-first-buy-to-0').check();
      expect(await sign.isDisabled()).toBe(true);
      await testId(page, 'tick-royalty-to-other').check();
      expect(await sign.isDisabled()).toBe(false);
      await screenshot(page, 'review-bot-launch-warnings');
      await testId(page, 'review-reject').click();
      await expect.poll(() => row(page, id).getByTestId('progress').getAttribute('data-stage')).toBe('rejected');
      expect((await readIntent(id)).tx).toBeNull();
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
