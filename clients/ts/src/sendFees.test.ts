import type { PublicClient } from 'viem';
import { describe, expect, it } from 'vitest';
import { BSC_MIN_PRIORITY_FEE_WEI, feesOf, recentFeeReads } from './sendFees';

/** A node that counts the reads it answers, and fails while told to. */
function countingClient() {
  let reads = 0;
  let failing = false;
  const answer = <T>(value: T) => {
    reads++;
    return failing ? Promise.reject(new Error('the node is down')) : Promise.resolve(value);
  };
  const client = {
    getBlock: () => answer({ number: 7n, baseFeePerGas: 1_000_000_000n, timestamp: 1n }),
    getGasPrice: () => answer(1_200_000_000n),
    request: () => answer('0x3b9aca00'),
  } as unknown as PublicClient;
  return {
    client,
    reads: () => reads,
    fail: (on: boolean) => {
      failing = on;
    },
  };
}

describe('recentFeeReads', () => {
  it('reads the block, gas price and tip once for every send within the block time, then again', async () => {
    const node = countingClient();
    const [a, b] = await Promise.all([recentFeeReads(node.client, 200), recentFeeReads(node.client, 200)]);
    expect(a).toBe(b);
    expect(node.reads()).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await recentFeeReads(node.client, 0);
    expect(node.reads()).toBe(6);
  });

  it('keeps no failed read', async () => {
    const node = countingClient();
    node.fail(true);
    await expect(recentFeeReads(node.client, 60_000)).rejects.toThrow('the node is down');
    node.fail(false);
    expect((await recentFeeReads(node.client, 60_000)).latest.number).toBe(7n);
  });
});

describe('feesOf', () => {
  it("takes the node's tip over the base fee, the cap over 1.2x the base fee, and never less than BSC's floor", () => {
    const reads = { latest: { baseFeePerGas: 1_000_000_000n }, gasPrice: 1_200_000_000n, suggestedTip: 1_000_000_000n };
    expect(feesOf(reads)).toEqual({ maxPriorityFeePerGas: 1_000_000_000n, maxFeePerGas: 2_200_000_000n });
    expect(feesOf(reads, 1n).maxPriorityFeePerGas).toBe(BSC_MIN_PRIORITY_FEE_WEI);
    const bsc = { latest: { baseFeePerGas: 0n }, gasPrice: 0n, suggestedTip: 0n };
    expect(feesOf(bsc)).toEqual({
      maxPriorityFeePerGas: BSC_MIN_PRIORITY_FEE_WEI,
      maxFeePerGas: BSC_MIN_PRIORITY_FEE_WEI,
    });
  });
});
