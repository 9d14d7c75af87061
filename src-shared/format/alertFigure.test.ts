import { describe, expect, it } from 'vitest';
import { alertFigureText } from './alertFigure';

describe('alertFigureText', () => {
  it('writes dollars with a sign and BNB with its symbol, compact', () => {
    expect(alertFigureText(1_250n * 10n ** 18n, 'usd')).toBe('$1.25K');
    expect(alertFigureText(5n * 10n ** 17n, 'bnb')).toBe('0.5 BNB');
  });
});
