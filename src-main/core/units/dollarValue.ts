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
  if (price === null) return null;
  const micros = nearMicros(wei, price);
  if (Number.isNaN(micros)) return formatDecimalAmount(usdMicros(wei, price) as bigint, USD_DECIMALS);
  if (micros >= 0) return microsText(micros);
  // Within the estimate's error of a whole number: which side of it the value lies on, exactly.
  const whole = -micros;
  return microsText(wei * price.num >= BigInt(whole) * price.den ? whole : whole - 1);
}

/**
 * Each price's num / den as a double (NaN where either side is past a double's range), by the price: prices are
 * made once per pool state and dollar rate, and read by every amount of every quote at that state.
 */
const ratios = new WeakMap<MicroPrice, number>();
/**
 * The estimate's relative error is below 5 * 2^-53: the wei, num and den each rounded once to a double, then a
 * division and a product each rounded once. The margin allows four times that.
 */
const RELATIVE_MARGIN = 2 ** -48;
/**
 * Estimates are taken below this (about 70 million dollars): their margin is then under a quarter, so the floor is the
 * lower end's or the next number up, and every candidate is a whole number a double holds exactly.
 */
const MAX_ESTIMATE = 2 ** 46;

/**
 * usdMicros worked out in doubles: the estimate's error is bounded (RELATIVE_MARGIN), so when both ends of estimate ±
 * margin round down to the same whole number, that number is the exact floor, returned as it is. Otherwise the floor
 * is the lower end's or the next number up, n, and only a comparison of products can tell: -n is returned (a value
 * is never negative, and n is at least 1). NaN when doubles cannot hold the figures (a price past a double's range, a
 * value over MAX_ESTIMATE). GET /quote writes four dollar values per quote; their long divisions, of numbers of
 * hundreds of bits, were a tenth of its time.
 */
function nearMicros(wei: bigint, price: MicroPrice): number {
  let ratio = ratios.get(price);
  if (ratio === undefined) {
    const num = Number(price.num);
    const den = Number(price.den);
    ratio = Number.isFinite(num) && Number.isFinite(den) && den > 0 ? num / den : Number.NaN;
    ratios.set(price, ratio);
  }
  if (!(ratio >= 0) || wei < 0n) return Number.NaN;
  const estimate = Number(wei) * ratio;
  if (!(estimate < MAX_ESTIMATE)) return Number.NaN;
  const margin = estimate * RELATIVE_MARGIN;
  const floor = Math.floor(estimate - margin);
  // Below MAX_ESTIMATE the ends are at most one apart. A lower end of -1 returns -0, read as a certain 0: the upper
  // end is then below 1, and so is the value.
  return floor === Math.floor(estimate + margin) ? floor : -(floor + 1);
}

/** `formatDecimalAmount(BigInt(micros), USD_DECIMALS)` for a whole number of micro-dollars below 2^53. */
function microsText(micros: number): string {
  let fraction = micros % MICROS_PER_DOLLAR;
  const whole = (micros - fraction) / MICROS_PER_DOLLAR;
  if (fraction === 0) return String(whole);
  let places = USD_DECIMALS;
  while (fraction % 10 === 0) {
    fraction /= 10;
    places--;
  }
  return `${whole}.${String(fraction).padStart(places, '0')}`;
}

const MICROS_PER_DOLLAR = 10 ** USD_DECIMALS;
