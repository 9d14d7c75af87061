/**
 * Pair wei worth `tokenWei` of the token at a pool price, rounded down. The pool's price is token1 per token0
 * (sqrtPriceX96² / 2^192, in wei of each), so the token's side of the pool decides whether it multiplies or divides.
 *
 * @example pairValueOf(10n ** 18n, 2n ** 96n, true) // 10n ** 18n: at price 1, one token is worth one pair unit
 */
export function pairValueOf(tokenWei: bigint, sqrtPriceX96: bigint, tokenIs0: boolean): bigint {
  const priceX192 = sqrtPriceX96 * sqrtPriceX96;
  return tokenIs0 ? (tokenWei * priceX192) >> 192n : (tokenWei << 192n) / priceX192;
}
