import { sqrt } from '../math/sqrt';
import { getSqrtRatioAtTick, getTickAtSqrtRatio, MAX_TICK, MIN_TICK } from '../math/tickMath';
import { pairValueOf } from '../swap/pairValueOf';

export interface OpeningInput {
  /** The asked market cap in the pair currency, in its wei. */
  capPairWei: bigint;
  /** The whole supply, in the token's wei. */
  supplyWei: bigint;
  /** Whether the token is the pool's token0 (its price rises with the tick) or token1 (it falls). */
  tokenIs0: boolean;
  tickSpacing: number;
}

export interface Opening {
  /** The pool tick the launch opens at, a multiple of the spacing. */
  tick: number;
  sqrtPriceX96: bigint;
  /** The market cap that tick gives, in the pair's wei. */
  capPairWei: bigint;
}

/**
 * The tick a launch opens at for an asked market cap: the usable tick whose price is nearest the asked one, in
 * ratio (ticks are about 2% apart on the 1% tier, so a launch opens within about 1% of the asked cap, above or below).
 * Throws RangeError when the cap cannot be expressed as a pool price.
 *
 * @example openingTick({ capPairWei: 10n ** 18n, supplyWei: 10n ** 27n, tokenIs0: true, tickSpacing: 200 })
 */
export function openingTick({ capPairWei, supplyWei, tokenIs0, tickSpacing }: OpeningInput): Opening {
  if (capPairWei <= 0n || supplyWei <= 0n) throw new RangeError('cap and supply must be positive');
  // The pool's price is token1 per token0 in raw units: pair per token when the token is token0, else its inverse.
  const [numerator, denominator] = tokenIs0 ? [capPairWei, supplyWei] : [supplyWei, capPairWei];
  const sqrtPrice = sqrt((numerator << 192n) / denominator);
  const top = Math.floor(MAX_TICK / tickSpacing) * tickSpacing;
  const bottom = -top;
  const exact = clampTick(sqrtPrice);
  // The usable ticks on either side of the asked price; the nearer in ratio wins: √lo·√hi is the geometric middle.
  const below = Math.floor(exact / tickSpacing) * tickSpacing;
  const above = below + tickSpacing;
  const middle = getSqrtRatioAtTick(below) * getSqrtRatioAtTick(above);
  const tick = sqrtPrice * sqrtPrice >= middle ? above : below;
  if (tick <= bottom || tick >= top) throw new RangeError('the market cap is beyond the prices a pool can hold');
  const sqrtPriceX96 = getSqrtRatioAtTick(tick);
  return { tick, sqrtPriceX96, capPairWei: pairValueOf(supplyWei, sqrtPriceX96, tokenIs0) };
}

function clampTick(sqrtPrice: bigint): number {
  const min = getSqrtRatioAtTick(MIN_TICK);
  const max = getSqrtRatioAtTick(MAX_TICK);
  if (sqrtPrice < min) throw new RangeError('the market cap is beyond the prices a pool can hold');
  if (sqrtPrice >= max) throw new RangeError('the market cap is beyond the prices a pool can hold');
  return getTickAtSqrtRatio(sqrtPrice);
}
