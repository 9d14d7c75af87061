import { describe, expect, it } from 'vitest';
import { DAY_MS, dayStats } from './dayStats';

const NOW = Date.parse('2026-12-07T12:00:00Z');
const E18 = 10n ** 18n;
const trade = (msAgo: number, pair: bigint, tokens: bigint) => ({ atMs: NOW - msAgo, pairWei: pair, tokenWei: tokens });

describe('dayStats', () => {
  it('takes a trade exactly 24 h old into the day, and one a millisecond older as the reference', () => {
    const stats = dayStats([trade(DAY_MS, E18, 100n * E18), trade(DAY_MS + 1, E18, 400n * E18)], E18 / 50n, 18, NOW, 9);
    expect([stats.trades, stats.volumeWei, stats.referencePriceWei]).toEqual([1, E18, E18 / 400n]);
    // 0.02 against 0.0025 pair per token: +700%.
    expect(stats.changePct).toBe(700);
  });

  it('keeps a fall to a hundredth of a basis point, rounded toward zero, and has no reference for a token with no tokens traded', () => {
    expect(dayStats([trade(1, 3n * E18, E18)], E18, 18, NOW, 9).changePct).toBe(-66.6666);
    expect(dayStats([trade(1, E18, 0n)], E18, 18, NOW, 9)).toMatchObject({ changePct: null, referencePriceWei: null });
  });
});
