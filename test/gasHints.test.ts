import { type Address, createWalletClient, type Hex, http, maxUint256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { devnetChain } from '../src-main/chain/networks';
import { ApiError } from '../src-main/core/errors';
import { GasHints, simulateFrom, withMargin } from '../src-main/services/simulation';
import type { UnsignedTx } from '../src-shared/schema/unsignedTx';
import { startTradingFixture, type TradingFixture } from './support/tradingFixture';

/*
 * A trade's gas from a hint (GasHints): one eth_call with the most a like trade needed, in the state the build runs
 * in, instead of an estimate's many runs. What can go wrong is a hint that does not fit this trade: too low (a lighter
 * trade estimated first, a state that costs more since), more than the wallet can pay for, or a trade that reverts
 * anyway. Each is played here on the embedded EVM with the real router, and every limit answered is sent and must land.
 */

/** The test account that builds and sends here (the fixture's trader is 4). */
const BUYER = 9;
const buyer = privateKeyToAccount(testAccounts()[BUYER]?.privateKey ?? '0x');

let f: TradingFixture;
beforeAll(async () => {
  f = await startTradingFixture();
});
afterAll(async () => {
  await f?.service.dispose();
});

/** A buy of the fixture's BNB token built by the service for the buyer: its transaction and value. */
async function builtBuy(amount = '0.05'): Promise<{ tx: UnsignedTx; value: bigint }> {
  const answer = await fetch(`${f.service.url}/build/buy`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wallet: buyer.address, token: f.bnbToken.token, amount }),
  });
  expect(answer.status).toBe(200);
  const { tx } = (await answer.json()) as { tx: UnsignedTx };
  return { tx, value: BigInt(tx.value) };
}

/** Sends the transaction with the given limit from the buyer and says whether it landed. */
async function lands(tx: UnsignedTx, gas: bigint): Promise<boolean> {
  const wallet = createWalletClient({ account: buyer, chain: devnetChain, transport: http(`${f.service.origin}/rpc`) });
  const hash = await wallet.sendTransaction({
    to: tx.to as Address,
    data: tx.data as Hex,
    value: BigInt(tx.value),
    gas,
  });
  const receipt = await f.client.waitForTransactionReceipt({ hash });
  return receipt.status === 'success';
}

const simulate = (tx: UnsignedTx, value: bigint, hints: GasHints, affordable = maxUint256) =>
  simulateFrom(f.service.chain, buyer.address, tx, value, 'the trade', { hints, affordable });

describe('a trade simulated at a hinted gas', () => {
  it('a hint far below what the trade needs: the call at it fails, the trade is estimated, and that limit lands', async () => {
    const { tx, value } = await builtBuy();
    const hints = new GasHints();
    hints.learn(tx, 60_000n);
    const estimates = vi.spyOn(f.service.chain.client, 'estimateGas');
    try {
      const gas = await simulate(tx, value, hints);
      expect(estimates).toHaveBeenCalledTimes(1);
      const estimate = await estimates.mock.results[0]?.value;
      expect(gas).toBe(withMargin(estimate));
      // What the estimate found is the hint from now on.
      expect(hints.hint(tx)).toBe(estimate);
      expect(await lands(tx, gas)).toBe(true);
    } finally {
      estimates.mockRestore();
    }
  });

  it('a hint at or above what the trade needs: answered at the hint with the margin in one run, no estimate, and it lands', async () => {
    const { tx, value } = await builtBuy();
    const needed = await f.service.chain.client.estimateGas({
      account: buyer.address,
      to: tx.to,
      data: tx.data,
      value,
    });
    const hints = new GasHints();
    hints.learn(tx, needed);
    const estimates = vi.spyOn(f.service.chain.client, 'estimateGas');
    try {
      const gas = await simulate(tx, value, hints);
      expect(estimates).not.toHaveBeenCalled();
      expect(gas).toBe(withMargin(needed));
      expect(await lands(tx, gas)).toBe(true);
    } finally {
      estimates.mockRestore();
    }
  });

  it('a hint the wallet could not pay for is not used: the estimate it can pay for is', async () => {
    const { tx, value } = await builtBuy();
    const hints = new GasHints();
    hints.learn(tx, 20_000_000n);
    const estimates = vi.spyOn(f.service.chain.client, 'estimateGas');
    try {
      const gas = await simulate(tx, value, hints, 1_000_000n);
      expect(estimates).toHaveBeenCalledTimes(1);
      expect(gas).toBeLessThan(1_000_000n);
      expect(await lands(tx, gas)).toBe(true);
    } finally {
      estimates.mockRestore();
    }
  });

  it('a trade that reverts is refused with its reason, hint or not', async () => {
    const { tx } = await builtBuy();
    const hints = new GasHints();
    hints.learn(tx, 5_000_000n);
    // The BNB sent is not what the buy pays: the router refuses it, at any gas.
    const refusal = await simulate(tx, 1n, hints).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ code: 'SIMULATION_FAILED', detail: { revert: { name: expect.any(String) } } });
    const without = await simulateFrom(f.service.chain, buyer.address, tx, 1n, 'the trade').catch((e: unknown) => e);
    expect((without as ApiError).detail).toEqual((refusal as ApiError).detail);
  });
});

describe('GasHints', () => {
  it('hints the largest of the last estimates of a function, each for five minutes, and nothing for another function', () => {
    let now = 0;
    const hints = new GasHints(() => now);
    const buy = { to: '0x00000000000000000000000000000000000000aa' as Address, data: '0x11111111aa' as Hex };
    expect(hints.hint(buy)).toBeUndefined();
    hints.learn(buy, 200_000n);
    now += 60_000;
    hints.learn(buy, 150_000n);
    expect(hints.hint(buy)).toBe(200_000n);
    expect(hints.hint({ ...buy, data: '0x22222222aa' })).toBeUndefined();
    expect(hints.hint({ ...buy, to: '0x00000000000000000000000000000000000000bb' })).toBeUndefined();
    // The larger is five minutes old: the newer one is the hint, and after five more minutes there is none.
    now += 4 * 60_000 + 1;
    expect(hints.hint(buy)).toBe(150_000n);
    now += 60_000;
    expect(hints.hint(buy)).toBeUndefined();
  });

  it('keeps the last 8 estimates', () => {
    const hints = new GasHints(() => 0);
    const buy = { to: '0x00000000000000000000000000000000000000aa' as Address, data: '0x11111111' as Hex };
    hints.learn(buy, 900_000n);
    for (let i = 0; i < 8; i++) hints.learn(buy, 100_000n + BigInt(i));
    expect(hints.hint(buy)).toBe(100_007n);
  });
});
