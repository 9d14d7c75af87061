/*
 * A wallet's balance as every place shows it, and the amount a quick-amount button fills in, at one precision: a
 * balance read 6,880,770 on one card and 6,880,700 on another when each chose its own significant digits.
 */

import { formatAmount, formatExact } from './numbers';

/** Significant digits a balance keeps beyond its integer part, which is never cut. */
const BALANCE_SIGNIFICANT = 6;

/** How many significant digits `wei` keeps as a balance: its whole integer part, and six at least. */
function balanceSignificant(wei: bigint, decimals: number): number {
  const integerDigits = wei.toString().length - decimals;
  return Math.max(BALANCE_SIGNIFICANT, integerDigits);
}

/**
 * `wei` rounded down to the digits a balance shows, still in wei: what is shown never reads more than is held, and an
 * amount filled from it can always be paid.
 *
 * @example roundBalance(6880770_987654321000000000n, 18) // 6880770_000000000000000000n
 * @example roundBalance(1_234567891n, 9) // 1_234560000n (1.23456)
 */
export function roundBalance(wei: bigint, decimals: number): bigint {
  if (wei <= 0n) return wei < 0n ? -roundBalance(-wei, decimals) : 0n;
  const dropped = wei.toString().length - balanceSignificant(wei, decimals);
  if (dropped <= 0) return wei;
  const unit = 10n ** BigInt(dropped);
  return (wei / unit) * unit;
}

/**
 * A balance as a person reads it: separators, the whole integer part, six significant digits at least, rounded down;
 * the subscript form for tiny ones.
 *
 * @example formatBalance(6880770_987654321000000000n, 18) // '6,880,770'
 * @example formatBalance(12_345678n * 10n ** 12n, 18) // '12.3456'
 */
export function formatBalance(wei: bigint, decimals: number): string {
  const rounded = roundBalance(wei, decimals);
  const significant = balanceSignificant(rounded < 0n ? -rounded : rounded, decimals);
  // formatAmount keeps 18 significant digits at most: a larger integer part is written in full.
  if (significant > 18) return formatExact(rounded, decimals);
  return formatAmount(rounded, decimals, { significant, round: 'down' });
}

/**
 * A share of a balance as an amount to type: rounded down to a balance's digits (so 50% of an odd wei amount and Max
 * of a balance with dust never ask for more than is held), in plain digits without separators, never more decimals
 * than the token has and never a tail of noise digits.
 *
 * @example shareOfBalance(6880770_987654321987654321n, 18, 100) // { wei: 6880770_000000000000000000n, text: '6880770' }
 * @example shareOfBalance(3n, 0, 50) // { wei: 1n, text: '1' }
 */
export function shareOfBalance(wei: bigint, decimals: number, percent: number): { wei: bigint; text: string } {
  if (!Number.isInteger(percent) || percent < 0 || percent > 100) throw new RangeError(`percent ${percent}`);
  const share = roundBalance((wei * BigInt(percent)) / 100n, decimals);
  return { wei: share, text: plainDecimal(share, decimals) };
}

/** `wei` in whole units as digits and a point, trailing zeros dropped: what an amount field parses. */
function plainDecimal(wei: bigint, decimals: number): string {
  if (decimals === 0) return wei.toString();
  const digits = wei.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}
