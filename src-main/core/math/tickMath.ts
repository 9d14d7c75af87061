/**
 * PancakeSwap V3 tick math in bigint: the sqrt price (Q64.96) at a tick, and the tick of a sqrt price, equal to the
 * pool's own TickMath to the wei (checked against it vector for vector in tickMath.chain.test.ts).
 */

export const MIN_TICK = -887272;
export const MAX_TICK = 887272;
export const MIN_SQRT_RATIO = 4295128739n;
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n;

const Q32 = 1n << 32n;
const MAX_UINT256 = (1n << 256n) - 1n;

/**
 * 2^128 / sqrt(1.0001)^(2^i), rounded to nearest, for i = 0..19: multiplying the ones whose bit is set in |tick|
 * gives sqrt(1.0001)^-|tick| in Q128. Computed with 200-digit decimals.
 */
const INVERSE_POWERS = [
  0xfffcb933bd6fad37aa2d162d1a594001n,
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
] as const;

/**
 * sqrt(1.0001^tick) * 2^96, rounded up, as the pool computes it.
 *
 * @example getSqrtRatioAtTick(0) // 79228162514264337593543950336n (2^96)
 */
export function getSqrtRatioAtTick(tick: number): bigint {
  if (!Number.isInteger(tick) || tick < MIN_TICK || tick > MAX_TICK) throw new RangeError(`tick ${tick} out of range`);
  const abs = Math.abs(tick);
  let ratio = 1n << 128n;
  for (let bit = 0; bit < INVERSE_POWERS.length; bit++) {
    // biome-ignore lint/style/noNonNullAssertion: the index is inside the table by the loop bound
    if ((abs >> bit) & 1) ratio = bit === 0 ? INVERSE_POWERS[0]! : (ratio * INVERSE_POWERS[bit]!) >> 128n;
  }
  if (tick > 0) ratio = MAX_UINT256 / ratio;
  // Q128 to Q96, rounding up so that getTickAtSqrtRatio(getSqrtRatioAtTick(t)) === t.
  return (ratio >> 32n) + (ratio % Q32 === 0n ? 0n : 1n);
}

/**
 * The greatest tick whose sqrt price is at most `sqrtPriceX96` (the pool's `slot0.tick` for that price).
 *
 * @example getTickAtSqrtRatio(2n ** 96n) // 0
 */
export function getTickAtSqrtRatio(sqrtPriceX96: bigint): number {
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 >= MAX_SQRT_RATIO) {
    throw new RangeError(`sqrt price ${sqrtPriceX96} out of range`);
  }
  // Binary search on the monotonic getSqrtRatioAtTick: about 20 steps, exact by construction.
  let low = MIN_TICK;
  let high = MAX_TICK;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (getSqrtRatioAtTick(mid) <= sqrtPriceX96) low = mid;
    else high = mid - 1;
  }
  return low;
}
