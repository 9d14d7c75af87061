import { formatAmount, formatUsd, usdValue } from '../../../src-shared/format/numbers';
import {
  DAY_TRADES_READ,
  type DayStats,
  dayStats as sharedDayStats,
  tradePriceWei as sharedTradePriceWei,
} from '../../../src-shared/market/dayStats';
import type { TokenTrade, TokenTrades } from '../api/tokens';

/** Trades read for a token's list row, chart and table: one read shared by the list and the token page. */
export const TRADES_READ = DAY_TRADES_READ;

/** The query of a token's latest trades and market: the list rows, the sorted list and the token page share it. */
export function tradesQueryKey(token: string): readonly unknown[] {
  return ['token', token, 'trades'];
}

/** Pair wei for one whole token at a trade's own price; null for no tokens. */
export function tradePriceWei(trade: TokenTrade, tokenDecimals: number): bigint | null {
  return sharedTradePriceWei(BigInt(trade.pairWei), BigInt(trade.tokenWei), tokenDecimals);
}

export type { DayStats };

/**
 * The 24 h volume and price change of a token's trades answer (newest first) and its market now, by the one
 * calculation the positions' 24 h change uses too (src-shared/market/dayStats.ts).
 *
 * @example dayStats(answer, 18, Date.now(), 100) // { volumeWei: 2000000000000000000n, trades: 1, changePct: 4.2, … }
 */
export function dayStats(answer: TokenTrades, tokenDecimals: number, now: number, asked: number): DayStats {
  const trades = answer.trades.map((trade) => ({
    atMs: Date.parse(trade.at),
    pairWei: BigInt(trade.pairWei),
    tokenWei: BigInt(trade.tokenWei),
  }));
  return sharedDayStats(trades, BigInt(answer.market.priceWei), tokenDecimals, now, asked);
}

/**
 * The day's volume as the list and the token page show it: in dollars where the pair has a price, else compact in the
 * pair; "≥ " first when only the latest trades were counted.
 */
export function dayVolumeText(
  day: DayStats,
  pair: { decimals: number; symbol: string },
  pairUsd: number | null,
): string {
  const usd = usdValue(day.volumeWei, pair.decimals, pairUsd);
  const amount =
    usd !== null ? formatUsd(usd) : `${formatAmount(day.volumeWei, pair.decimals, { compact: true })} ${pair.symbol}`;
  return `${day.complete ? '' : '≥ '}${amount}`;
}
