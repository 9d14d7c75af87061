/**
 * The pool's swap loop, run on a PoolState instead of storage: the same steps, so the same wei. It gives what
 * QuoterV2 (and the swap itself) gives for the same state.
 */

import { getSqrtRatioAtTick, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK } from '../math/tickMath';
import { computeSwapStep } from './computeSwapStep';
import { addDelta } from './liquidityMath';
import type { InitializedTick, PoolState } from './poolState';

const MAX_INT256 = (1n << 255n) - 1n;
/** Ticks a bitmap word covers, in units of the tick spacing. */
const WORD_BITS = 256;
const LOG_SQRT_TICK_BASE = Math.log(1.0001) / 2;

export interface SwapResult {
  /** Paid into the pool, fee included. */
  amountIn: bigint;
  /** Paid out of the pool. */
  amountOut: bigint;
  /** The part of `amountIn` that is fee (the protocol's share included). */
  feeAmount: bigint;
  sqrtPriceX96After: bigint;
  /** slot0.tick after the swap. */
  tickAfter: number;
  liquidityAfter: bigint;
  /** Initialized ticks the swap crossed. */
  ticksCrossed: number;
  /** False when the price limit (by default the end of the liquidity) came before `amountSpecified` was met. */
  filled: boolean;
}

/**
 * Quotes a swap of `amountSpecified` (> 0: exact input, < 0: exact output) through `pool`, token0 for token1 when
 * `zeroForOne`, stopping at `sqrtPriceLimitX96` (by default the end of the price range, as QuoterV2 does). Throws a
 * RangeError where the pool would revert: a zero amount ('AS'), a limit on the wrong side of the price ('SPL'),
 * liquidity over- or underflowing ('LA', 'LS').
 *
 * @example
 * const { amountOut } = simulateSwap(pool, true, 10n ** 18n); // sell exactly 1 token0
 * const { amountIn, filled } = simulateSwap(pool, false, -(10n ** 18n)); // buy exactly 1 token0, if the pool has it
 */
export function simulateSwap(
  pool: PoolState,
  zeroForOne: boolean,
  amountSpecified: bigint,
  sqrtPriceLimitX96: bigint = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n,
): SwapResult {
  if (amountSpecified === 0n) throw new RangeError('AS: the amount is zero');
  if (amountSpecified > MAX_INT256 || amountSpecified < -MAX_INT256)
    throw new RangeError('the amount overflows int256');
  const limit = sqrtPriceLimitX96;
  const limitOk = zeroForOne
    ? limit < pool.sqrtPriceX96 && limit > MIN_SQRT_RATIO
    : limit > pool.sqrtPriceX96 && limit < MAX_SQRT_RATIO;
  if (!limitOk) throw new RangeError('SPL: the price limit is on the wrong side of the price or out of range');

  const { ticks, tickSpacing, fee } = pool;
  const exactInput = amountSpecified > 0n;
  let remaining = amountSpecified;
  let calculated = 0n;
  let feeAmount = 0n;
  let price = pool.sqrtPriceX96;
  let tick = pool.tick;
  let liquidity = pool.liquidity;
  let ticksCrossed = 0;
  // The next initialized tick in the swap's direction: the last at or below the tick going down, the first above
  // it going up. The tick only moves past initialized ticks by crossing them, so the cursor just steps.
  let cursor = firstAbove(ticks, tick) - (zeroForOne ? 1 : 0);

  while (remaining !== 0n && price !== limit) {
    const start = price;
    const next = ticks[cursor];
    const tickNext = nextTickWithinOneWord(tick, tickSpacing, zeroForOne, next, liquidity === 0n);
    const initialized = next !== undefined && tickNext === next.index;
    const sqrtPriceNext = sqrtPriceAtTick(tickNext);
    const target = (zeroForOne ? sqrtPriceNext < limit : sqrtPriceNext > limit) ? limit : sqrtPriceNext;
    const step = computeSwapStep(price, target, liquidity, remaining, fee);
    price = step.sqrtPriceNextX96;
    if (exactInput) {
      remaining -= step.amountIn + step.feeAmount;
      calculated -= step.amountOut;
    } else {
      remaining += step.amountOut;
      calculated += step.amountIn + step.feeAmount;
    }
    feeAmount += step.feeAmount;

    if (price === sqrtPriceNext) {
      if (initialized) {
        liquidity = addDelta(liquidity, zeroForOne ? -next.liquidityNet : next.liquidityNet);
        ticksCrossed++;
        cursor += zeroForOne ? -1 : 1;
      }
      tick = zeroForOne ? tickNext - 1 : tickNext;
    } else if (price !== start) {
      tick = tickAtSqrtPrice(price);
      // Without liquidity the loop jumped over empty bitmap words; had it walked them, a limit exactly on a word's
      // first tick would have been reached as that word's boundary, leaving the tick one below.
      if (zeroForOne && liquidity === 0n && isWordStartReachedExactly(tick, price, tickSpacing, next)) tick--;
    }
  }

  const specifiedDone = amountSpecified - remaining;
  return {
    amountIn: exactInput ? specifiedDone : calculated,
    amountOut: exactInput ? -calculated : -specifiedDone,
    feeAmount,
    sqrtPriceX96After: price,
    tickAfter: tick,
    liquidityAfter: liquidity,
    ticksCrossed,
    filled: remaining === 0n,
  };
}

/**
 * getSqrtRatioAtTick, remembered: it is pure, it is most of the cost of a step, and quote after quote the same
 * initialized ticks and word edges come up. Bounded so a long-running process cannot grow it without limit.
 */
const sqrtPriceCache = new Map<number, bigint>();
const SQRT_PRICE_CACHE_SIZE = 1 << 16;

function sqrtPriceAtTick(tick: number): bigint {
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
