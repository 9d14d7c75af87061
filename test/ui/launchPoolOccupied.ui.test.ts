import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  decodeFunctionData,
  type Hash,
  type Hex,
  http,
  parseEther,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { NonfungiblePositionManager, WETH9 } from '../../src-main/chain/generated/vendor';
import { devnetChain } from '../../src-main/chain/networks';
import { FEE_TIERS } from '../../src-main/core/limits';
import { getSqrtRatioAtTick } from '../../src-main/core/math/tickMath';
import { revertOf } from '../../src-main/services/simulation';
import { launchFactoryAbi } from '../../src-shared/generated/abis';
import { describeViolations, seriousViolations } from '../support/accessibility';
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
  webUiOptions,
} from '../support/webUi';

/**
 * A launch front-run by someone who created and priced its pool first, with 5 BNB of their own bids in the way, as
 * the person meets it on the launch page at BSC's cadence: the launch reverts with PoolOccupied, the page says so in
 * plain words with one button, and that button builds the same form again (a new salt, so a new token address) and
 * takes it through the review to a launch that lands, with nothing typed again. Screenshots of the failure at both
 * window sizes, light and dark, in test-results/screens/launch-pool-occupied-<width>-<theme>.png.
 */
const PERSON = testAccounts()[11] as TestAccount;
/** The browser wallet's account, in the second case. */
const WALLET_OWNER = testAccounts()[12] as TestAccount;
const ATTACKER = testAccounts()[7] as TestAccount;
const WAIT = { timeout: 30_000, interval: 100 };
/** What the attacker lays between the opening price and theirs: far more than the takeover allows at a 30 BNB cap. */
const BIDS = parseEther('5');

let service: TestService;
let browser: Browser;
let files: string;
let logo: string;

beforeAll(async () => {
  service = await startTestService(undefined, { ...webUiOptions, blockTimeMs: 750 });
  browser = await launchChromium();
  files = mkdtempSync(join(tmpdir(), 'pool-occupied-ui-'));
  logo = join(files, 'logo.png');
  writeFileSync(logo, pngBytes(8));
});
afterAll(async () => {
  await browser?.close();
  await service?.dispose();
  if (files) rmSync(files, { recursive: true, force: true });
});

interface LaunchBuild {
  token: Address;
  wallet: Address;
  tx: { to: Address; data: Hex; value: string };
}

const testId = (page: Page, id: string) => page.getByTestId(id);

/** Every POST /build/launch the page makes: the body it sent and the build it got. */
function watchLaunchBuilds(page: Page) {
  const builds: { body: Record<string, unknown>; answer: Promise<LaunchBuild> }[] = [];
  page.on('response', (response) => {
    const request = response.request();
    if (request.method() !== 'POST' || !request.url().endsWith('/build/launch')) return;
    builds.push({
      body: JSON.parse(request.postData() ?? '{}'),
      answer: response.json() as Promise<LaunchBuild>,
    });
  });
  return builds;
}

/**
 * The attacker's move, made after reading the launch from the mempool (here: from its build): creates the token's
 * pool priced above the opening price (the token dearer than it opens at) and lays WBNB-only bids in the ticks between
 * the opening price and theirs, so the launch's supply would be sold into them.
 */
async function takePool(build: LaunchBuild): Promise<void> {
  const call = decodeFunctionData({ abi: launchFactoryAbi, data: build.tx.data });
  if (call.functionName !== 'launch') throw new Error(`not a launch call: ${call.functionName}`);
  const { openingTick, fee, pair: wbnb } = call.args[0];
  const spacing = FEE_TIERS.find((tier) => tier.bps === fee)?.tickSpacing;
  if (!spacing) throw new Error(`no tick spacing for fee ${fee}`);
  expect(Math.abs(openingTick % spacing)).toBe(0);
  const settings = (await (await fetch(`${service.url}/settings`)).json()) as { contracts: Record<string, Address> };
  expect(wbnb.toLowerCase()).toBe(settings.contracts.wbnb?.toLowerCase());
  const positionManager = settings.contracts.positionManager as Address;
  // Token0's price (in WBNB) rises with the tick; as token1 the token is dearer at lower ticks. WBNB-only liquidity
  // sits below the price as token1, above it as token0: either way, between the opening price and the attacker's.
  const tokenIs0 = BigInt(build.token) < BigInt(wbnb);
  const [token0, token1] = tokenIs0 ? [build.token, wbnb] : [wbnb, build.token];
  const priced = tokenIs0 ? openingTick + spacing : openingTick - spacing;
  const [tickLower, tickUpper] = tokenIs0 ? [openingTick, priced] : [priced, openingTick];

  const rpc = http(`${service.origin}/rpc`);
  const attacker = createWalletClient({
    account: privateKeyToAccount(ATTACKER.privateKey),
    chain: devnetChain,
    transport: rpc,
  });
  const client = createPublicClient({ chain: devnetChain, transport: rpc, pollingInterval: 100 });
  // At the cadence each waits in the mempool for the next block; the next one's gas is estimated on the state after it.
  const mined = async (sent: Promise<Hash>) => {
    const receipt = await client.waitForTransactionReceipt({ hash: await sent, timeout: 15_000 });
    expect(receipt.status).toBe('success');
  };
  await mined(
    attacker.writeContract({
      address: positionManager,
      abi: NonfungiblePositionManager.abi,
      functionName: 'createAndInitializePoolIfNecessary',
      args: [token0, token1, fee, getSqrtRatioAtTick(priced)],
    }),
  );
  await mined(attacker.writeContract({ address: wbnb, abi: WETH9.abi, functionName: 'deposit', value: BIDS }));
  await mined(
    attacker.writeContract({ address: wbnb, abi: WETH9.abi, functionName: 'approve', args: [positionManager, BIDS] }),
  );
  await mined(
    attacker.writeContract({
      address: positionManager,
      abi: NonfungiblePositionManager.abi,
      functionName: 'mint',
      args: [
        {
          token0,
          token1,
          fee,
          tickLower,
          tickUpper,
          amount0Desired: tokenIs0 ? 0n : BIDS,
          amount1Desired: tokenIs0 ? BIDS : 0n,
          amount0Min: tokenIs0 ? 0n : (BIDS * 999n) / 1000n,
          amount1Min: tokenIs0 ? (BIDS * 999n) / 1000n : 0n,
          recipient: ATTACKER.address,
          deadline: 2n ** 40n,
        },
      ],
    }),
  );

  // The launch as built, simulated now from the person's wallet: the factory refuses the pool.
  const refused = await client
    .call({ account: build.wallet, to: build.tx.to, data: build.tx.data, value: BigInt(build.tx.value) })
    .then(
      () => null,
      (error: unknown) => revertOf(error),
    );
  expect(refused?.name).toBe('PoolOccupied');
}

/** What the person typed, read back from the form. */
async function formValues(page: Page) {
  return {
    name: await testId(page, 'launch-name').inputValue(),
    symbol: await testId(page, 'launch-symbol').inputValue(),
    description: await testId(page, 'launch-description').inputValue(),
    cap: await testId(page, 'launch-market-cap').inputValue(),
    firstBuy: await testId(page, 'launch-first-buy').inputValue(),
    logo: await testId(page, 'launch-image').getAttribute('data-state'),
  };
}

type Builds = ReturnType<typeof watchLaunchBuilds>;
const nth = (builds: Builds, i: number) => builds[i] as Builds[number];

/**
 * The person fills the launch form once (nothing after this types into it again) and reaches the review; before they
 * confirm, the attacker takes the pool; then they confirm, and the launch reverts. Answers what was typed and built.
 */
async function launchIntoTakenPool(page: Page, builds: Builds, token: { name: string; symbol: string }) {
  await testId(page, 'launch-image-input').setInputFiles(logo);
  await expect.poll(() => testId(page, 'launch-image').getAttribute('data-state'), WAIT).toBe('ready');
  await testId(page, 'launch-name').fill(token.name);
  await testId(page, 'launch-symbol').fill(token.symbol);
  await testId(page, 'launch-description').fill('a cat whose first pool was taken');
  await testId(page, 'launch-cap-unit-pair').click();
  await testId(page, 'launch-market-cap').fill('30');
  await testId(page, 'launch-first-buy').fill('0.5');
  const typed = await formValues(page);
  await testId(page, 'launch-submit').click();
  await testId(page, 'review').waitFor({ timeout: 30_000 });
  expect(builds).toHaveLength(1);
  const first = await nth(builds, 0).answer;

  await takePool(first);
  await approveReview(page);

  const panel = testId(page, 'launch-pool-taken');
  await panel.waitFor({ timeout: 30_000 });
  // Told by the revert's name, which the page reads from the send flow's result, not from the words.
  expect(await panel.getAttribute('data-revert')).toBe('PoolOccupied');
  expect(await testId(page, 'launch-pool-taken-token').getAttribute('data-address')).toBe(first.token);
  const fee = await panel.getByTestId('launch-pool-taken-fee').locator('[data-wei]').getAttribute('data-wei');
  expect(BigInt(fee ?? '0')).toBeGreaterThan(0n);
  expect(await testId(page, 'launch-pool-taken-hash').getAttribute('data-hash')).toMatch(/^0x[0-9a-f]{64}$/);
  expect(await page.getByTestId('launch-again').count()).toBe(1);
  expect(await page.getByTestId('launch-submit').count()).toBe(0);
  // Nothing was launched, and the form is as the person left it.
  expect(await service.chain.client.getCode({ address: first.token })).toBeUndefined();
  expect(await formValues(page)).toEqual(typed);
  return { first, panel };
}

/** One click: the same form built again (a new address), through the review, to a launch that lands. */
async function launchAgain(page: Page, builds: Builds, first: LaunchBuild, token: { name: string; symbol: string }) {
  await testId(page, 'launch-again').click();
  await approveReview(page);
  await testId(page, 'launch-success').waitFor({ timeout: 30_000 });
  expect(builds).toHaveLength(2);
  // The very body the form sent the first time: nothing retyped, the logo not uploaded again.
  expect(nth(builds, 1).body).toEqual(nth(builds, 0).body);
  const launched = await nth(builds, 1).answer;
  expect(launched.token).not.toBe(first.token);
  expect(await service.chain.client.getCode({ address: launched.token })).toMatch(/^0x[0-9a-f]+$/);
  await expect
    .poll(async () => {
      const answer = await fetch(`${service.url}/tokens/${launched.token}`);
      const body = (await answer.json()) as { symbol?: string; name?: string };
      return [answer.status, body.name, body.symbol];
    }, WAIT)
    .toEqual([200, token.name, token.symbol]);
}

describe('a launch whose pool someone priced first', () => {
  it('says so plainly and launches the same form again at a new address in one click', async () => {
    const { page, errors } = await openApp(browser, service.origin, '/', { viewport: { width: 1440, height: 900 } });
    const token = { name: 'Taken Cat', symbol: 'TKCAT' };
    try {
      await importLocalKey(page, service.origin, PERSON);
      await testId(page, 'nav-launch').click();
      await testId(page, 'launch-wizard').waitFor();
      const builds = watchLaunchBuilds(page);
      const { first, panel } = await launchIntoTakenPool(page, builds, token);

      // Activity keeps it too, with the revert by name, which is what it offers to launch again on.
      const activity = await fetch(`${service.origin}/app/activity.list`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${APP_TOKEN}` },
        body: '{}',
      }).then((response) => response.json() as Promise<{ result: { kind: string; revert: string | null }[] }>);
      expect(activity.result.find((entry) => entry.kind === 'launch')?.revert).toBe('PoolOccupied');
      // Activity has not the form at hand: it points to the launch page, which keeps it.
      const elsewhere = await openApp(browser, service.origin, '/activity');
      const row = elsewhere.page.getByTestId('activity-row').first();
      await expect.poll(() => row.getAttribute('data-status'), WAIT).toBe('reverted');
      expect(await row.getByTestId('activity-launch-again').getAttribute('href')).toBe('/launch');
      expect(elsewhere.errors).toEqual([]);
      await elsewhere.page.close();

      mkdirSync(join(ARTIFACTS, 'screens'), { recursive: true });
      await inEveryLook(page, async ({ width, colorScheme }) => {
        await panel.scrollIntoViewIfNeeded();
        await page.screenshot({
          path: join(ARTIFACTS, 'screens', `launch-pool-occupied-${width}-${colorScheme}.png`),
        });
        const violations = await seriousViolations(page);
        expect(violations, describeViolations(violations)).toEqual([]);
      });
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.emulateMedia({ colorScheme: 'light' });

      await launchAgain(page, builds, first, token);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('does the same with a browser wallet, which gives no trace: the revert is read by replaying the call', async () => {
    const account = privateKeyToAccount(WALLET_OWNER.privateKey);
    const rpc = `${service.origin}/rpc`;
    const wallet = createWalletClient({ account, chain: devnetChain, transport: http(rpc) });
    // The wallet extension: the page sees only window.ethereum, which refuses a reverting call as wallets do, with
    // the node's revert data in the refusal.
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.exposeFunction('__wallet', async (method: string, params: unknown[]) => {
      if (method === 'eth_requestAccounts') return { result: [account.address] };
      if (method === 'eth_chainId') return { result: '0x7a69' };
      if (method === 'eth_sendTransaction') {
        const tx = params[0] as { to: Hex; data: Hex; value: Hex; gas?: Hex };
        const hash = await wallet.sendTransaction({
          to: tx.to,
          data: tx.data,
          value: BigInt(tx.value),
          ...(tx.gas ? { gas: BigInt(tx.gas) } : {}),
        });
        return { result: hash };
      }
      const answer = await fetch(rpc, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      return answer.json();
    });
    await page.addInitScript(() => {
      const call = (window as unknown as { __wallet(m: string, p: unknown[]): Promise<Record<string, unknown>> })
        .__wallet;
      (window as unknown as { ethereum: unknown }).ethereum = {
        request: async ({ method, params }: { method: string; params?: unknown[] }) => {
          const answer = await call(method, params ?? []);
          if (answer.error) throw answer.error;
          return answer.result;
        },
      };
    });
    const token = { name: 'Wallet Cat', symbol: 'WLCAT' };
    try {
      await page.goto(`${service.origin}/settings`);
      await page.getByTestId('browser-wallet-connect').click();
      await expect.poll(() => page.getByTestId('browser-wallet-address').textContent(), WAIT).toBe(account.address);
      await testId(page, 'nav-launch').click();
      await testId(page, 'launch-wizard').waitFor();
      const builds = watchLaunchBuilds(page);
      const { first } = await launchIntoTakenPool(page, builds, token);
      await launchAgain(page, builds, first, token);
      // Without the app token the page's calls to the app channel are refused (401); nothing else may fail.
      expect(errors.filter((error) => !error.includes('status of 401'))).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
