/**
 * The pool's SwapMath.computeSwapStep in bigint: one step of a swap, inside a range of constant liquidity.
 */

import { mulDiv, mulDivRoundingUp } from './fullMath';
import {
  getAmount0Delta,
  getAmount1Delta,
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
} from './sqrtPriceMath';

/** Fees are in pips: hundredths of a basis point, so 1,000,000 is 100% and 2,500 is 0.25%. */
export const PIPS = 1_000_000n;

export interface SwapStep {
  /** Where the price stops: the target, or short of it when the amount runs out. */
  sqrtPriceNextX96: bigint;
  /** Paid in, not counting the fee. */
  amountIn: bigint;
  amountOut: bigint;
  /** Paid in on top of `amountIn`. */
  feeAmount: bigint;
}

/**
 * Swaps from `sqrtPriceCurrentX96` toward `sqrtPriceTargetX96` (the direction follows from the two prices) within
 * `liquidity`, until the target or the end of `amountRemaining` (> 0: input left, fee included; < 0: output still
 * wanted), taking `feePips` of the input.
 *
 * @example
 * // 1 token1 in at price 1 with 1e18 liquidity and a 0.25% fee, the target far away:
 * computeSwapStep(2n ** 96n, 2n ** 97n, 10n ** 18n, 10n ** 18n, 2500)
 * // → sqrt price x1.9975, amountIn 997500000000000000n, feeAmount 2500000000000000n
 */
export function computeSwapStep(
  sqrtPriceCurrentX96: bigint,
  sqrtPriceTargetX96: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: number,
  amountToTarget?: bigint,
): SwapStep {
  const zeroForOne = sqrtPriceCurrentX96 >= sqrtPriceTargetX96;
  const exactIn = amountRemaining >= 0n;
  const fee = BigInt(feePips);
  const feeRest = PIPS - fee;
  let sqrtPriceNextX96: bigint;
  let amountIn = 0n;
  let amountOut = 0n;

  if (exactIn) {
    const amountRemainingLessFee = mulDiv(amountRemaining, feeRest, PIPS);
    amountIn =
      amountToTarget ??
      (zeroForOne
        ? getAmount0Delta(sqrtPriceTargetX96, sqrtPriceCurrentX96, liquidity, true)
        : getAmount1Delta(sqrtPriceCurrentX96, sqrtPriceTargetX96, liquidity, true));
    sqrtPriceNextX96 =
      amountRemainingLessFee >= amountIn
        ? sqrtPriceTargetX96
        : getNextSqrtPriceFromInput(sqrtPriceCurrentX96, liquidity, amountRemainingLessFee, zeroForOne);
  } else {
    amountOut =
      amountToTarget ??
      (zeroForOne
        ? getAmount1Delta(sqrtPriceTargetX96, sqrtPriceCurrentX96, liquidity, false)
        : getAmount0Delta(sqrtPriceCurrentX96, sqrtPriceTargetX96, liquidity, false));
    sqrtPriceNextX96 =
      -amountRemaining >= amountOut
        ? sqrtPriceTargetX96
        : getNextSqrtPriceFromOutput(sqrtPriceCurrentX96, liquidity, -amountRemaining, zeroForOne);
  }

  // At the target the amount already computed for the whole range is kept; short of it both sides are recomputed
  // from the price actually reached, each rounded in the pool's favour.
  const max = sqrtPriceTargetX96 === sqrtPriceNextX96;
  if (zeroForOne) {
    if (!(max && exactIn)) amountIn = getAmount0Delta(sqrtPriceNextX96, sqrtPriceCurrentX96, liquidity, true);
    if (!(max && !exactIn)) amountOut = getAmount1Delta(sqrtPriceNextX96, sqrtPriceCurrentX96, liquidity, false);
  } else {
    if (!(max && exactIn)) amountIn = getAmount1Delta(sqrtPriceCurrentX96, sqrtPriceNextX96, liquidity, true);
    if (!(max && !exactIn)) amountOut = getAmount0Delta(sqrtPriceCurrentX96, sqrtPriceNextX96, liquidity, false);
  }

  // Rounding the price up can buy a wei more than was asked for; the pool never pays it.
  if (!exactIn && amountOut > -amountRemaining) amountOut = -amountRemaining;

  // Short of the target on exact input, the whole remainder is spent: what did not buy output is fee.
  const feeAmount =
    exactIn && sqrtPriceNextX96 !== sqrtPriceTargetX96
      ? amountRemaining - amountIn
      : mulDivRoundingUp(amountIn, fee, feeRest);

  return { sqrtPriceNextX96, amountIn, amountOut, feeAmount };
}
