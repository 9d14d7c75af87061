import { createPublicClient, createWalletClient, custom, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../src-main/chain/devnet/startDevnet';
import { PancakeMathHarness } from '../src-main/chain/generated/harness';
import { devnetChain } from '../src-main/chain/networks';
import { getSqrtRatioAtTick, getTickAtSqrtRatio, MAX_TICK, MIN_TICK } from '../src-main/core/math/tickMath';

let devnet: Devnet;
let client: PublicClient;
let harness: `0x${string}`;

/** Deterministic pseudo-random integers, so a failure names a reproducible vector. */
function* randomTicks(count: number, seed = 12345): Generator<number> {
  let state = seed;
  for (let i = 0; i < count; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    yield MIN_TICK + (state % (MAX_TICK - MIN_TICK + 1));
  }
}

beforeAll(async () => {
  devnet = await startDevnet();
  client = createPublicClient({ chain: devnetChain, transport: custom(devnet.provider) }) as PublicClient;
  const wallet = createWalletClient({
    account: privateKeyToAccount(devnet.accounts[1]?.privateKey ?? '0x'),
    chain: devnetChain,
    transport: custom(devnet.provider),
  });
  const hash = await wallet.deployContract({ abi: PancakeMathHarness.abi, bytecode: PancakeMathHarness.bytecode });
  const address = (await client.getTransactionReceipt({ hash })).contractAddress;
  if (!address) throw new Error('harness not deployed');
  harness = address;
});

it("equals the pool's TickMath on 600 ticks: the extremes, every power of two and random ones", async () => {
  const ticks = [MIN_TICK, MIN_TICK + 1, -1, 0, 1, MAX_TICK - 1, MAX_TICK];
  for (let bit = 0; bit < 20; bit++) ticks.push(2 ** bit, -(2 ** bit), 2 ** bit - 1, -(2 ** bit) + 1);
  ticks.push(...randomTicks(600 - ticks.length));
  for (const tick of ticks) {
    const onChain = await client.readContract({
      address: harness,
      abi: PancakeMathHarness.abi,
      functionName: 'getSqrtRatioAtTick',
      args: [tick],
    });
    expect(getSqrtRatioAtTick(tick), `tick ${tick}`).toBe(onChain);
  }
});

it("finds the same tick as the pool's TickMath for prices on, just under and between ticks", async () => {
  for (const tick of randomTicks(150, 999)) {
    if (tick === MIN_TICK || tick === MAX_TICK) continue;
    const price = getSqrtRatioAtTick(tick);
    const between = (price + getSqrtRatioAtTick(tick + 1)) / 2n;
    for (const sqrtPrice of [price, price - 1n, between]) {
      const onChain = await client.readContract({
        address: harness,
        abi: PancakeMathHarness.abi,
        functionName: 'getTickAtSqrtRatio',
        args: [sqrtPrice],
      });
      expect(getTickAtSqrtRatio(sqrtPrice), `sqrt price ${sqrtPrice}`).toBe(onChain);
    }
  }
});
