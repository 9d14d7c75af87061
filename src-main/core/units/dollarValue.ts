import { formatDecimalAmount } from './decimalAmount';

/*
 * Dollar values beside amounts, exactly: every figure is the exact product of the amount and its prices, rounded down
 * once, to USD_DECIMALS places. Prices are exact ratios (a pool's sqrtPriceX96, a pair's dollar rate), never floats.
 */

/** Places of a dollar value as the API writes it: millionths of a dollar, rounded down. */
export const USD_DECIMALS = 6;

/** Dollar-wei (18 decimals) in one millionth of a dollar. */
const WEI_PER_MICRO = 10n ** BigInt(18 - USD_DECIMALS);
const Q192 = 1n << 192n;

/** A currency's dollar rate as an exact ratio: `usdWeiPer` dollar-wei (18 decimals) are worth `pairWeiPer` of its wei. */
export interface UsdRate {
  usdWeiPer: bigint;
  pairWeiPer: bigint;
}

/**
 * What one wei of a currency is worth in millionths of a dollar, as the exact fraction `num / den`: the amount's
 * value is `wei * num / den`, rounded down once.
 */
export interface MicroPrice {
  num: bigint;
  den: bigint;
}

/**
 * The price of one wei of a pair currency with the dollar `rate`; null when there is none.
 *
 * @example pairMicroPrice({ usdWeiPer: 10n ** 18n, pairWeiPer: 10n ** 18n }) // USDT: 1 whole unit = 1_000_000 micros
 */
export function pairMicroPrice(rate: UsdRate | null): MicroPrice | null {
  if (rate === null || rate.pairWeiPer === 0n) return null;
  return { num: rate.usdWeiPer, den: rate.pairWeiPer * WEI_PER_MICRO };
}

/**
 * The price of one wei of a token at its pool's price (`sqrtPriceX96`, token1 per token0; `tokenIs0` says the
 * token's side), in a pair with the dollar `rate`: the pool price and the rate multiplied as fractions, so the value
 * is rounded once, not at the pair amount first. Null when the pair has no rate or the pool no price.
 *
 * @example tokenMicroPrice(2n ** 96n, true, usdtRate) // at price 1 a token wei is worth a USDT wei
 */
export function tokenMicroPrice(sqrtPriceX96: bigint, tokenIs0: boolean, rate: UsdRate | null): MicroPrice | null {
  const pair = pairMicroPrice(rate);
  if (pair === null || sqrtPriceX96 === 0n) return null;
  const priceX192 = sqrtPriceX96 * sqrtPriceX96;
  return tokenIs0
    ? { num: pair.num * priceX192, den: pair.den * Q192 }
    : { num: pair.num * Q192, den: pair.den * priceX192 };
}

/** Millionths of a dollar that `wei` is worth at `price`, rounded down; null without a price. */
export function usdMicros(wei: bigint, price: MicroPrice | null): bigint | null {
  return price === null ? null : (wei * price.num) / price.den;
}

/**
 * A dollar value as the API writes it: a decimal string of at most USD_DECIMALS places (trailing zeros dropped),
 * rounded down; null without a price.
 *
 * @example usdText(10n ** 18n, pairMicroPrice({ usdWeiPer: 10n ** 18n, pairWeiPer: 10n ** 18n })) // "1"
 */
export function usdText(wei: bigint, price: MicroPrice | null): string | null {
  const micros = usdMicros(wei, price);
  return micros === null ? null : formatDecimalAmount(micros, USD_DECIMALS);
}
