/**
 * Proof that the bigint swap engine (src-main/core/swap) is the pool to the wei: its math against the pool's own
 * libraries (PancakeMathHarness), and whole swaps against QuoterV2 and real SwapRouter trades on pools with many
 * initialized ticks, before and after the price moves.
 */
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  getAddress,
  type PublicClient,
  parseEther,
  type WalletClient,
} from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../src-main/chain/devnet/startDevnet';
import { LaunchToken } from '../src-main/chain/generated/contracts';
import { PancakeMathHarness } from '../src-main/chain/generated/harness';
import {
  NonfungiblePositionManager,
  PancakeV3Factory,
  PancakeV3Pool,
  QuoterV2,
  SwapRouter,
  TickLens,
  WETH9,
} from '../src-main/chain/generated/vendor';
import { devnetChain } from '../src-main/chain/networks';
import { getSqrtRatioAtTick, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK } from '../src-main/core/math/tickMath';
import { computeSwapStep } from '../src-main/core/swap/computeSwapStep';
import type { InitializedTick, PoolState } from '../src-main/core/swap/poolState';
import { type SwapResult, simulateSwap } from '../src-main/core/swap/simulateSwap';
import { getAmount0Delta, getAmount1Delta } from '../src-main/core/swap/sqrtPriceMath';

const SEED = 0x5eed_2026;
const MAX_UINT256 = 2n ** 256n - 1n;
const DEADLINE = 2n ** 40n;

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (low: number, high: number): number => low + Math.floor(next() * (high - low + 1));
  /** A uniform integer of exactly up to `bits` bits. */
  const bits = (count: number): bigint => {
    let value = 0n;
    for (let i = 0; i < count; i += 32) value = (value << 32n) | BigInt(Math.floor(next() * 2 ** 32));
    return value & ((1n << BigInt(count)) - 1n);
  };
  /** Log-uniform in [1, 2^maxBits): every magnitude equally likely, so dust and whales both show up. */
  const magnitude = (maxBits: number): bigint => bits(int(1, maxBits)) | 1n;
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T;
  return { next, int, bits, magnitude, pick };
}
type Random = ReturnType<typeof prng>;

let devnet: Devnet;
let client: PublicClient;
let harness: Address;
/** Reseeded before each test from SEED and the test's name: its vectors do not depend on which tests ran before. */
let random = prng(SEED);

function walletOf(index: number): WalletClient & { account: PrivateKeyAccount } {
  const account = privateKeyToAccount(devnet.accounts[index]?.privateKey ?? '0x');
  return createWalletClient({ account, chain: devnetChain, transport: custom(devnet.provider) }) as WalletClient & {
    account: PrivateKeyAccount;
  };
}

interface Call {
  address: Address;
  abi: Abi;
  functionName: string;
  args?: readonly unknown[];
  value?: bigint;
}

/** Sends a transaction from `wallet` and fails the test if it reverts. */
async function send(wallet: ReturnType<typeof walletOf>, request: Call) {
  const hash = await wallet.writeContract({ ...request, account: wallet.account, chain: devnetChain });
  const receipt = await client.getTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`${request.functionName} reverted`);
  return receipt;
}

async function balanceOf(token: Address, owner: Address): Promise<bigint> {
  return client.readContract({ address: token, abi: WETH9.abi, functionName: 'balanceOf', args: [owner] });
}

interface TestPool {
  address: Address;
  token0: Address;
  token1: Address;
  fee: number;
}

/**
 * A token/WBNB pool of `fee` with `positions` random positions minted by account `ownerIndex`: ranges of one tick
 * spacing to a few hundred around the opening price, some sharing ticks, some on bitmap word edges, none full range
 * (so the liquidity ends and large trades drain the pool).
 */
async function createManyTickPool(fee: number, ownerIndex: number, positions: number): Promise<TestPool> {
  const wallet = walletOf(ownerIndex);
  const { positionManager, pancakeFactory, wbnb, swapRouter } = devnet.contracts;
  const hash = await wallet.deployContract({
    abi: LaunchToken.abi,
    bytecode: LaunchToken.bytecode,
    args: ['Ticks', 'TCK', 10n ** 36n],
    account: wallet.account,
    chain: devnetChain,
  });
  const token = getAddress((await client.getTransactionReceipt({ hash })).contractAddress ?? '0x');
  await send(wallet, { address: wbnb, abi: WETH9.abi, functionName: 'deposit', value: parseEther('3000') });
  for (const asset of [token, wbnb]) {
    for (const spender of [positionManager, swapRouter]) {
      await send(wallet, { address: asset, abi: WETH9.abi, functionName: 'approve', args: [spender, MAX_UINT256] });
    }
  }
  const [token0, token1] = BigInt(token) < BigInt(wbnb) ? [token, wbnb] : [wbnb, token];
  // About a million tokens per BNB, as after a launch.
  const openingTick = token0 === token ? -138_155 : 138_155;
  await send(wallet, {
    address: positionManager,
    abi: NonfungiblePositionManager.abi,
    functionName: 'createAndInitializePoolIfNecessary',
    args: [token0, token1, fee, getSqrtRatioAtTick(openingTick) + 12345n],
  });
  const spacing = await client.readContract({
    address: pancakeFactory,
    abi: PancakeV3Factory.abi,
    functionName: 'feeAmountTickSpacing',
    args: [fee],
  });
  const address = (await client.readContract({
    address: pancakeFactory,
    abi: PancakeV3Factory.abi,
    functionName: 'getPool',
    args: [token0, token1, fee],
  })) as Address;
  const center = Math.round(openingTick / spacing);
  const wordEdges = [-2, -1, 0, 1, 2].map((w) => (Math.floor(center / 256) + w) * 256);
  const used: number[] = [];
  for (let i = 0; i < positions; i++) {
    // Compressed ticks: a third reuse an existing tick or a word edge, so ticks are shared and word edges initialized.
    const pickTick = (): number => {
      const roll = random.next();
      if (roll < 0.2 && used.length > 0) return random.pick(used);
      if (roll < 0.3) return random.pick(wordEdges);
      return center + Math.round((random.next() - 0.5) * 2 * 400 * (random.next() < 0.5 ? 0.1 : 1));
    };
    let lower = pickTick();
    let upper = random.next() < 0.5 ? lower + random.int(1, 12) : pickTick();
    if (lower === upper) upper = lower + 1;
    if (lower > upper) [lower, upper] = [upper, lower];
    used.push(lower, upper);
    await send(wallet, {
      address: positionManager,
      abi: NonfungiblePositionManager.abi,
      functionName: 'mint',
      args: [
        {
          token0,
          token1,
          fee,
          tickLower: lower * spacing,
          tickUpper: upper * spacing,
          amount0Desired: random.magnitude(token0 === wbnb ? 63 : 83) + 10n ** 9n,
          amount1Desired: random.magnitude(token1 === wbnb ? 63 : 83) + 10n ** 9n,
          amount0Min: 0n,
          amount1Min: 0n,
          recipient: wallet.account.address,
          deadline: DEADLINE,
        },
      ],
    });
  }
  return { address, token0, token1, fee };
}

/** The pool's state, read the way a tick-data provider would: slot0, liquidity, and every populated bitmap word. */
async function readPoolState(pool: TestPool): Promise<PoolState> {
  const read = <T>(functionName: string, args: readonly unknown[] = []) =>
    client.readContract({ address: pool.address, abi: PancakeV3Pool.abi, functionName, args } as never) as Promise<T>;
  const [slot0, liquidity, fee, tickSpacing] = await Promise.all([
    read<readonly [bigint, number]>('slot0'),
    read<bigint>('liquidity'),
    read<number>('fee'),
    read<number>('tickSpacing'),
  ]);
  const ticks: InitializedTick[] = [];
  const words: number[] = [];
  for (let word = Math.floor(MIN_TICK / tickSpacing) >> 8; word <= Math.floor(MAX_TICK / tickSpacing) >> 8; word++) {
    words.push(word);
  }
  const bitmaps = await Promise.all(
    words.map((word) => read<bigint>('tickBitmap', [word]).then((bitmap) => ({ word, bitmap }))),
  );
  for (const { word, bitmap } of bitmaps) {
    if (bitmap === 0n) continue;
    const populated = await client.readContract({
      address: devnet.contracts.tickLens,
      abi: TickLens.abi,
      functionName: 'getPopulatedTicksInWord',
      args: [pool.address, word],
    });
    for (const t of populated) ticks.push({ index: t.tick, liquidityNet: t.liquidityNet });
  }
  ticks.sort((a, b) => a.index - b.index);
  return { sqrtPriceX96: slot0[0], tick: slot0[1], liquidity, fee, tickSpacing, ticks };
}

/**
 * QuoterV2's initializedTicksCrossed (PoolTicksCounter), replicated: it counts the bitmap between the ticks before and
 * after, with the compressed tick truncated toward zero rather than floored, so it can count a tick the swap did not
 * cross (or the one it starts on) where the engine's `ticksCrossed` counts only real crossings.
 */
function quoterTicksCrossed(pool: PoolState, tickBefore: number, tickAfter: number): number {
  const spacing = pool.tickSpacing;
  const initialized = new Set(pool.ticks.map((t) => t.index / spacing));
  const before = Math.trunc(tickBefore / spacing);
  const after = Math.trunc(tickAfter / spacing);
  const afterCounted = initialized.has(after) && tickAfter % spacing === 0 && tickBefore > tickAfter;
  const beforeCounted = initialized.has(before) && tickBefore % spacing === 0 && tickBefore < tickAfter;
  const [low, high] = before <= after ? [before, after] : [after, before];
  let count = 0;
  for (const compressed of initialized) if (compressed >= low && compressed <= high) count++;
  return count - (afterCounted ? 1 : 0) - (beforeCounted ? 1 : 0);
}

interface Trade {
  zeroForOne: boolean;
  amountSpecified: bigint;
  sqrtPriceLimitX96?: bigint;
}

/**
 * Quotes `trade` with QuoterV2 and with the engine and expects the same numbers; returns the engine's result (or
 * 'reverted') so the caller can tally what was covered. QuoterV2 reverts when the swap moved no tokens at all, and on exact output without a price limit when
 * the pool cannot pay the whole amount; the engine says so with amounts of zero and `filled: false`.
 */
async function expectQuoteMatches(pool: TestPool, state: PoolState, trade: Trade): Promise<SwapResult | 'reverted'> {
  const { zeroForOne, amountSpecified, sqrtPriceLimitX96 } = trade;
  const exactIn = amountSpecified > 0n;
  const [tokenIn, tokenOut] = zeroForOne ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
  const direction = zeroForOne ? '0→1' : '1→0';
  const label = `${pool.fee} ${direction} ${exactIn ? 'in' : 'out'} ${amountSpecified} limit ${sqrtPriceLimitX96 ?? '-'}`;
  let engine: SwapResult | undefined;
  try {
    engine = simulateSwap(state, zeroForOne, amountSpecified, sqrtPriceLimitX96);
  } catch {
    engine = undefined;
  }
  const expectRevert =
    engine === undefined ||
    (engine.amountIn === 0n && engine.amountOut === 0n) ||
    (!exactIn && sqrtPriceLimitX96 === undefined && !engine.filled);
  let quoted: readonly [bigint, bigint, number, bigint] | undefined;
  try {
    const args = { tokenIn, tokenOut, fee: pool.fee, sqrtPriceLimitX96: sqrtPriceLimitX96 ?? 0n };
    const { result } = exactIn
      ? await client.simulateContract({
          address: devnet.contracts.quoter,
          abi: QuoterV2.abi,
          functionName: 'quoteExactInputSingle',
          args: [{ ...args, amountIn: amountSpecified }],
        })
      : await client.simulateContract({
          address: devnet.contracts.quoter,
          abi: QuoterV2.abi,
          functionName: 'quoteExactOutputSingle',
          args: [{ ...args, amount: -amountSpecified }],
        });
    quoted = result;
  } catch {
    quoted = undefined;
  }
  if (expectRevert || !engine) {
    expect(quoted, `${label}: QuoterV2 should revert`).toBeUndefined();
    return 'reverted';
  }
  expect(quoted, `${label}: QuoterV2 reverted`).toBeDefined();
  if (!quoted) return 'reverted';
  const [amount, sqrtPriceX96After, initializedTicksCrossed] = quoted;
  expect(amount, `${label}: amount`).toBe(exactIn ? engine.amountOut : engine.amountIn);
  expect(sqrtPriceX96After, `${label}: price after`).toBe(engine.sqrtPriceX96After);
  expect(initializedTicksCrossed, `${label}: ticks crossed`).toBe(
    quoterTicksCrossed(state, state.tick, engine.tickAfter),
  );
  // QuoterV2 may count one tick at an end of the swap that was not crossed; never fewer than were.
  expect(initializedTicksCrossed - engine.ticksCrossed, `${label}: ticks crossed`).toBeOneOf([0, 1]);
  return engine;
}

/** How much each side of the pool holds: the output and input of a swap that drains it to the price limit. */
function drainSizes(state: PoolState, zeroForOne: boolean) {
  const drain = simulateSwap(state, zeroForOne, 2n ** 200n);
  return { maxIn: drain.amountIn, maxOut: drain.amountOut };
}

/** A random trade: sizes log-uniform from 1 wei to twice what drains the pool, plus the edges around the drain. */
function randomTrade(state: PoolState, rng: Random): Trade {
  const zeroForOne = rng.next() < 0.5;
  const exactIn = rng.next() < 0.5;
  const { maxIn, maxOut } = drainSizes(state, zeroForOne);
  const max = exactIn ? maxIn : maxOut;
  const roll = rng.next();
  let size: bigint;
  if (roll < 0.03) size = 1n;
  else if (roll < 0.1) size = BigInt(rng.int(2, 1000));
  else if (roll < 0.2) size = max + BigInt(rng.int(-3, 3));
  else if (roll < 0.6) size = rng.magnitude(max.toString(2).length + 1);
  else size = (max * BigInt(rng.int(1, 1300))) / 1000n;
  if (size <= 0n) size = 1n;
  const trade: Trade = { zeroForOne, amountSpecified: exactIn ? size : -size };
  if (rng.next() < 0.2) {
    // A limit somewhere between the price and a few hundred tick spacings away, sometimes exactly on a tick.
    const ticksAway = rng.int(1, 300) * state.tickSpacing;
    const tick = Math.max(MIN_TICK + 1, Math.min(MAX_TICK - 1, state.tick + (zeroForOne ? -ticksAway : ticksAway)));
    const onTick = getSqrtRatioAtTick(tick);
    const limit = rng.next() < 0.5 ? onTick : onTick + (zeroForOne ? 1n : -1n) * rng.bits(60);
    if (zeroForOne ? limit < state.sqrtPriceX96 : limit > state.sqrtPriceX96) trade.sqrtPriceLimitX96 = limit;
  }
  return trade;
}

beforeAll(async () => {
  devnet = await startDevnet();
  client = createPublicClient({ chain: devnetChain, transport: custom(devnet.provider) }) as PublicClient;
  const wallet = walletOf(1);
  const hash = await wallet.deployContract({
    abi: PancakeMathHarness.abi,
    bytecode: PancakeMathHarness.bytecode,
    account: wallet.account,
    chain: devnetChain,
  });
  harness = getAddress((await client.getTransactionReceipt({ hash })).contractAddress ?? '0x');
});
beforeEach(({ task }) => {
  let name = 0;
  for (const char of task.name) name = (Math.imul(name, 31) + char.charCodeAt(0)) >>> 0;
  random = prng(SEED ^ name);
});

describe(`swap math against the pool's own libraries (seed ${SEED})`, () => {
  /** A sqrt price: on a random tick, or next to one, or anywhere in range. */
  const randomPrice = (): bigint => {
    const onTick = getSqrtRatioAtTick(random.int(MIN_TICK, MAX_TICK));
    const roll = random.next();
    if (roll < 0.4) return onTick;
    if (roll < 0.8) {
      const nearby = onTick + random.bits(random.int(1, 90));
      return nearby < MAX_SQRT_RATIO ? nearby : onTick;
    }
    return MIN_SQRT_RATIO + (random.bits(160) % (MAX_SQRT_RATIO - MIN_SQRT_RATIO));
  };
  /** A second price near the first (a few ticks away) or anywhere. */
  const pricePair = (): [bigint, bigint] => {
    const a = randomPrice();
    if (random.next() < 0.5) return [a, randomPrice()];
    const factor = 10n ** 6n + BigInt(random.int(-5000, 5000));
    let b = (a * factor) / 10n ** 6n;
    if (b < MIN_SQRT_RATIO) b = MIN_SQRT_RATIO;
    if (b >= MAX_SQRT_RATIO) b = MAX_SQRT_RATIO - 1n;
    return [a, b];
  };
  const randomLiquidity = (): bigint => (random.next() < 0.05 ? 0n : random.magnitude(128));

  it('getAmount0Delta and getAmount1Delta equal SqrtPriceMath on 400 random vectors', async () => {
    for (let i = 0; i < 400; i++) {
      const [a, b] = pricePair();
      const liquidity = randomLiquidity();
      const roundUp = random.next() < 0.5;
      const functionName = i % 2 === 0 ? 'getAmount0Delta' : 'getAmount1Delta';
      const local = functionName === 'getAmount0Delta' ? getAmount0Delta : getAmount1Delta;
      const onChain = await client.readContract({
        address: harness,
        abi: PancakeMathHarness.abi,
        functionName,
        args: [a, b, liquidity, roundUp],
      });
      expect(local(a, b, liquidity, roundUp), `${functionName}(${a}, ${b}, ${liquidity}, ${roundUp})`).toBe(onChain);
    }
  });

  it('computeSwapStep equals SwapMath on 400 random vectors, reverting where it reverts', async () => {
    let reverted = 0;
    for (let i = 0; i < 400; i++) {
      const [current, target] = pricePair();
      const liquidity = randomLiquidity();
      const amount =
        random.next() < 0.1 ? BigInt(random.int(0, 3)) : random.magnitude(random.pick([64, 128, 200, 255]));
      const amountRemaining = random.next() < 0.5 ? amount : -amount;
      const fee = random.next() < 0.8 ? random.pick([100, 500, 2500, 10000]) : random.int(0, 999_999);
      const label = `computeSwapStep(${current}, ${target}, ${liquidity}, ${amountRemaining}, ${fee})`;
      let onChain: readonly bigint[] | undefined;
      try {
        onChain = await client.readContract({
          address: harness,
          abi: PancakeMathHarness.abi,
          functionName: 'computeSwapStep',
          args: [current, target, liquidity, amountRemaining, fee],
        });
      } catch {
        onChain = undefined;
      }
      if (!onChain) {
        reverted++;
        expect(() => computeSwapStep(current, target, liquidity, amountRemaining, fee), label).toThrow(RangeError);
        continue;
      }
      const step = computeSwapStep(current, target, liquidity, amountRemaining, fee);
      expect([step.sqrtPriceNextX96, step.amountIn, step.amountOut, step.feeAmount], label).toEqual([...onChain]);
    }
    expect(reverted).toBeLessThan(40);
  });

  it('computeSwapStep equals SwapMath on 30 vectors where token0 in overflows the precise formula', async () => {
    // Past uint256 the pool prices token0 input as L / (L / P + amount) instead of L * P / (L + amount * P); the two
    // round apart only when the price is high and the liquidity deep, so look there.
    const found: [bigint, bigint, bigint, bigint, number][] = [];
    while (found.length < 30) {
      const price = (1n << BigInt(random.int(140, 159))) + random.bits(130);
      const liquidity = (1n << BigInt(random.int(100, 127))) + random.bits(100);
      const fee = random.pick([100, 500, 2500, 10000]);
      const amount = (MAX_UINT256 / price) * BigInt(random.int(1, 1024)) + random.bits(64);
      const lessFee = (amount * BigInt(1_000_000 - fee)) / 1_000_000n;
      const numerator1 = liquidity << 96n;
      const sum = numerator1 / price + lessFee;
      const fallback = numerator1 / sum + (numerator1 % sum === 0n ? 0n : 1n);
      const precise = (numerator1 * price + numerator1 + lessFee * price - 1n) / (numerator1 + lessFee * price);
      if (fallback === precise || getAmount0Delta(MIN_SQRT_RATIO, price, liquidity, true) <= lessFee) continue;
      found.push([price, MIN_SQRT_RATIO, liquidity, amount, fee]);
    }
    for (const args of found) {
      const onChain = await client.readContract({
        address: harness,
        abi: PancakeMathHarness.abi,
        functionName: 'computeSwapStep',
        args,
      });
      const step = computeSwapStep(...args);
      expect([step.sqrtPriceNextX96, step.amountIn, step.amountOut, step.feeAmount], `${args}`).toEqual([...onChain]);
    }
  });
});

describe(`whole swaps against QuoterV2 and SwapRouter on pools with many ticks (seed ${SEED})`, () => {
  /** What the quotes of one test covered, so a change of seed or sizes cannot quietly test only the easy cases. */
  let tally = { quoted: 0, reverted: 0, unfilled: 0, manyTicks: 0, dust: 0, executed: 0 };
  beforeEach(() => {
    tally = { quoted: 0, reverted: 0, unfilled: 0, manyTicks: 0, dust: 0, executed: 0 };
  });

  async function quoteRandomTrades(pool: TestPool, count: number): Promise<PoolState> {
    const state = await readPoolState(pool);
    for (let i = 0; i < count; i++) {
      const trade = randomTrade(state, random);
      const result = await expectQuoteMatches(pool, state, trade);
      if (trade.amountSpecified < 1000n && trade.amountSpecified > -1000n) tally.dust++;
      if (result === 'reverted') {
        tally.reverted++;
        continue;
      }
      tally.quoted++;
      if (!result.filled) tally.unfilled++;
      if (result.ticksCrossed >= 10) tally.manyTicks++;
    }
    return state;
  }

  function expectCoverage(trades: number): void {
    expect(tally.quoted + tally.reverted).toBe(trades);
    expect(tally.reverted).toBeLessThan(trades / 4);
    expect(tally.unfilled).toBeGreaterThan(trades / 20);
    expect(tally.manyTicks).toBeGreaterThan(trades / 10);
    expect(tally.dust).toBeGreaterThan(trades / 30);
  }

  /** Executes `trade` through SwapRouter and expects the balances and the pool's new slot0 the engine predicted. */
  async function executeAndCompare(pool: TestPool, trade: Trade, traderIndex: number): Promise<void> {
    const before = await readPoolState(pool);
    const expected = simulateSwap(before, trade.zeroForOne, trade.amountSpecified, trade.sqrtPriceLimitX96);
    const trader = walletOf(traderIndex);
    const me = trader.account.address;
    const [tokenIn, tokenOut] = trade.zeroForOne ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
    const [inBefore, outBefore] = [await balanceOf(tokenIn, me), await balanceOf(tokenOut, me)];
    expect(expected.amountIn <= inBefore, 'the trader can pay').toBe(true);
    const common = {
      tokenIn,
      tokenOut,
      fee: pool.fee,
      recipient: me,
      deadline: DEADLINE,
      sqrtPriceLimitX96: trade.sqrtPriceLimitX96 ?? 0n,
    };
    if (trade.amountSpecified > 0n) {
      await send(trader, {
        address: devnet.contracts.swapRouter,
        abi: SwapRouter.abi,
        functionName: 'exactInputSingle',
        args: [{ ...common, amountIn: trade.amountSpecified, amountOutMinimum: 0n }],
      });
    } else {
      await send(trader, {
        address: devnet.contracts.swapRouter,
        abi: SwapRouter.abi,
        functionName: 'exactOutputSingle',
        args: [{ ...common, amountOut: -trade.amountSpecified, amountInMaximum: MAX_UINT256 >> 1n }],
      });
    }
    expect(inBefore - (await balanceOf(tokenIn, me)), 'paid in').toBe(expected.amountIn);
    expect((await balanceOf(tokenOut, me)) - outBefore, 'paid out').toBe(expected.amountOut);
    const after = await readPoolState(pool);
    expect([after.sqrtPriceX96, after.tick, after.liquidity]).toEqual([
      expected.sqrtPriceX96After,
      expected.tickAfter,
      expected.liquidityAfter,
    ]);
    tally.executed++;
  }

  /** Gives the trader both tokens of `pool` and lets SwapRouter take them. */
  async function fundTrader(pool: TestPool, ownerIndex: number, traderIndex: number): Promise<void> {
    const owner = walletOf(ownerIndex);
    const trader = walletOf(traderIndex);
    const { wbnb, swapRouter } = devnet.contracts;
    await send(trader, { address: wbnb, abi: WETH9.abi, functionName: 'deposit', value: parseEther('9000') });
    const token = pool.token0 === wbnb ? pool.token1 : pool.token0;
    await send(owner, {
      address: token,
      abi: WETH9.abi,
      functionName: 'transfer',
      args: [trader.account.address, 10n ** 35n],
    });
    for (const asset of [token, wbnb]) {
      await send(trader, { address: asset, abi: WETH9.abi, functionName: 'approve', args: [swapRouter, MAX_UINT256] });
    }
  }

  it('0.05% pool (spacing 10, 60 positions): quotes, real trades, quotes again from the moved price', async () => {
    const pool = await createManyTickPool(500, 2, 60);
    await fundTrader(pool, 2, 4);
    let state = await quoteRandomTrades(pool, 100);
    expect(state.ticks.length).toBeGreaterThan(60);
    // Up through many ticks, exact in.
    await executeAndCompare(pool, { zeroForOne: false, amountSpecified: drainSizes(state, false).maxIn / 3n }, 4);
    state = await quoteRandomTrades(pool, 30);
    // Down through many ticks, exact out.
    await executeAndCompare(pool, { zeroForOne: true, amountSpecified: -(drainSizes(state, true).maxOut / 2n) }, 4);
    state = await quoteRandomTrades(pool, 30);
    // Down past the last liquidity into the empty range, stopping exactly on a bitmap word's first tick: the pool
    // reaches it as a word boundary and leaves slot0.tick one below it.
    const lowest = state.ticks[0]?.index ?? 0;
    const wordStart = (Math.floor(lowest / state.tickSpacing / 256) - 3) * 256 * state.tickSpacing;
    await executeAndCompare(
      pool,
      { zeroForOne: true, amountSpecified: 2n ** 120n, sqrtPriceLimitX96: getSqrtRatioAtTick(wordStart) },
      4,
    );
    state = await readPoolState(pool);
    expect([state.tick, state.liquidity]).toEqual([wordStart - 1, 0n]);
    state = await quoteRandomTrades(pool, 30);
    // And back up out of the empty range into the liquidity, exact out.
    await executeAndCompare(pool, { zeroForOne: false, amountSpecified: -(drainSizes(state, false).maxOut / 2n) }, 4);
    await quoteRandomTrades(pool, 40);
    expect(tally.executed).toBe(4);
    expectCoverage(230);
  });

  it('1% pool (spacing 200, 45 positions): quotes, real trades, quotes again from the moved price', async () => {
    const pool = await createManyTickPool(10000, 3, 45);
    await fundTrader(pool, 3, 5);
    let state = await quoteRandomTrades(pool, 80);
    await executeAndCompare(pool, { zeroForOne: true, amountSpecified: drainSizes(state, true).maxIn / 4n }, 5);
    state = await quoteRandomTrades(pool, 30);
    // Down to exactly the third initialized tick below: the pool crosses it and sits one tick under it, at its price,
    // so the next swap up crosses it again first, moving nothing.
    const below = state.ticks.filter((t) => t.index <= state.tick);
    const target = below[below.length - 3]?.index ?? 0;
    const limit = getSqrtRatioAtTick(target);
    await executeAndCompare(pool, { zeroForOne: true, amountSpecified: 2n ** 100n, sqrtPriceLimitX96: limit }, 5);
    state = await quoteRandomTrades(pool, 30);
    expect([state.sqrtPriceX96, state.tick]).toEqual([limit, target - 1]);
    await executeAndCompare(pool, { zeroForOne: false, amountSpecified: -(drainSizes(state, false).maxOut / 2n) }, 5);
    await quoteRandomTrades(pool, 30);
    expect(tally.executed).toBe(3);
    expectCoverage(170);
  });
});
