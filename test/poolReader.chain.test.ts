import { type Address, createPublicClient, custom, type Hash, type PublicClient, parseEther } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../src-main/chain/devnet/startDevnet';
import { devnetChain } from '../src-main/chain/networks';
import { readPoolAtOnce, readPoolByCalls, readPoolFromBirth } from '../src-main/services/poolStateService';
import { launcher, SPACING } from './support/launcher';
import { routerDriver } from './support/routerDriver';

/*
 * PoolReader, run as a deployless eth_call, and a fresh pool's own logs since its launch both give exactly what the
 * value-by-value reads do: price, liquidity, fee, spacing and every initialized tick, at every fee tier (spacing 1
 * walks about 7,000 bitmap words), with a first buy in the launch, and after trades move the price across ranges.
 */

let devnet: Devnet;
let client: PublicClient;

beforeAll(async () => {
  devnet = await startDevnet();
  client = createPublicClient({ chain: devnetChain, transport: custom(devnet.provider) }) as PublicClient;
});

describe('PoolReader', () => {
  it.each([100, 500, 2500, 10000])('reads a %i-tier pool with four ranges as the one-by-one reads do', async (fee) => {
    const spacing = SPACING[fee] as number;
    const launched = await launcher(devnet, client).launch({
      creator: 3,
      saltSeed: `pool-reader-${fee}`,
      fee,
      firstBuy: parseEther('0.5'),
      openingTick: -207_000 - (-207_000 % spacing),
      shape: [
        { width: 40 * spacing, bps: 2500 },
        { width: 90 * spacing, bps: 2500 },
        { width: 300 * spacing, bps: 2500 },
        { width: 0, bps: 2500 },
      ],
    });
    if (launched.result !== 'ok' || !launched.pool) throw new Error(`launch failed: ${launched.result}`);
    const pool = launched.pool as Address;
    const launchBlock = Number((await client.getTransactionReceipt({ hash: launched.hash as Hash })).blockNumber);
    const read = async () => {
      const head = await client.getBlock({ blockTag: 'latest' });
      const byCalls = await readPoolByCalls(client, pool, head.number);
      expect(await readPoolAtOnce(client, pool, head.number)).toEqual(byCalls);
      const birth = { block: launchBlock, fee, tickSpacing: spacing };
      expect(await readPoolFromBirth(client, pool, birth, { number: head.number, hash: head.hash })).toEqual(byCalls);
      // A birth that was not this pool's is refused, for a full read instead.
      expect(await readPoolFromBirth(client, pool, { ...birth, block: launchBlock + 1 }, head)).toBeUndefined();
      return byCalls;
    };
    const opened = await read();
    expect(opened.fee).toBe(fee);
    expect(opened.tickSpacing).toBe(spacing);
    expect(opened.ticks.length).toBeGreaterThanOrEqual(5);
    // A buy big enough to cross into the next ranges moves the price and the active liquidity.
    const driver = routerDriver(devnet, client);
    const pair = devnet.contracts.wbnb;
    const bought = await driver.trade(
      9,
      'buyExactIn',
      { ...driver.params({ token: launched.token, pair, pool }, parseEther('20'), 0n), fee },
      parseEther('20'),
    );
    expect(bought.result).toBe('ok');
    const moved = await read();
    expect(moved.sqrtPriceX96).not.toBe(opened.sqrtPriceX96);
  });
});
