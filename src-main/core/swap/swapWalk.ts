/**
 * One pass of the pool's swap loop at a time, on a PoolState instead of storage: the same steps, so the same wei.
 * simulateSwap runs it to the end; fullSteps.ts caches the steps a state's swaps take whole.
 */

import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from '../math/tickMath';
import { computeSwapStep } from './computeSwapStep';
import { addDelta } from './liquidityMath';
import type { InitializedTick, PoolState } from './poolState';

/** Ticks a bitmap word covers, in units of the tick spacing. */
const WORD_BITS = 256;
const LOG_SQRT_TICK_BASE = Math.log(1.0001) / 2;

/** A swap of `remaining` (> 0: exact input, < 0: exact output) about to start from the pool's own state. */
export function startWalk(pool: PoolState, zeroForOne: boolean, remaining: bigint): Walk {
  return {
    price: pool.sqrtPriceX96,
    tick: pool.tick,
    liquidity: pool.liquidity,
    // The next initialized tick in the swap's direction: the last at or below the tick going down, the first above
    // it going up. The tick only moves past initialized ticks by crossing them, so the cursor just steps.
    cursor: firstAbove(pool.ticks, pool.tick) - (zeroForOne ? 1 : 0),
    remaining,
    calculated: 0n,
    feeAmount: 0n,
    ticksCrossed: 0,
  };
}

/** Where a swap has got to: the pool's price, tick, liquidity and next initialized tick, and the amounts so far. */
export interface Walk {
  price: bigint;
  tick: number;
  liquidity: bigint;
  /** Index in the pool's ticks of the next initialized tick in the swap's direction. */
  cursor: number;
  /** What is left of the amount specified (positive: input, negative: output). */
  remaining: bigint;
  /** The other side so far: minus the output on exact input, the input with fees on exact output. */
  calculated: bigint;
  feeAmount: bigint;
  ticksCrossed: number;
}

/**
 * One pass of the pool's swap loop: a computeSwapStep towards the next tick (or word edge, or limit), then the move.
 * Says whether the price reached that target. `toTarget`: computeSwapStep's amountToTarget, when already known.
 */
export function step(
  pool: PoolState,
  zeroForOne: boolean,
  limit: bigint,
  exactInput: boolean,
  walk: Walk,
  toTarget?: bigint,
): boolean {
  const start = walk.price;
  const next = pool.ticks[walk.cursor];
  const tickNext = nextTickWithinOneWord(walk.tick, pool.tickSpacing, zeroForOne, next, walk.liquidity === 0n);
  const initialized = next !== undefined && tickNext === next.index;
  const sqrtPriceNext = sqrtPriceAtTick(tickNext);
  const target = (zeroForOne ? sqrtPriceNext < limit : sqrtPriceNext > limit) ? limit : sqrtPriceNext;
  const swapped = computeSwapStep(start, target, walk.liquidity, walk.remaining, pool.fee, toTarget);
  const price = swapped.sqrtPriceNextX96;
  walk.price = price;
  if (exactInput) {
    walk.remaining -= swapped.amountIn + swapped.feeAmount;
    walk.calculated -= swapped.amountOut;
  } else {
    walk.remaining += swapped.amountOut;
    walk.calculated += swapped.amountIn + swapped.feeAmount;
  }
  walk.feeAmount += swapped.feeAmount;

  if (price === sqrtPriceNext) {
    if (initialized) {
      walk.liquidity = addDelta(walk.liquidity, zeroForOne ? -next.liquidityNet : next.liquidityNet);
      walk.ticksCrossed++;
      walk.cursor += zeroForOne ? -1 : 1;
    }
    walk.tick = zeroForOne ? tickNext - 1 : tickNext;
  } else if (price !== start) {
    walk.tick = tickAtSqrtPrice(price);
    // Without liquidity the loop jumped over empty bitmap words; had it walked them, a limit exactly on a word's
    // first tick would have been reached as that word's boundary, leaving the tick one below.
    if (zeroForOne && walk.liquidity === 0n && isWordStartReachedExactly(walk.tick, price, pool.tickSpacing, next))
      walk.tick--;
  }
  return price === target;
}

/**
 * getSqrtRatioAtTick, remembered: it is pure, it is most of the cost of a step, and quote after quote the same
 * initialized ticks and word edges come up. Bounded so a long-running process cannot grow it without limit.
 */
const sqrtPriceCache = new Map<number, bigint>();
const SQRT_PRICE_CACHE_SIZE = 1 << 16;

export function sqrtPriceAtTick(tick: number): bigint {
  let price = sqrtPriceCache.get(tick);
  if (price === undefined) {
    if (sqrtPriceCache.size >= SQRT_PRICE_CACHE_SIZE) sqrtPriceCache.clear();
    price = getSqrtRatioAtTick(tick);
    sqrtPriceCache.set(tick, price);
  }
  return price;
}

/** Index of the first initialized tick above `tick` (ticks.length if none): a binary search, done once per swap. */
function firstAbove(ticks: readonly InitializedTick[], tick: number): number {
  let low = 0;
  let high = ticks.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    // biome-ignore lint/style/noNonNullAssertion: mid is inside the array by the loop bound
    if (ticks[mid]!.index <= tick) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Where the pool's next step ends: TickBitmap.nextInitializedTickWithinOneWord, clamped to the tick range. The pool
 * also stops at the edge of each 256-tick-spacing bitmap word, and each stop rounds the amounts once more, so the
 * edges are kept, except where there is no liquidity: there every step moves nothing and can be skipped.
 */
function nextTickWithinOneWord(
  tick: number,
  tickSpacing: number,
  lte: boolean,
  next: InitializedTick | undefined,
  skipEmptyWords: boolean,
): number {
  const compressed = Math.floor(tick / tickSpacing);
  let tickNext: number;
  if (lte) {
    const wordStart = Math.floor(compressed / WORD_BITS) * WORD_BITS * tickSpacing;
    tickNext = next && (skipEmptyWords || next.index >= wordStart) ? next.index : skipEmptyWords ? MIN_TICK : wordStart;
  } else {
    const wordEnd = (Math.floor((compressed + 1) / WORD_BITS) * WORD_BITS + WORD_BITS - 1) * tickSpacing;
    tickNext = next && (skipEmptyWords || next.index <= wordEnd) ? next.index : skipEmptyWords ? MAX_TICK : wordEnd;
  }
  return tickNext < MIN_TICK ? MIN_TICK : tickNext > MAX_TICK ? MAX_TICK : tickNext;
}

/**
 * Whether a downward swap without liquidity, stopping at `price` of `tick`, would in the pool have stopped there as a
 * word boundary: the price exactly at a word's first tick, which lies above the next initialized tick.
 */
function isWordStartReachedExactly(
  tick: number,
  price: bigint,
  tickSpacing: number,
  next: InitializedTick | undefined,
): boolean {
  return (
    tick % (WORD_BITS * tickSpacing) === 0 &&
    tick > MIN_TICK &&
    (next === undefined || tick > next.index) &&
    getSqrtRatioAtTick(tick) === price
  );
}

/**
 * getTickAtSqrtRatio, exact but quicker than a full binary search: a floating-point logarithm lands within a tick,
 * and the tick's own sqrt prices settle it.
 */
function tickAtSqrtPrice(sqrtPriceX96: bigint): number {
  const estimate = Math.floor(Math.log(Number(sqrtPriceX96) / 2 ** 96) / LOG_SQRT_TICK_BASE);
  let tick = Math.min(Math.max(estimate, MIN_TICK), MAX_TICK);
  // Remembered prices: quotes of nearby sizes end in the same tick, whose edges were worked out the quote before.
  while (tick > MIN_TICK && sqrtPriceAtTick(tick) > sqrtPriceX96) tick--;
  while (tick < MAX_TICK && sqrtPriceAtTick(tick + 1) <= sqrtPriceX96) tick++;
  return tick;
}
