import { describe, expect, it } from 'vitest';
import { chartMinMove, chartPriceText, clearOfLastPrice, distinctTickLabels } from './chartPrice';

describe('chartPriceText', () => {
  it('writes tiny prices in the subscript form and large ones with separators', () => {
    expect(chartPriceText(0.000000044641)).toBe('0.0₇4464');
    expect(chartPriceText(0.1234)).toBe('0.1234');
    expect(chartPriceText(12345.6)).toBe('12,350');
    expect(chartPriceText(0)).toBe('0');
  });
});

describe('chartMinMove', () => {
  it('keeps four digits below the smallest price', () => {
    expect(chartMinMove([0.000000044641, 0.00000005])).toBeCloseTo(1e-12, 20);
    expect(chartMinMove([])).toBe(0.01);
  });
});

describe('distinctTickLabels', () => {
  it('takes the fewest digits, from four, that tell every tick apart', () => {
    expect(distinctTickLabels([0.28e-8, 0.3e-8, 0.32e-8])).toEqual(['0.0₈28', '0.0₈3', '0.0₈32']);
    expect(distinctTickLabels([1.00001, 1.00002])).toEqual(['1.00001', '1.00002']);
  });
});

describe('clearOfLastPrice', () => {
  const labels = ['0.0₈34', '0.0₈32', '0.0₈30', '0.0₈28'];
  const ys = [20, 72, 124, 176];

  it('blanks the tick the last price label would half cover, above or below it', () => {
    // The first-buy chart: the last price 0.0₈30247 sits 6 px above the 0.0₈30 tick.
    expect(clearOfLastPrice(labels, ys, 118, 15)).toEqual(['0.0₈34', '0.0₈32', '', '0.0₈28']);
    expect(clearOfLastPrice(labels, ys, 86, 15)).toEqual(['0.0₈34', '', '0.0₈30', '0.0₈28']);
  });

  it('keeps every tick clear of the label, and blanks one at most', () => {
    expect(clearOfLastPrice(labels, ys, 98, 15)).toEqual(labels);
    // Ticks closer together than the clearance: only the nearest goes.
    expect(clearOfLastPrice(['a', 'b', 'c'], [10, 18, 26], 17, 15)).toEqual(['a', '', 'c']);
  });

  it('keeps every tick when a coordinate is not known yet', () => {
    expect(clearOfLastPrice(labels, ys, null, 15)).toEqual(labels);
    expect(clearOfLastPrice(labels, [null, null, null, null], 124, 15)).toEqual(labels);
  });
});
