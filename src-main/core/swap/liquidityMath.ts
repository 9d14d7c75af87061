const MAX_UINT128 = (1n << 128n) - 1n;

/** LiquidityMath.addDelta: the pool reverts rather than let liquidity leave uint128. */
export function addDelta(liquidity: bigint, delta: bigint): bigint {
  const result = liquidity + delta;
  if (result < 0n) throw new RangeError('LS: liquidity underflows');
  if (result > MAX_UINT128) throw new RangeError('LA: liquidity overflows');
  return result;
}
