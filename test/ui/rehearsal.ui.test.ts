import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { type Address, createPublicClient, http, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forkChain } from '../../src-main/chain/networks';
import { startTestService, type TestService } from '../support/startTestService';
import { tokenBalance } from '../support/tokenBalance';
import type { TradingFixture } from '../support/tradingFixture';
import {
  approveUntilSettled,
  importLocalKey,
  openApp,
  screenshot,
  startTradingUi,
  stopTradingUi,
  webUiOptions,
} from '../support/webUi';

const WAIT = { timeout: 30_000, interval: 100 };
/** The person's own key: none of the test accounts, so it holds nothing until funded on the fork. */
const privateKey = generatePrivateKey();
const PERSON = { address: privateKeyToAccount(privateKey).address, privateKey };

let source: TradingFixture | undefined;
let browser: Browser | undefined;
let fork: TestService | undefined;

beforeAll(async () => {
  // The source: a devnet with two launched tokens, served over HTTP like a BSC RPC; the rehearsal forks it.
  ({ f: source, browser } = await startTradingUi());
  fork = await startTestService(mkdtempSync(join(tmpdir(), 'companion-rehearsal-')), {
    ...webUiOptions,
    network: 'fork',
    rpcUrl: `${source.service.origin}/rpc`,
  });
});

afterAll(async () => {
  await fork?.dispose();
  await stopTradingUi({ ...(source ? { f: source } : {}), ...(browser ? { browser } : {}) });
  browser = undefined;
});

async function bannerText(page: Page): Promise<string> {
  await page.getByTestId('rehearsal-banner').waitFor();
  return (await page.getByTestId('rehearsal-banner').textContent()) ?? '';
}

it('says on every page that this is a rehearsal, funds the person in one click, and trades on the fork only', async () => {
  if (!fork || !source || !browser) throw new Error('not started');
  const { page, errors } = await openApp(browser, fork.origin, '/settings');
  await importLocalKey(page, fork.origin, PERSON as never);
  await page.goto(`${fork.origin}/`);
  const block = fork.chain.fork?.block ?? -1;
  await expect
    .poll(() => bannerText(page), WAIT)
    .toMatch(/Rehearsal on a fork of a devnet at block \d+, running as chain 31338/);
  expect(await bannerText(page)).toContain(`at block ${block.toLocaleString('en-US')}`);
  expect(await bannerText(page)).toContain('Nothing signed here is valid on BNB Chain');
  expect(await page.getByTestId('network').textContent()).toBe('fork');
  // The source's earlier launches are not listed (the index starts at the fork block), and the page says so.
  await expect
    .poll(() => page.getByTestId('launches-empty').textContent(), WAIT)
    .toContain(`No launches since the fork at block ${block.toLocaleString('en-US')}`);

  await page.getByTestId('fund-wallet').click();
  await expect.poll(() => page.getByTestId('fund-result').textContent(), WAIT).toContain('Now 100 BNB');
  const forkClient = createPublicClient({ chain: forkChain, transport: http(`${fork.origin}/rpc`) });
  expect(await forkClient.getBalance({ address: PERSON.address })).toBe(parseEther('100'));
  await expect.poll(() => page.getByTestId('header-balance').textContent(), WAIT).toContain('100');
  for (const [width, height] of [
    [1440, 900],
    [1024, 700],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      // Colours ease in over 150 ms: the screenshot shows them settled, not mid-transition.
      await page.waitForTimeout(400);
      await screenshot(page, `rehearsal-launches-${width}x${height}-${scheme}`);
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });

  // A token launched on the source before the fork is bought through the UI, with the rehearsal named beside Sign.
  const token = source.bnbToken.token as Address;
  await page.goto(`${fork.origin}/token/${token}`);
  await bannerText(page);
  await page.getByTestId('trade-amount').fill('0.1');
  await expect.poll(() => page.getByTestId('trade-submit').isEnabled(), WAIT).toBe(true);
  await page.getByTestId('trade-submit').click();
  await page.getByTestId('review').waitFor();
  await expect
    .poll(() => page.getByTestId('review-rehearsal').textContent(), WAIT)
    .toContain('signed for chain 31338 only');
  await screenshot(page, 'rehearsal-review-1440x900-light');
  expect(await approveUntilSettled(page)).toBe('done');
  const held = await tokenBalance(forkClient, token, PERSON.address);
  expect(held).toBeGreaterThan(0n);
  // The source chain has neither the BNB nor the tokens.
  expect(await source.client.getBalance({ address: PERSON.address })).toBe(0n);

  await page.goto(`${fork.origin}/settings`);
  await expect.poll(() => page.getByTestId('app-fork').textContent(), WAIT).toContain('a fork of devnet (chain 31337)');
  await screenshot(page, 'rehearsal-settings-1440x900-light');
  expect(errors).toEqual([]);
  await page.close();
});

it('is not shown on the devnet itself', async () => {
  if (!source || !browser) throw new Error('not started');
  const { page } = await openApp(browser, source.service.origin, '/');
  await expect.poll(() => page.getByTestId('network').textContent(), WAIT).toBe('devnet');
  expect(await page.getByTestId('rehearsal-banner').count()).toBe(0);
  await page.close();
});
