import {
  type Abi,
  type Address,
  type EIP1193RequestFn,
  encodeFunctionData,
  formatEther,
  getAbiItem,
  type Hex,
  parseEther,
  parseEventLogs,
  toEventSelector,
  toFunctionSelector,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DevStablecoin, PoolReader } from '../src-main/chain/generated/contracts';
import { NonfungiblePositionManager, PancakeV3Pool, QuoterV2, WETH9 } from '../src-main/chain/generated/vendor';
import { PoolStateService } from '../src-main/services/poolStateService';
import type { ApiClient } from './support/apiClient';
import { type RouterDriver, routerAbi } from './support/routerDriver';
import { serviceDrivers } from './support/serviceDrivers';
import { startTestService, type TestService } from './support/startTestService';
import type { TokenPool } from './support/tokenPool';

/**
 * Every eth_call the service itself makes (its client talks to the devnet provider's `request`; what tests send
 * through /rpc goes through `raw` and is not seen). Counting the pool's slot0 and tickBitmap calls tells when the
 * pool was read in full.
 */
const seen = vi.hoisted(() => ({
  calls: [] as { to?: string; data?: string; input?: string }[],
  logReads: [] as { address?: string | string[]; topics?: (string | string[] | null)[] }[],
}));

vi.mock('../src-main/chain/devnet/edrProvider', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src-main/chain/devnet/edrProvider')>();
  return {
    ...original,
    createEdrProvider: async (options: Parameters<typeof original.createEdrProvider>[0]) => {
      const provider = await original.createEdrProvider(options);
      const request = (async (args: { method: string; params?: unknown }) => {
        if (args.method === 'eth_call' && Array.isArray(args.params)) seen.calls.push(args.params[0] as never);
        if (args.method === 'eth_getLogs' && Array.isArray(args.params)) seen.logReads.push(args.params[0] as never);
        return provider.request(args as never);
      }) as EIP1193RequestFn;
      return { ...provider, request };
    },
  };
});

const SLOT0 = toFunctionSelector('slot0()');
const INITIALIZE = toEventSelector(getAbiItem({ abi: PancakeV3Pool.abi, name: 'Initialize' }));
const FULL_READ_SELECTORS = [SLOT0, toFunctionSelector('tickBitmap(int16)')];
const FEE = 10000;
const FAR = 2n ** 40n;
const MAX = 2n ** 128n - 1n;

/**
 * The service's reads of `pool` in full so far: PoolReader runs (a deployless call, no `to`, carrying the reader's
 * code and the pool's address), and the value-by-value slot0 and tickBitmap calls (or only those of `selectors`).
 */
function fullReadCalls(pool: Address, selectors: readonly Hex[] = FULL_READ_SELECTORS): number {
  const reader = PoolReader.bytecode.slice(2).toLowerCase();
  const address = pool.slice(2).toLowerCase();
  // A pool launched lately is read from its logs since its Initialize instead.
  const fromBirth = seen.logReads.filter(
    (filter) =>
      typeof filter.address === 'string' &&
      filter.address.toLowerCase() === pool.toLowerCase() &&
      JSON.stringify(filter.topics ?? []).includes(INITIALIZE),
  ).length;
  return (
    fromBirth +
    seen.calls.filter((call) => {
      const data = (call.data ?? call.input ?? '').toLowerCase();
      if (!call.to) return data.includes(reader) && data.includes(address);
      return call.to.toLowerCase() === pool.toLowerCase() && selectors.some((s) => data.startsWith(s));
    }).length
  );
}

let service: TestService;
let api: ApiClient;
let driver: RouterDriver;
let contracts: Record<string, Address>;
let launched: TokenPool & { tokenIs0: boolean; boundaries: number[] };

beforeAll(async () => {
  service = await startTestService();
  const drivers = await serviceDrivers(service);
  ({ api, driver, contracts } = drivers);
  // Four ranges, so that trades of a BNB or two cross initialized ticks both ways.
  const l = await drivers.launcher.launch({
    saltSeed: 'pool-events',
    shape: [
      { width: 2000, bps: 1000 },
      { width: 4000, bps: 2000 },
      { width: 8000, bps: 3000 },
      { width: 0, bps: 4000 },
    ],
  });
  if (l.result !== 'ok' || !l.pool) throw new Error(`launch failed: ${l.result}`);
  const boundaries = [...new Set(l.params.ranges.flatMap((r) => [r.tickLower, r.tickUpper]))];
  launched = { token: l.token, pair: contracts.wbnb as Address, pool: l.pool, tokenIs0: l.tokenIs0, boundaries };
});
afterAll(async () => {
  await service?.dispose();
});

async function send(
  index: number,
  call: { address: Address; abi: Abi; functionName: string; args?: unknown[]; value?: bigint },
) {
  const hash = await driver.wallet(index).writeContract(call as never);
  const receipt = await api.client.getTransactionReceipt({ hash });
  expect(receipt.status, call.functionName).toBe('success');
  return receipt;
}

async function trade(index: number, side: 'buyExactIn' | 'sellExactIn', amount: bigint): Promise<void> {
  const result = await driver.trade(
    index,
    side,
    driver.params(launched, amount, 0n),
    side === 'buyExactIn' ? amount : 0n,
  );
  expect(result.result, `${side} ${amount}`).toBe('ok');
}

const tokenBalance = (who: number) => driver.balanceOf(launched.token, driver.account(who).address);

async function poolTick(): Promise<number> {
  const slot0 = await api.client.readContract({
    address: launched.pool,
    abi: PancakeV3Pool.abi,
    functionName: 'slot0',
  });
  return slot0[1];
}

/** The launch's range bounds that a move of the pool's tick from `from` to `to` crossed, either way. */
const crossed = (from: number, to: number) =>
  launched.boundaries.filter((b) => b > Math.min(from, to) && b <= Math.max(from, to));

/** What the chain's QuoterV2 answers for the pool leg: amount out for exact in, amount in for exact out. */
async function chainQuote(exact: 'in' | 'out', tokenIn: Address, tokenOut: Address, amount: bigint): Promise<bigint> {
  const { result } = await api.client.simulateContract({
    address: contracts.quoter as Address,
    abi: QuoterV2.abi,
    functionName: exact === 'in' ? 'quoteExactInputSingle' : 'quoteExactOutputSingle',
    args: [
      exact === 'in'
        ? { tokenIn, tokenOut, amountIn: amount, fee: FEE, sqrtPriceLimitX96: 0n }
        : { tokenIn, tokenOut, amount, fee: FEE, sqrtPriceLimitX96: 0n },
    ],
  } as never);
  return (result as readonly bigint[])[0] as bigint;
}

/** GET /quote for each trade equals, to the wei, the chain's quote of its pool leg (the site fee taken off or added). */
async function expectQuotesOfChain(trades: { side: 'buy' | 'sell'; exact: 'in' | 'out'; amount: bigint }[]) {
  const { token, pair } = launched;
  for (const { side, exact, amount } of trades) {
    const query = `token=${token}&side=${side}&exact=${exact}&amount=${formatEther(amount)}`;
    const { status, body } = await api.get(`/quote?${query}`);
    expect(status, `${query}: ${JSON.stringify(body)}`).toBe(200);
    const pay = BigInt(body.pay.wei);
    const receive = BigInt(body.receive.wei);
    const fee = BigInt(body.siteFee.wei);
    const poolIn = side === 'buy' ? pay - fee : pay;
    const poolOut = side === 'buy' ? receive : receive + fee;
    const [tokenIn, tokenOut] = side === 'buy' ? [pair, token] : [token, pair];
    if (exact === 'in') expect(poolOut, query).toBe(await chainQuote('in', tokenIn, tokenOut, poolIn));
    else expect(poolIn, query).toBe(await chainQuote('out', tokenIn, tokenOut, poolOut));
  }
}

/** Quotes of every kind, large enough to cross ticks in the pool. */
async function expectAllQuotesOfChain(): Promise<void> {
  const held = await tokenBalance(6);
  await expectQuotesOfChain([
    { side: 'buy', exact: 'in', amount: parseEther('0.05') },
    { side: 'buy', exact: 'in', amount: parseEther('2.5') },
    { side: 'buy', exact: 'out', amount: parseEther('30000000') },
    { side: 'sell', exact: 'in', amount: held / 2n },
    { side: 'sell', exact: 'out', amount: parseEther('0.02') },
  ]);
}

describe('pool state followed from Swap, Mint and Burn logs', () => {
  it('quotes what the chain answers after trades and liquidity changes, without reading the pool again', async () => {
    const { token, pair, pool } = launched;
    // A second follower of our own, to compare its whole state with a fresh read at the end.
    expect((await api.get(`/quote?token=${token}&side=buy&amount=1`)).status).toBe(200);
    // The counter sees the service's first full read, so it would see another.
    expect(fullReadCalls(pool)).toBeGreaterThan(0);
    const follower = new PoolStateService(service.chain);
    await follower.get(pool);
    const readsAtStart = fullReadCalls(pool);

    // Other wallets trade: buys up through launch ranges, and a sale back down through them.
    const start = await poolTick();
    await trade(5, 'buyExactIn', parseEther('0.3'));
    await trade(6, 'buyExactIn', parseEther('1.2'));
    const afterBuys = await poolTick();
    expect(crossed(start, afterBuys).length).toBeGreaterThan(0);
    await driver.allowRouter(5, token);
    await trade(5, 'sellExactIn', (await tokenBalance(5)) / 2n);
    expect(crossed(afterBuys, await poolTick()).length).toBeGreaterThan(0);
    await expectAllQuotesOfChain();

    // A liquidity provider adds two ranges around the price through the position manager, sharing their lower tick.
    const lp = 7;
    const provider = driver.account(lp).address;
    await trade(lp, 'buyExactIn', parseEther('0.8'));
    await send(lp, { address: pair, abi: WETH9.abi, functionName: 'deposit', value: parseEther('1') });
    const manager = service.chain.addresses.positionManager;
    for (const asset of [token, pair]) {
      await send(lp, { address: asset, abi: DevStablecoin.abi, functionName: 'approve', args: [manager, MAX] });
    }
    const [token0, token1] = launched.tokenIs0 ? [token, pair] : [pair, token];
    const here = Math.floor((await poolTick()) / 200) * 200;
    const mint = async (tickLower: number, tickUpper: number): Promise<bigint> => {
      const [held0, held1] = await Promise.all([
        driver.balanceOf(token0, provider),
        driver.balanceOf(token1, provider),
      ]);
      const receipt = await send(lp, {
        address: manager,
        abi: NonfungiblePositionManager.abi,
        functionName: 'mint',
        args: [
          {
            token0,
            token1,
            fee: FEE,
            tickLower,
            tickUpper,
            amount0Desired: held0 / 3n,
            amount1Desired: held1 / 3n,
            amount0Min: 0n,
            amount1Min: 0n,
            recipient: provider,
            deadline: FAR,
          },
        ],
      });
      const [minted] = parseEventLogs({
        abi: NonfungiblePositionManager.abi,
        logs: receipt.logs,
        eventName: 'IncreaseLiquidity',
      });
      if (!minted) throw new Error('no IncreaseLiquidity');
      return minted.args.tokenId;
    };
    const narrow = await mint(here - 1000, here + 1000);
    const wide = await mint(here - 1000, here + 2200);
    await expectAllQuotesOfChain();

    // Trades across the new ranges' ticks, both ways.
    await trade(6, 'buyExactIn', parseEther('1.5'));
    await trade(5, 'sellExactIn', await tokenBalance(5));
    await expectAllQuotesOfChain();

    // The narrow range is taken out whole (its upper tick goes, the shared lower one stays), and the wide one's fees
    // are collected: a Burn of nothing.
    const [, , , , , , , liquidity] = await api.client.readContract({
      address: manager,
      abi: NonfungiblePositionManager.abi,
      functionName: 'positions',
      args: [narrow],
    });
    await send(lp, {
      address: manager,
      abi: NonfungiblePositionManager.abi,
      functionName: 'decreaseLiquidity',
      args: [{ tokenId: narrow, liquidity, amount0Min: 0n, amount1Min: 0n, deadline: FAR }],
    });
    const collected = await send(lp, {
      address: manager,
      abi: NonfungiblePositionManager.abi,
      functionName: 'collect',
      args: [{ tokenId: wide, recipient: provider, amount0Max: MAX, amount1Max: MAX }],
    });
    const burns = parseEventLogs({ abi: PancakeV3Pool.abi, logs: collected.logs, eventName: 'Burn' });
    expect(burns.map((b) => b.args.amount)).toEqual([0n]);
    await trade(6, 'buyExactIn', parseEther('0.4'));
    await expectAllQuotesOfChain();

    // Not one slot0 or bitmap read since the first quote: everything came from the logs.
    expect(fullReadCalls(pool)).toBe(readsAtStart);
    // And what was followed is what a full read finds now, tick by tick, gross included.
    const fresh = await new PoolStateService(service.chain).get(pool);
    expect(await follower.get(pool)).toEqual(fresh);
    expect(fresh.ticks.some((t) => t.index === here + 1000)).toBe(launched.boundaries.includes(here + 1000));
    expect(fresh.ticks.some((t) => t.index === here - 1000)).toBe(true);
  });

  it('shares one read between concurrent gets, and answers a get right after a block with that block', async () => {
    const { pool } = launched;
    const devnet = service.chain.devnet;
    if (!devnet) throw new Error('no devnet');
    const pools = new PoolStateService(service.chain);
    // Two gets of a pool not yet read share one read.
    const slot0Reads = fullReadCalls(pool, [SLOT0]);
    const [before, same] = await Promise.all([pools.get(pool), pools.get(pool)]);
    expect(same).toBe(before);
    expect(fullReadCalls(pool, [SLOT0])).toBe(slot0Reads + 1);
    // Sent in-process, so that the get below starts while the block's sync is still to run.
    const wallet = driver.wallet(10);
    const amount = parseEther('0.6');
    const request = await wallet.prepareTransactionRequest({
      to: contracts.router as Address,
      data: encodeFunctionData({
        abi: routerAbi,
        functionName: 'buyExactIn',
        args: [driver.params(launched, amount, 0n)],
      }),
      value: amount,
    });
    await devnet.sendRawTransaction(await wallet.signTransaction(request as never));
    const after = await pools.get(pool);
    expect(after.sqrtPriceX96).not.toBe(before.sqrtPriceX96);
    expect(after).toEqual(await new PoolStateService(service.chain).get(pool));
  });

  it('quotes what the chain answers after the devnet reverts to a snapshot and goes another way', async () => {
    const { token, pool } = launched;
    const devnet = service.chain.devnet;
    if (!devnet) throw new Error('no devnet');
    const snapshot = async () =>
      (await devnet.provider.request({ method: 'evm_snapshot', params: [] } as never)) as Hex;
    const revert = async (id: Hex) =>
      expect(await devnet.provider.request({ method: 'evm_revert', params: [id] } as never)).toBe(true);
    await driver.allowRouter(6, token);
    await expectAllQuotesOfChain();

    // The same height again with another block: only the block hash tells.
    let reads = fullReadCalls(pool);
    let id = await snapshot();
    await trade(8, 'buyExactIn', parseEther('1'));
    await expectAllQuotesOfChain();
    await revert(id);
    await trade(6, 'sellExactIn', (await tokenBalance(6)) / 3n);
    await expectAllQuotesOfChain();
    expect(fullReadCalls(pool)).toBeGreaterThan(reads);

    // A lower head than the one followed: the devnet went back two blocks and made one.
    reads = fullReadCalls(pool);
    id = await snapshot();
    await trade(8, 'buyExactIn', parseEther('0.5'));
    await trade(9, 'buyExactIn', parseEther('0.7'));
    await expectAllQuotesOfChain();
    await revert(id);
    await trade(9, 'buyExactIn', parseEther('0.2'));
    await expectAllQuotesOfChain();
    expect(fullReadCalls(pool)).toBeGreaterThan(reads);
  });
});
