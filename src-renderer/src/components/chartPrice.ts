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

/**
 * The axis's tick labels told apart: as many significant digits as it takes for no two to read alike, from four.
 *
 * @example distinctTickLabels([0.28e-8, 0.3e-8]) // ['0.0₈28', '0.0₈3']
 */
export function distinctTickLabels(prices: number[]): string[] {
  for (let significant = 4; significant < 9; significant++) {
    const labels = prices.map((price) => chartPriceText(price, significant));
    if (new Set(labels).size === labels.length) return labels;
  }
  return prices.map((price) => chartPriceText(price, 9));
}

/**
 * The tick labels with the one nearest the last price's label left blank when it is closer than `clearance` pixels:
 * the last price's label is drawn over the ticks, and its box is shorter than the two texts together, so a tick just
 * above or below showed half under it. Never more than one is blanked, and none when a coordinate is unknown.
 *
 * @example clearOfLastPrice(['1', '2', '3'], [90, 50, 10], 55, 15) // ['1', '', '3']
 */
export function clearOfLastPrice(
  labels: string[],
  ys: readonly (number | null)[],
  lastY: number | null,
  clearance: number,
): string[] {
  if (lastY === null) return labels;
  let nearest = -1;
  let nearestGap = clearance;
  ys.forEach((y, i) => {
    if (y === null) return;
    const gap = Math.abs(y - lastY);
    if (gap < nearestGap) {
      nearest = i;
      nearestGap = gap;
    }
  });
  return nearest < 0 ? labels : labels.map((label, i) => (i === nearest ? '' : label));
}
