import { formatAmount } from '../../../src-shared/format/numbers';

/**
 * A price as a number written like the app's amounts: separators, up to 6 significant digits, the subscript form
 * for tiny values (0.0₇4464). The chart's axis and crosshair read in floats, so this starts from one.
 *
 * @example chartPriceText(0.000000044641) // '0.0₇4464'
 */
export function chartPriceText(value: number, significant = 4): string {
  if (!Number.isFinite(value)) return '—';
  if (value === 0) return '0';
  if (value < 0) return `-${chartPriceText(-value, significant)}`;
  const [digits = '0', exponentText = '0'] = value.toExponential(significant - 1).split('e');
  const mantissa = BigInt(digits.replace('.', ''));
  const decimals = significant - 1 - Number(exponentText);
  if (decimals < 0) return formatAmount(mantissa * 10n ** BigInt(-decimals), 0, { significant });
  return formatAmount(mantissa, decimals, { significant });
}

/** The smallest price step the chart's axis uses: four significant digits below the smallest price shown. */
export function chartMinMove(prices: number[]): number {
  const smallest = Math.min(...prices.filter((price) => price > 0));
  if (!Number.isFinite(smallest)) return 0.01;
  return 10 ** (Math.floor(Math.log10(smallest)) - 4);
}
