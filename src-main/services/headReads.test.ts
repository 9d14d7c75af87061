import type { PublicClient } from 'viem';
import { describe, expect, it } from 'vitest';
import { HeadReads } from './headReads';

/** A node that counts what it is asked, at a block the test moves, and fails while told to. */
function countingChain() {
  const asked: string[] = [];
  const listeners = new Set<(block: bigint) => void>();
  let block = 100n;
  let failing = false;
  const answer = <T>(method: string, value: () => T) => {
    asked.push(method);
    return failing ? Promise.reject(new Error('the node is down')) : Promise.resolve(value());
  };
  const client = {
    getBlock: () => answer('eth_getBlockByNumber', () => ({ number: block, baseFeePerGas: 0n, timestamp: 1n })),
    getGasPrice: () => answer('eth_gasPrice', () => 100_000_000n),
    request: () => answer('eth_maxPriorityFeePerGas', () => '0x5f5e100'),
  } as unknown as PublicClient;
  return {
    asked,
    chain: {
      client,
      chainId: 56,
      onBlock: (listener: (block: bigint) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    mine: () => {
      block++;
      for (const listener of listeners) listener(block);
    },
    fail: (on: boolean) => {
      failing = on;
    },
  };
}

describe('HeadReads', () => {
  it('reads the latest block and the fees once for every build at a block, and again once the next is announced', async () => {
    const node = countingChain();
    const head = new HeadReads(node.chain);
    const [a, b] = await Promise.all([head.read(), head.read()]);
    expect(a).toBe(b);
    expect(await head.read()).toBe(a);
    // One getBlock serves the block and the fees' base fee; the gas price and the tip besides.
    expect(node.asked).toHaveLength(3);
    expect(a.block.number).toBe(100n);
    expect(a.fees.maxPriorityFeePerGas).toBe(100_000_000n);

    node.mine();
    const next = await head.read();
    expect(next.block.number).toBe(101n);
    expect(node.asked).toHaveLength(6);
  });

  it('reads again after a second without an announced block (a chain whose blocks are polled for)', async () => {
    const node = countingChain();
    let now = 0;
    const head = new HeadReads(node.chain, () => now);
    await head.read();
    now += 1_000;
    await head.read();
    expect(node.asked).toHaveLength(3);
    now += 1;
    await head.read();
    expect(node.asked).toHaveLength(6);
  });

  it('keeps no failed read: the next build asks the node again', async () => {
    const node = countingChain();
    const head = new HeadReads(node.chain);
    node.fail(true);
    await expect(head.read()).rejects.toThrow('the node is down');
    node.fail(false);
    expect((await head.read()).block.number).toBe(100n);
  });
});
