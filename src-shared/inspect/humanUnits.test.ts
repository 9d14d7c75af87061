import { maxUint160, maxUint256, parseEther } from 'viem';
import { describe, expect, it } from 'vitest';
import { BNB, formatAmount, formatBps, formatDeadline, formatFeeTier } from './humanUnits';

describe('human units', () => {
  it('shows basis points and fee tiers as exact percentages', () => {
    expect([1, 20, 100, 1500, 2550, 10000].map(formatBps)).toEqual(['0.01%', '0.2%', '1%', '15%', '25.5%', '100%']);
    expect([100, 500, 2500, 10000].map(formatFeeTier)).toEqual(['0.01%', '0.05%', '0.25%', '1%']);
  });

  it('shows amounts in whole units, unknown decimals as raw units, and the largest allowances as unlimited', () => {
    expect(formatAmount(parseEther('1.5'), BNB)).toBe('1.5 BNB');
    expect(formatAmount(1n, { symbol: 'USDC', decimals: 6 })).toBe('0.000001 USDC');
    expect(formatAmount(123n, undefined)).toBe('123 raw units (token decimals unknown)');
    expect(formatAmount(maxUint256, BNB)).toBe('unlimited BNB');
    expect(formatAmount(maxUint160, undefined)).toBe('unlimited');
  });

  it('shows a deadline as how far off it is and its day, with the time of day when it is near, never as ISO', () => {
    const gb = { locale: 'en-GB', timeZone: 'UTC' };
    const now = Date.parse('2026-11-28T12:00:00Z') / 1000;
    expect(formatDeadline(BigInt(now + 1200), now, gb)).toBe('in 20 minutes, 28 Nov 2026, 12:20');
    expect(formatDeadline(BigInt(now + 30), now, gb)).toBe('in 30 seconds, 28 Nov 2026, 12:00');
    expect(formatDeadline(BigInt(now + 30 * 86_400), now, gb)).toBe('in 30 days, 28 Dec 2026');
    expect(formatDeadline(BigInt(now), now, gb)).toBe('expired now, 28 Nov 2026, 12:00');
    expect(formatDeadline(BigInt(now - 3600), now, gb)).toBe('expired 60 minutes ago, 28 Nov 2026, 11:00');
    expect(formatDeadline(BigInt(now - 40 * 86_400), now, gb)).toBe('expired 40 days ago, 19 Oct 2026');
    // uint48 allows expiries no calendar holds: said so, with the number itself.
    expect(formatDeadline(2n ** 48n - 1n, now, gb)).toBe('Unix time 281474976710655, beyond any date');
    expect(formatDeadline(2n ** 200n, now)).toMatch(/^Unix time \d+, beyond any date$/);
  });
});
