/**
 * Integer square root: the largest r with r * r <= n (Newton's method on bigint).
 *
 * @example sqrt(600n * 2n ** 192n) // sqrtPriceX96 of a price of 600
 */
export function sqrt(n: bigint): bigint {
  if (n < 0n) throw new RangeError('square root of a negative number');
  if (n < 2n) return n;
  let x = BigInt(2) ** BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}
