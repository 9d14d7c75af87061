import { parseUnits } from 'viem';
import type { PositionRow } from '../api/positions';

/** The columns the portfolio table sorts by. */
export type PositionSortKey = 'token' | 'balance' | 'value' | 'averageCost' | 'realized' | 'unrealized' | 'change';

export interface PositionSort {
  key: PositionSortKey;
  descending: boolean;
}

/** Value, largest first: what a portfolio opens on. */
export const DEFAULT_SORT: PositionSort = { key: 'value', descending: true };

/**
 * What a row sorts by: dollars as exact millionths (so tokens of either pair currency compare), the name for the token
 * column, the percent for the change; null when the row has none (no dollar price, no trade to compare with).
 */
function sortValue(row: PositionRow, key: PositionSortKey): bigint | number | string | null {
  const micros = (usd: string | null | undefined) => (usd === null || usd === undefined ? null : parseUnits(usd, 6));
  switch (key) {
    case 'token':
      return row.token.name.toLowerCase();
    case 'balance':
      // Tokens are compared in whole units: every launch here has the same decimals, but the scale says so.
      return BigInt(row.balance.wei) * 10n ** BigInt(36 - row.token.decimals);
    case 'value':
      return micros(row.value.usd);
    case 'averageCost':
      return micros(row.averageCost?.usd);
    case 'realized':
      return micros(row.realized.usd);
    case 'unrealized':
      return micros(row.unrealized.usd);
    case 'change':
      return row.change24h.pct;
  }
}

/** The rows in the order asked for; rows without the figure go last either way, ties by token address. */
export function sortPositions(rows: readonly PositionRow[], sort: PositionSort): PositionRow[] {
  return [...rows].sort((a, b) => {
    const x = sortValue(a, sort.key);
    const y = sortValue(b, sort.key);
    if (x === null || y === null) {
      if (x !== y) return x === null ? 1 : -1;
    } else if (x !== y) {
      return (x < y ? -1 : 1) * (sort.descending ? -1 : 1);
    }
    return a.token.address < b.token.address ? -1 : 1;
  });
}

/** A click on a column's header: the other way round on the sorted column, else that column in its natural order. */
export function nextSort(current: PositionSort, key: PositionSortKey): PositionSort {
  if (current.key === key) return { key, descending: !current.descending };
  return { key, descending: key !== 'token' };
}
