/**
 * Numbers as a trader reads them: thousands separators, a few significant digits in summaries (the exact value stays
 * available for details), a subscript count of zeros for tiny prices, and K/M/B/T for large ones. Amounts are read
 * from wei as bigints, so rounding happens on exact decimals, never through a float. Dollar values are display only
 * and come as numbers from the service's dollar price.
 */

import { formatUnits } from 'viem';

const SUBSCRIPT = '₀₁₂₃₄₅₆₇₈₉';
/** From this many zeros after the point on, a small number is written 0.0₇4464. */
const SUBSCRIPT_FROM_ZEROS = 4;
const UNITS = [
  { exponent: 12, suffix: 'T' },
  { exponent: 9, suffix: 'B' },
  { exponent: 6, suffix: 'M' },
  { exponent: 3, suffix: 'K' },
] as const;

export interface AmountFormat {
  /** Significant digits kept (4 to 6 in summaries); the integer part is never cut. Default 6. */
  significant?: number;
  /** Write 1,000 and above as 1.23K, 4.56M, 7.89B, 1.2T (with `significant` capped at 4). */
  compact?: boolean;
  /**
   * How the dropped digits round: to the nearest (default); `down` for a floor (what you get at least must never read
   * more than it is); `up` for a ceiling (what you pay at most must never read less).
   */
  round?: 'nearest' | 'down' | 'up';
}

/**
 * A wei amount in whole units as a person reads it.
 *
 * @example formatAmount(1920600486177059242987378n, 18) // '1,920,600'
 * @example formatAmount(1920600486177059242987378n, 18, { compact: true }) // '1.921M'
 * @example formatAmount(44640000000n, 18) // '0.0₇4464'
 */
export function formatAmount(wei: bigint, decimals: number, format: AmountFormat = {}): string {
  if (wei < 0n) return `-${formatAmount(-wei, decimals, format)}`;
  if (wei === 0n) return '0';
  const significant = Math.max(1, Math.min(format.significant ?? 6, format.compact ? 4 : 18));
  const rounded = roundSignificant(wei, significant, format.round);
  if (format.compact) {
    // The unit is chosen after rounding, so 999,950 reads 1M rather than 1000K.
    for (const { exponent, suffix } of UNITS) {
      if (rounded >= 10n ** BigInt(decimals + exponent)) {
        const [whole, fraction] = decimalParts(rounded, decimals + exponent);
        return `${withSeparators(whole)}${fraction ? `.${fraction}` : ''}${suffix}`;
      }
    }
  }
  const [whole, fraction] = decimalParts(rounded, decimals);
  if (whole === '0') {
    const zeros = fraction.length - fraction.replace(/^0+/, '').length;
    if (zeros >= SUBSCRIPT_FROM_ZEROS) return `0.0${subscript(zeros)}${fraction.slice(zeros)}`;
  }
  return `${withSeparators(whole)}${fraction ? `.${fraction}` : ''}`;
}

/**
 * Every digit of a wei amount, with thousands separators: for details and hover, where nothing may be rounded.
 *
 * @example formatExact(1920600486177059242987378n, 18) // '1,920,600.486177059242987378'
 */
export function formatExact(wei: bigint, decimals: number): string {
  if (wei < 0n) return `-${formatExact(-wei, decimals)}`;
  const [whole, fraction] = decimalParts(wei, decimals);
  return `${withSeparators(whole)}${fraction ? `.${fraction}` : ''}`;
}

/**
 * A dollar value: cents from $1 up to $1,000, then $K/M/B/T with three or four significant digits; under a dollar,
 * four significant digits, with the subscript form for tiny values. Null or not finite reads as a dash.
 *
 * @example formatUsd(5251.7) // '$5.25K'
 * @example formatUsd(0.000000123) // '$0.0₆123'
 */
export function formatUsd(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  if (value < 0) return `-${formatUsd(-value)}`;
  if (value === 0) return '$0';
  if (value >= 1000) {
    for (const { exponent, suffix } of UNITS) {
      const scaled = value / 10 ** exponent;
      if (scaled >= 1) {
        const rounded = Number(scaled.toPrecision(3));
        if (rounded >= 1000 && suffix !== 'T') return formatUsd(10 ** (exponent + 3));
        return `$${trimZeros(rounded.toFixed(rounded >= 100 ? 0 : rounded >= 10 ? 1 : 2))}${suffix}`;
      }
    }
  }
  if (value >= 1) {
    const [whole = '0', cents = '00'] = value.toFixed(2).split('.');
    // 999.996 is written $1,000.00: past $1,000 the compact form takes over.
    return whole.length > 3 ? formatUsd(1000) : `$${whole}.${cents}`;
  }
  // Under a dollar: the float written as an exact decimal of 4 significant digits, then read as an amount.
  const [digits = '0', exponentText = '0'] = value.toExponential(3).split('e');
  const mantissa = BigInt(digits.replace('.', ''));
  const decimals = 3 - Number(exponentText);
  return `$${formatAmount(mantissa, decimals, { significant: 4 })}`;
}

/**
 * The dollar value of a wei amount at a dollar price per whole unit, for display beside it; null without a price.
 *
 * @example usdValue(2n * 10n ** 18n, 18, 600) // 1200
 */
export function usdValue(wei: bigint, decimals: number, usdPerUnit: number | null | undefined): number | null {
  if (usdPerUnit === null || usdPerUnit === undefined || !Number.isFinite(usdPerUnit)) return null;
  // Nine significant digits of the amount are far beyond what a dollar display shows.
  const [whole, fraction] = decimalParts(roundSignificant(wei < 0n ? -wei : wei, 9), decimals);
  const units = Number(`${whole}.${fraction || '0'}`);
  return (wei < 0n ? -units : units) * usdPerUnit;
}

/** `wei` rounded to `significant` significant digits (half up, or toward zero, or away from it), still in wei. */
function roundSignificant(wei: bigint, significant: number, round: AmountFormat['round'] = 'nearest'): bigint {
  const length = wei.toString().length;
  if (length <= significant) return wei;
  const unit = 10n ** BigInt(length - significant);
  const rest = wei % unit;
  const up = round === 'up' ? rest > 0n : round === 'nearest' ? rest * 2n >= unit : false;
  return (wei / unit + (up ? 1n : 0n)) * unit;
}

/** The whole and fraction digits of `wei` / 10^decimals, the fraction without trailing zeros. */
function decimalParts(wei: bigint, decimals: number): [string, string] {
  const [whole = '0', fraction = ''] = formatUnits(wei, decimals).split('.');
  return [whole, fraction];
}

function withSeparators(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

function subscript(n: number): string {
  return [...String(n)].map((d) => SUBSCRIPT[Number(d)]).join('');
}
