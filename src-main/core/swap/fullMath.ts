/**
 * The pool's FullMath and UnsafeMath in bigint. Bigint never overflows, so what is left to copy is where the pool
 * rounds and where it reverts: a zero denominator or a result past uint256 throws a RangeError, as the pool reverts.
 */

export const MAX_UINT256 = (1n << 256n) - 1n;
export const MAX_INT256 = (1n << 255n) - 1n;

/**
 * floor(a * b / d) for uint256 `a`, `b`, `d`, as FullMath.mulDiv.
 *
 * @example mulDiv(7n, 3n, 2n) // 10n
 */
export function mulDiv(a: bigint, b: bigint, d: bigint): bigint {
  if (d <= 0n) throw new RangeError('mulDiv: denominator is zero');
  const result = (a * b) / d;
  if (result > MAX_UINT256) throw new RangeError('mulDiv: result overflows uint256');
  return result;
}

/**
 * ceil(a * b / d) for uint256 `a`, `b`, `d`, as FullMath.mulDivRoundingUp (which also reverts when the rounded-up
 * result would be 2^256).
 *
 * @example mulDivRoundingUp(7n, 3n, 2n) // 11n
 */
export function mulDivRoundingUp(a: bigint, b: bigint, d: bigint): bigint {
  if (d <= 0n) throw new RangeError('mulDiv: denominator is zero');
  const product = a * b;
  const result = product / d;
  // Multiplying back is cheaper than a second bigint division for the remainder.
  if (result * d === product) {
    if (result > MAX_UINT256) throw new RangeError('mulDiv: result overflows uint256');
    return result;
  }
  // The pool checks result < 2^256 - 1 before the increment, so the increment itself cannot overflow.
  if (result >= MAX_UINT256) throw new RangeError('mulDiv: result overflows uint256');
  return result + 1n;
}

/**
 * ceil(x / y) for uint256 `x` and `y`, as UnsafeMath.divRoundingUp, whose EVM `div` gives 0 (not a revert) when `y`
 * is zero; the pool only calls it after checking `y`.
 *
 * @example divRoundingUp(7n, 2n) // 4n
 */
export function divRoundingUp(x: bigint, y: bigint): bigint {
  if (y === 0n) return 0n;
  const quotient = x / y;
  return quotient * y === x ? quotient : quotient + 1n;
}
