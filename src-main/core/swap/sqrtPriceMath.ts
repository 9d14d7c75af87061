/**
 * The pool's SqrtPriceMath in bigint: token amounts between two sqrt prices (Q64.96) for a liquidity, and the sqrt
 * price after an amount goes in or out. Each function rounds exactly where the pool rounds, and throws a RangeError
 * wherever the pool would revert. Prices are uint160, liquidity uint128 and amounts uint256, as in the pool; the
 * callers (computeSwapStep, simulateSwap) keep to those ranges.
 */

import { divRoundingUp, MAX_UINT256, mulDiv, mulDivRoundingUp } from './fullMath';

const RESOLUTION = 96n;
const Q96 = 1n << RESOLUTION;
const Q96_MASK = Q96 - 1n;
const MAX_UINT160 = (1n << 160n) - 1n;

function toUint160(value: bigint): bigint {
  if (value > MAX_UINT160) throw new RangeError('sqrt price overflows uint160');
  return value;
}

/**
 * The sqrt price after adding (`add`) or removing `amount` of token0, rounded up: an exact-input 0→1 swap must not
 * move the price too far, an exact-output 1→0 swap must move it at least far enough.
 *
 * @example
 * // 0.1 token0 into liquidity 1e18 at price 1: the sqrt price falls to 1 / 1.1
 * getNextSqrtPriceFromAmount0RoundingUp(2n ** 96n, 10n ** 18n, 10n ** 17n, true) // 72025602285694852357767227579n
 */
export function getNextSqrtPriceFromAmount0RoundingUp(
  sqrtPX96: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean,
): bigint {
  // The pool short-circuits zero because the formula below need not return the input price for it.
  if (amount === 0n) return sqrtPX96;
  const numerator1 = liquidity << RESOLUTION;
  const product = amount * sqrtPX96;
  if (add) {
    // The pool takes the precise formula L * P / (L + amount * P) only when nothing in it overflows uint256;
    // otherwise the less precise L / (L / P + amount). Either choice changes the last wei, so it is copied.
    if (product <= MAX_UINT256) {
      const denominator = numerator1 + product;
      if (denominator <= MAX_UINT256) return mulDivRoundingUp(numerator1, sqrtPX96, denominator) & MAX_UINT160;
    }
    const sum = numerator1 / sqrtPX96 + amount;
    if (sum > MAX_UINT256) throw new RangeError('token0 amount overflows uint256');
    return divRoundingUp(numerator1, sum) & MAX_UINT160;
  }
  // Removing at least the whole virtual reserve of token0 is impossible: the pool reverts.
  if (product > MAX_UINT256 || numerator1 <= product) throw new RangeError('token0 amount exceeds the reserve');
  return toUint160(mulDivRoundingUp(numerator1, sqrtPX96, numerator1 - product));
}

/**
 * The sqrt price after adding (`add`) or removing `amount` of token1, rounded down: within a wei of
 * P ± amount / L.
 *
 * @example
 * // 0.1 token1 into liquidity 1e18 at price 1: the sqrt price rises to 1.1
 * getNextSqrtPriceFromAmount1RoundingDown(2n ** 96n, 10n ** 18n, 10n ** 17n, true) // 87150978765690771352898345369n
 */
export function getNextSqrtPriceFromAmount1RoundingDown(
  sqrtPX96: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean,
): bigint {
  if (liquidity === 0n) throw new RangeError('liquidity is zero');
  // The pool shifts when amount fits 160 bits and uses mulDiv otherwise; both give the same floor / ceiling.
  if (add) {
    const quotient = amount <= MAX_UINT160 ? (amount << RESOLUTION) / liquidity : mulDiv(amount, Q96, liquidity);
    const next = sqrtPX96 + quotient;
    if (next > MAX_UINT256) throw new RangeError('sqrt price overflows uint256');
    return toUint160(next);
  }
  const quotient =
    amount <= MAX_UINT160 ? divRoundingUp(amount << RESOLUTION, liquidity) : mulDivRoundingUp(amount, Q96, liquidity);
  if (sqrtPX96 <= quotient) throw new RangeError('token1 amount exceeds the reserve');
  return sqrtPX96 - quotient;
}

/**
 * The sqrt price after `amountIn` of token0 (`zeroForOne`) or token1 goes into liquidity `liquidity`, rounded so the
 * price never passes where the exact amount would take it.
 *
 * @example getNextSqrtPriceFromInput(2n ** 96n, 10n ** 18n, 10n ** 17n, false) // 87150978765690771352898345369n
 */
export function getNextSqrtPriceFromInput(
  sqrtPX96: bigint,
  liquidity: bigint,
  amountIn: bigint,
  zeroForOne: boolean,
): bigint {
  if (sqrtPX96 <= 0n) throw new RangeError('sqrt price is zero');
  if (liquidity <= 0n) throw new RangeError('liquidity is zero');
  return zeroForOne
    ? getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountIn, true)
    : getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountIn, true);
}

/**
 * The sqrt price after `amountOut` of token1 (`zeroForOne`) or token0 leaves liquidity `liquidity`, rounded so the
 * price moves at least far enough to pay the whole amount.
 *
 * @example getNextSqrtPriceFromOutput(2n ** 96n, 10n ** 18n, 10n ** 17n, true) // 71305346262837903834189555302n
 */
export function getNextSqrtPriceFromOutput(
  sqrtPX96: bigint,
  liquidity: bigint,
  amountOut: bigint,
  zeroForOne: boolean,
): bigint {
  if (sqrtPX96 <= 0n) throw new RangeError('sqrt price is zero');
  if (liquidity <= 0n) throw new RangeError('liquidity is zero');
  return zeroForOne
    ? getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountOut, false)
    : getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountOut, false);
}

/**
 * Token0 between two sqrt prices (in either order) for `liquidity`: L * (√B − √A) / (√A * √B), rounded up (what a
 * trader pays) or down (what a trader receives).
 *
 * @example getAmount0Delta(2n ** 96n, 2n ** 97n, 10n ** 18n, true) // 500000000000000000n
 */
export function getAmount0Delta(
  sqrtRatioAX96: bigint,
  sqrtRatioBX96: bigint,
  liquidity: bigint,
  roundUp: boolean,
): bigint {
  const lower = sqrtRatioAX96 > sqrtRatioBX96 ? sqrtRatioBX96 : sqrtRatioAX96;
  const upper = sqrtRatioAX96 > sqrtRatioBX96 ? sqrtRatioAX96 : sqrtRatioBX96;
  if (lower <= 0n) throw new RangeError('sqrt price is zero');
  // The pool divides twice, by √B then by √A, each rounded the same way; for whole numbers that is one division by
  // √A * √B, rounded that way (⌈⌈n/b⌉/a⌉ = ⌈n/(a·b)⌉, and so for floors), and the first quotient, below L * 2^96 <
  // 2^224, never overflows its uint256. One long division instead of two: GET /quote makes this call on every quote.
  const numerator = (liquidity << RESOLUTION) * (upper - lower);
  const denominator = upper * lower;
  return roundUp ? divRoundingUp(numerator, denominator) : numerator / denominator;
}

/**
 * Token1 between two sqrt prices (in either order) for `liquidity`: L * (√B − √A), rounded up or down.
 *
 * @example getAmount1Delta(2n ** 96n, 2n ** 97n, 10n ** 18n, false) // 1000000000000000000n
 */
export function getAmount1Delta(
  sqrtRatioAX96: bigint,
  sqrtRatioBX96: bigint,
  liquidity: bigint,
  roundUp: boolean,
): bigint {
  const difference = sqrtRatioAX96 > sqrtRatioBX96 ? sqrtRatioAX96 - sqrtRatioBX96 : sqrtRatioBX96 - sqrtRatioAX96;
  // The pool's mulDiv by 2^96, as a shift: the same floor, the same ceiling, and no overflow (2^288 / 2^96 fits).
  const product = liquidity * difference;
  const floor = product >> RESOLUTION;
  return roundUp && (product & Q96_MASK) !== 0n ? floor + 1n : floor;
}
