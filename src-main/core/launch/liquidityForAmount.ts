/**
 * Single-sided liquidity, the same floor arithmetic as contracts/lib/LiquidityMath.sol, so a planned launch lays
 * exactly the liquidity the factory will.
 */

const Q96 = 1n << 96n;
const MAX_UINT128 = (1n << 128n) - 1n;

/** Liquidity of `amount0` of token0 over a range above the price: floor(floor(a·√B/2^96)·√A/(√B−√A)). */
export function liquidityForAmount0(sqrtA: bigint, sqrtB: bigint, amount0: bigint): bigint {
  const [low, high] = sqrtA < sqrtB ? [sqrtA, sqrtB] : [sqrtB, sqrtA];
  return toUint128((((amount0 * high) / Q96) * low) / (high - low));
}

/** Liquidity of `amount1` of token1 over a range below the price: floor(a·2^96/(√B−√A)). */
export function liquidityForAmount1(sqrtA: bigint, sqrtB: bigint, amount1: bigint): bigint {
  const [low, high] = sqrtA < sqrtB ? [sqrtA, sqrtB] : [sqrtB, sqrtA];
  return toUint128((amount1 * Q96) / (high - low));
}

function toUint128(value: bigint): bigint {
  if (value > MAX_UINT128) throw new RangeError('the liquidity does not fit a pool position');
  return value;
}
