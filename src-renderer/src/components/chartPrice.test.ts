import { describe, expect, it } from 'vitest';
import { chartMinMove, chartPriceText } from './chartPrice';

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
