import type { Browser } from 'playwright-core';
import { createWalletClient, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { devnetChain } from '../../src-main/chain/networks';
import { startTradingFixture, type TradingFixture } from '../support/tradingFixture';
import { approveReview, launchChromium, screenshot, webUiOptions } from '../support/webUi';

/** The browser wallet's account: a test account nothing else in this file uses. */
const OWNER = testAccounts()[12] as TestAccount;
const WAIT = { timeout: 15_000, interval: 100 };

let f: TradingFixture;
let browser: Browser;

beforeAll(async () => {
  f = await startTradingFixture(webUiOptions);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await f?.service.dispose();
});

it('signs and sends a buy with an injected EIP-1193 wallet, after the same review, without the app token', async () => {
  const account = privateKeyToAccount(OWNER.privateKey);
  const rpc = `${f.service.origin}/rpc`;
  const wallet = createWalletClient({ account, chain: devnetChain, transport: http(rpc) });
  const requests: string[] = [];
  // The wallet extension: the page sees only window.ethereum; keys and sending stay on this side, as in a real one.
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.exposeFunction('__wallet', async (method: string, params: unknown[]) => {
    requests.push(method);
    if (method === 'eth_requestAccounts') return [account.address];
    if (method === 'eth_chainId') return '0x7a69';
    if (method === 'eth_sendTransaction') {
      const tx = params[0] as { to: Hex; data: Hex; value: Hex; gas?: Hex };
      return wallet.sendTransaction({
        to: tx.to,
        data: tx.data,
        value: BigInt(tx.value),
        ...(tx.gas ? { gas: BigInt(tx.gas) } : {}),
      });
    }
    if (method === 'personal_sign') return account.signMessage({ message: { raw: params[0] as Hex } });
    const answer = await fetch(rpc, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return ((await answer.json()) as { result: unknown }).result;
  });
  await page.addInitScript(() => {
    const call = (window as unknown as { __wallet(m: string, p: unknown[]): Promise<unknown> }).__wallet;
    (window as unknown as { ethereum: unknown }).ethereum = {
      request: ({ method, params }: { method: string; params?: unknown[] }) => call(method, params ?? []),
    };
  });

  await page.goto(`${f.service.origin}/settings`);
  await page.getByTestId('signer-unavailable').waitFor();
  await page.getByTestId('browser-wallet-connect').click();
  await expect.poll(() => page.getByTestId('browser-wallet-address').textContent(), WAIT).toBe(account.address);
  await screenshot(page, 'settings-browser-wallet');

  await page.getByTestId('nav-launches').click();
  await page.locator(`[data-token="${f.bnbToken.token}"] a`).first().click();
  await page.getByTestId('trade-amount').fill('0.2');
  await page.getByTestId('quote').waitFor();
  const before = await f.client.getBalance({ address: account.address });
  await page.getByTestId('trade-submit').click();
  await approveReview(page);
  await expect.poll(() => page.getByTestId('progress').getAttribute('data-stage'), WAIT).toBe('done');
  expect(requests).toContain('eth_sendTransaction');
  const after = await f.client.getBalance({ address: account.address });
  expect(before - after).toBeGreaterThan(200_000_000_000_000_000n);
  // Without the app token the page's calls to the app channel are refused (401); nothing else may fail.
  expect(errors.filter((e) => !e.includes('status of 401'))).toEqual([]);
  await page.close();
});
