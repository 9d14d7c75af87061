import { type Address, createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../../../src-main/chain/devnet/testAccounts';
import { devnetChain } from '../../../src-main/chain/networks';
import { startTradingFixture, type TradingFixture } from '../../../test/support/tradingFixture';
import { type Companion, createCompanion } from '../src/createCompanion';
import { NonceManager } from '../src/nonceManager';
import { BSC_MIN_PRIORITY_FEE_WEI } from '../src/sendFees';

// Sending for bots on the devnet with BSC's fee rules (base fee 0, under 0.05 gwei refused): nonces handed out per
// key so bots sharing one never collide, the tip with BSC's floor, and returning right after the broadcast.

let fixture: TradingFixture;
let companion: Companion;
const SHARED_KEY = 5;
const FEES = 6;

beforeAll(async () => {
  fixture = await startTradingFixture({ rateLimits: false, bscFees: true });
  companion = createCompanion({ baseUrl: fixture.service.url });
});
afterAll(async () => {
  await fixture?.service.dispose();
});

const accountOf = (index: number) => privateKeyToAccount(testAccounts()[index]?.privateKey ?? '0x');
const walletOf = (index: number) =>
  createWalletClient({
    account: accountOf(index),
    chain: devnetChain,
    transport: http(`${fixture.service.origin}/rpc`),
  });
const buyBody = (index: number) => ({
  wallet: accountOf(index).address,
  token: fixture.bnbToken.token,
  amount: '0.001',
  slippageBps: 1000,
});

describe('two bots on one key', () => {
  it('send 50 buys each, five at a time, without a nonce failure', async () => {
    const wallet = accountOf(SHARED_KEY).address;
    const start = await fixture.client.getTransactionCount({ address: wallet });
    // Two bots as two processes would be: their own client, wallet client and nonce manager, sharing only the key.
    const bot = () => ({
      companion: createCompanion({ baseUrl: fixture.service.url }),
      walletClient: walletOf(SHARED_KEY),
      nonces: new NonceManager(),
    });
    const run = async ({ companion: c, walletClient, nonces }: ReturnType<typeof bot>) => {
      const sent: { nonce: number; status: string }[] = [];
      for (let round = 0; round < 10; round++) {
        const five = await Promise.all(
          Array.from({ length: 5 }, () =>
            c.sendBuy(buyBody(SHARED_KEY), { walletClient, publicClient: fixture.client, nonces }),
          ),
        );
        sent.push(...five.map((s) => ({ nonce: s.nonce, status: s.receipt.status })));
      }
      return sent;
    };
    const [a, b] = await Promise.all([run(bot()), run(bot())]);
    const all = [...(a ?? []), ...(b ?? [])];
    expect(all).toHaveLength(100);
    expect(all.every((s) => s.status === 'success')).toBe(true);
    // Every nonce from the start on was used exactly once.
    const nonces = all.map((s) => s.nonce).sort((x, y) => x - y);
    expect(nonces).toEqual(Array.from({ length: 100 }, (_, i) => start + i));
    expect(await fixture.client.getTransactionCount({ address: wallet })).toBe(start + 100);
  }, 240_000);

  it('a nonce another program took in between is noticed, and the buy goes out at the next one', async () => {
    const nonces = new NonceManager();
    const walletClient = walletOf(SHARED_KEY);
    const first = await companion.sendBuy(buyBody(SHARED_KEY), { walletClient, publicClient: fixture.client, nonces });
    // Another program sends from the same key: the manager's next nonce is now taken.
    const other = await walletOf(SHARED_KEY).sendTransaction({
      to: accountOf(SHARED_KEY).address,
      value: 1n,
      nonce: first.nonce + 1,
      maxPriorityFeePerGas: BSC_MIN_PRIORITY_FEE_WEI,
      maxFeePerGas: BSC_MIN_PRIORITY_FEE_WEI,
    });
    await fixture.client.waitForTransactionReceipt({ hash: other });
    const next = await companion.sendBuy(buyBody(SHARED_KEY), { walletClient, publicClient: fixture.client, nonces });
    expect(next.receipt.status).toBe('success');
    expect(next.nonce).toBe(first.nonce + 2);
  });
});

describe('fees and waiting', () => {
  it('raises a tip under BSC’s 0.05 gwei floor to the floor, which the chain takes', async () => {
    const sent = await companion.sendBuy(buyBody(FEES), {
      walletClient: walletOf(FEES),
      publicClient: fixture.client,
      priorityFeeWei: 1n,
    });
    const tx = await fixture.client.getTransaction({ hash: sent.hash });
    expect(tx.maxPriorityFeePerGas).toBe(BSC_MIN_PRIORITY_FEE_WEI);
    expect(sent.receipt.status).toBe('success');
  });

  it('sends the tip asked for above the floor', async () => {
    const tip = 2_000_000_000n;
    const sent = await companion.sendBuy(buyBody(FEES), {
      walletClient: walletOf(FEES),
      publicClient: fixture.client,
      priorityFeeWei: tip,
    });
    const tx = await fixture.client.getTransaction({ hash: sent.hash });
    expect(tx.maxPriorityFeePerGas).toBe(tip);
    expect(tx.maxFeePerGas).toBeGreaterThanOrEqual(tip);
  });

  it('wait: false returns once broadcast, without the receipt; the transaction is mined all the same', async () => {
    const sent = await companion.sendBuy(buyBody(FEES), {
      walletClient: walletOf(FEES),
      publicClient: fixture.client,
      wait: false,
    });
    expect(sent.receipt).toBeNull();
    expect(sent.hash).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await fixture.client.waitForTransactionReceipt({ hash: sent.hash });
    expect(receipt.status).toBe('success');
    expect(receipt.from.toLowerCase()).toBe(accountOf(FEES).address.toLowerCase());
  });

  it('a first sell waits for its approval even with wait: false, then returns after broadcasting the sell', async () => {
    const body = { wallet: accountOf(FEES).address as Address, token: fixture.bnbToken.token, amount: '1000' };
    const sent = await companion.sendSell(body, {
      walletClient: walletOf(FEES),
      publicClient: fixture.client,
      wait: false,
    });
    expect(sent.steps.map((s) => s.step)).toEqual(['approve-router']);
    const approval = await fixture.client.getTransactionReceipt({ hash: sent.steps[0]?.hash ?? '0x' });
    expect(approval.status).toBe('success');
    expect((await fixture.client.waitForTransactionReceipt({ hash: sent.hash })).status).toBe('success');
  });
});
