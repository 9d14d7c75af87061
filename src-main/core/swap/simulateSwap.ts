/**
 * The pool's swap loop, run on a PoolState instead of storage: the same steps, so the same wei. It gives what
 * QuoterV2 (and the swap itself) gives for the same state.
 */

import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../math/tickMath';
import { MAX_INT256 } from './fullMath';
import { LIMIT_DOWN, LIMIT_UP, skipFullSteps } from './fullSteps';
import type { PoolState } from './poolState';
import { startWalk, step } from './swapWalk';

const MIN_INT256 = -MAX_INT256;

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
  sqrtPriceLimitX96?: bigint,
): SwapResult {
  if (amountSpecified === 0n) throw new RangeError('AS: the amount is zero');
  if (amountSpecified > MAX_INT256 || amountSpecified < MIN_INT256) throw new RangeError('the amount overflows int256');
  const limit = sqrtPriceLimitX96 ?? (zeroForOne ? LIMIT_DOWN : LIMIT_UP);
  const limitOk = zeroForOne
    ? limit < pool.sqrtPriceX96 && limit > MIN_SQRT_RATIO
    : limit > pool.sqrtPriceX96 && limit < MAX_SQRT_RATIO;
  if (!limitOk) throw new RangeError('SPL: the price limit is on the wrong side of the price or out of range');

  const exactInput = amountSpecified > 0n;
  const walk = startWalk(pool, zeroForOne, amountSpecified);
  // With the default limit, the steps the amount fills whole are the pool state's own, worked out once (fullSteps).
  if (sqrtPriceLimitX96 === undefined) {
    // The first step it does not fill is cached too (given only while some amount is left): its way to the target
    // need not be worked out again.
    const unfilled = skipFullSteps(pool, zeroForOne, exactInput, walk);
    if (unfilled !== undefined) {
      const toTarget = exactInput ? unfilled.inputWithFee - unfilled.fee : unfilled.output;
      step(pool, zeroForOne, limit, exactInput, walk, toTarget);
    }
  }
  while (walk.remaining !== 0n && walk.price !== limit) step(pool, zeroForOne, limit, exactInput, walk);

  const { remaining, calculated } = walk;
  const specifiedDone = amountSpecified - remaining;
  return {
    amountIn: exactInput ? specifiedDone : calculated,
    amountOut: exactInput ? -calculated : -specifiedDone,
    feeAmount: walk.feeAmount,
    sqrtPriceX96After: walk.price,
    tickAfter: walk.tick,
    liquidityAfter: walk.liquidity,
    ticksCrossed: walk.ticksCrossed,
    filled: remaining === 0n,
  };
}
