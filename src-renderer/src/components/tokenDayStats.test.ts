import { describe, expect, it } from 'vitest';
import type { TokenTrades } from '../api/tokens';
import { dayStats } from './tokenDayStats';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const E18 = 10n ** 18n;

/** A buy of `pair` whole pair units for `tokens` whole tokens, `hoursAgo` before NOW. */
function trade(hoursAgo: number, pair: bigint, tokens: bigint) {
  return {
    tx: `0x${hoursAgo}`,
    block: 1,
    at: new Date(NOW - hoursAgo * 3_600_000).toISOString(),
    side: 'buy' as const,
    trader: '0x0000000000000000000000000000000000000001',
    pairWei: (pair * E18).toString(),
    tokenWei: (tokens * E18).toString(),
    feeWei: '0',
    referrer: null,
    firstBuy: false,
  };
}

function answer(priceWei: bigint, trades: ReturnType<typeof trade>[]): TokenTrades {
  return {
    trades,
    market: {
      priceWei: priceWei.toString(),
      marketCap: { amount: '0', wei: '0' },
      marketCapUsd: null,
      pair: { address: '0x0000000000000000000000000000000000000002', symbol: 'BNB', decimals: 18 },
      supplyWei: '0',
    },
  };
}

describe('dayStats', () => {
  it('sums the last 24 h and compares the price now with the last trade before them', () => {
    // Newest first: two trades today, one two days ago at 1 pair per 100 tokens.
    const stats = dayStats(
      answer(E18 / 50n, [trade(1, 2n, 100n), trade(5, 1n, 100n), trade(48, 1n, 100n)]),
      18,
      NOW,
      100,
    );
    expect(stats.volumeWei).toBe(3n * E18);
    expect(stats.trades).toBe(2);
    expect(stats.complete).toBe(true);
    expect(stats.changePct).toBe(100);
    // The reference is the trade two days ago: 1 pair for 100 tokens.
    expect(stats.referencePriceWei).toBe(E18 / 100n);
  });

  it('says when the read stopped inside the day, and compares with its oldest trade', () => {
    const stats = dayStats(answer(E18 / 100n, [trade(1, 1n, 50n), trade(2, 1n, 200n)]), 18, NOW, 2);
    expect(stats.complete).toBe(false);
    expect(stats.changePct).toBe(100);
    expect(dayStats(answer(E18, []), 18, NOW, 100)).toEqual({
      volumeWei: 0n,
      trades: 0,
      changePct: null,
      referencePriceWei: null,
      complete: true,
    });
  });
});
