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

  it('shows a deadline as an ISO time and how far off it is', () => {
    expect(formatDeadline(1200n, 0)).toBe('1970-01-01T00:20:00.000Z (in 20 minutes)');
    expect(formatDeadline(30n, 0)).toMatch(/\(in 30 seconds\)$/);
    expect(formatDeadline(30n * 86_400n, 0)).toMatch(/\(in 30 days\)$/);
    expect(formatDeadline(7200n, 7200)).toMatch(/\(expired now\)$/);
    expect(formatDeadline(0n, 3600)).toMatch(/\(expired 60 minutes ago\)$/);
    expect(formatDeadline(2n ** 200n, 0)).toMatch(/beyond any date/);
  });
});
