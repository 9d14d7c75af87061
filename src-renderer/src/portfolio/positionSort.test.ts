import { describe, expect, it } from 'vitest';
import type { PositionRow } from '../api/positions';
import { DEFAULT_SORT, nextSort, sortPositions } from './positionSort';

/** A row with only what sorting reads. */
function row(address: string, name: string, usd: string | null, pct: number | null): PositionRow {
  const amount = { amount: '0', wei: '0', usd };
  return {
    token: { address, name, decimals: 18 },
    balance: { amount: '1', wei: '1000000000000000000' },
    value: amount,
    averageCost: null,
    realized: amount,
    unrealized: amount,
    change24h: { pct, fromPriceWei: null, complete: true },
  } as unknown as PositionRow;
}

const a = row('0x01', 'Beta', '10.5', 3);
const b = row('0x02', 'alpha', '100.000001', -2);
const c = row('0x03', 'Gamma', null, null);
const d = row('0x04', 'Delta', '100.000001', 1);
const order = (rows: PositionRow[]) => rows.map((r) => r.token.address);

describe('sortPositions', () => {
  it('puts the largest value first by default, exact to the millionth, ties by address, unpriced last', () => {
    expect(order(sortPositions([a, c, d, b], DEFAULT_SORT))).toEqual(['0x02', '0x04', '0x01', '0x03']);
  });

  it('keeps rows without the figure last in either direction', () => {
    expect(order(sortPositions([c, a, b], { key: 'change', descending: false }))).toEqual(['0x02', '0x01', '0x03']);
    expect(order(sortPositions([c, a, b], { key: 'change', descending: true }))).toEqual(['0x01', '0x02', '0x03']);
  });

  it('sorts names without regard to case', () => {
    expect(order(sortPositions([c, a, b, d], { key: 'token', descending: false }))).toEqual([
      '0x02',
      '0x01',
      '0x04',
      '0x03',
    ]);
  });
});

describe('nextSort', () => {
  it('turns the sorted column round, and opens another in its natural order', () => {
    expect(nextSort(DEFAULT_SORT, 'value')).toEqual({ key: 'value', descending: false });
    expect(nextSort(DEFAULT_SORT, 'token')).toEqual({ key: 'token', descending: false });
    expect(nextSort(DEFAULT_SORT, 'realized')).toEqual({ key: 'realized', descending: true });
  });
});
