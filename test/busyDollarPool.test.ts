import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  http,
  type PublicClient,
  parseEther,
  parseUnits,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { WBNB_USDT_FEE } from '../src-main/chain/devnet/deployDevnet';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { DevStablecoin } from '../src-main/chain/generated/contracts';
import { PancakeV3Pool, SwapRouter } from '../src-main/chain/generated/vendor';
import { devnetChain } from '../src-main/chain/networks';
import { launcher } from './support/launcher';
import { type OverPublicRpc, overPublicRpc } from './support/overPublicRpc';
import { routerDriver } from './support/routerDriver';
import type { TestService } from './support/startTestService';

/*
 * BSC mainnet's WBNB/USDT pool trades in nearly every block. The indexer prices our trades by that pool without
 * reading its every swap with our events (which would swamp a public node's result caps): here the pool swaps in every
 * block, the stand-in answers at most 10 logs a request, and each trade must still get the pool's exact price.
 */
const accounts = testAccounts();
let env: OverPublicRpc;
let service: TestService;
let client: PublicClient;
let pool: Address;
const tradeBlocks: number[] = [];

beforeAll(async () => {
  env = await overPublicRpc({}, { maxLogResults: 10, maxLogRange: 500 });
  const chain = env.devnet;
  const transport = http(`${chain.origin}/rpc`);
  client = createPublicClient({ chain: devnetChain, transport }) as PublicClient;
  const { factory, wbnb, usdt, router, quoter, permit2, swapRouter } = chain.chain.addresses;
  if (!factory || !router) throw new Error('the devnet lacks our contracts');
  pool = chain.chain.devnet?.contracts.wbnbUsdtPool as Address;
  const launched = await launcher({ accounts, contracts: { factory, wbnb }, transport }, client).launch({
    creator: 2,
    saltSeed: 'busy-pool',
    firstBuy: parseEther('0.5'),
  });
  if (launched.result !== 'ok' || !launched.pool) throw new Error(`launch failed: ${launched.result}`);
  const driver = routerDriver({ accounts, contracts: { router, quoter, permit2 }, transport }, client);
  const swapper = privateKeyToAccount(accounts[7]?.privateKey ?? '0x');
  const wallet = createWalletClient({ account: swapper, chain: devnetChain, transport });
  await wallet.writeContract({
    address: usdt,
    abi: DevStablecoin.abi,
    functionName: 'approve',
    args: [swapRouter, 2n ** 256n - 1n],
  });
  for (let i = 0; i < 48; i++) {
    // A swap in the dollar pool in every block, alternating direction, and one of our trades every twelfth block.
    const selling = i % 2 === 1;
    await wallet.writeContract({
      address: swapRouter,
      abi: SwapRouter.abi,
      functionName: 'exactInputSingle',
      args: [
        {
          tokenIn: selling ? usdt : wbnb,
          tokenOut: selling ? wbnb : usdt,
          fee: WBNB_USDT_FEE,
          recipient: swapper.address,
          deadline: 2n ** 40n,
          amountIn: selling ? parseUnits(String(1000 + i * 37), 18) : parseEther(String(1 + (i % 5))),
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n,
        },
      ],
      value: selling ? 0n : parseEther(String(1 + (i % 5))),
    });
    if (i % 12 === 5) {
      const pair = { token: launched.token, pair: wbnb, pool: launched.pool };
      const bought = await driver.trade(4, 'buyExactIn', driver.params(pair, parseEther('0.1'), 0n), parseEther('0.1'));
      if (bought.result !== 'ok') throw new Error(`buy failed: ${bought.result}`);
      tradeBlocks.push(Number(await client.getBlockNumber({ cacheTime: 0 })));
      // The pool swaps again in the same block's wake: the trade's price is the pool's as its own block left it.
    }
  }
  service = await env.serviceOverRpc();
}, 120_000);

afterAll(async () => {
  await env?.dispose();
});

it('prices each trade at the dollar pool price its block left, reading the pool only around trade blocks', async () => {
  const head = Number(await client.getBlockNumber({ cacheTime: 0 }));
  await vi.waitFor(
    async () => {
      const status = (await (await fetch(`${service.url}/status`)).json()) as { indexer: { indexedBlock: number } };
      expect(status.indexer.indexedBlock).toBe(head);
    },
    { timeout: 60_000, interval: 100 },
  );
  const db = new Database(join(service.dataDir, 'app.sqlite'), { readonly: true });
  const kept = new Map(
    (
      db.prepare('SELECT block, sqrt_price_x96 AS price FROM block_prices').all() as { block: number; price: string }[]
    ).map((row) => [row.block, BigInt(row.price)]),
  );
  db.close();
  expect(tradeBlocks).toHaveLength(4);
  for (const block of tradeBlocks) {
    // The truth, read from the devnet's archive state at the block.
    const [sqrtPriceX96] = await client.readContract({
      address: pool,
      abi: PancakeV3Pool.abi,
      functionName: 'slot0',
      blockNumber: BigInt(block),
    });
    expect(kept.get(block), `block ${block}`).toBe(sqrtPriceX96);
  }
  // The pool was read only back from trade blocks (the first buy's block among them), never with our events over
  // whole ranges: a filter naming the pool names nothing else and ends at a block with one of our trades.
  const poolFilters = env.rpc.counts.logFilters.filter((filter) =>
    [filter.address ?? []].flat().some((address) => address.toLowerCase() === pool.toLowerCase()),
  );
  expect(poolFilters.length).toBeGreaterThan(0);
  for (const filter of poolFilters) {
    expect([filter.address].flat()).toHaveLength(1);
    expect(Number(filter.toBlock) - Number(filter.fromBlock)).toBeLessThan(8);
  }
  expect(poolFilters.length).toBeLessThanOrEqual((tradeBlocks.length + 1) * 3);
}, 90_000);
