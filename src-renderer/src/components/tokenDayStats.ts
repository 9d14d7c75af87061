import { formatAmount, formatUsd, usdValue } from '../../../src-shared/format/numbers';
import type { TokenTrade, TokenTrades } from '../api/tokens';

const DAY_MS = 86_400_000;

/** Trades read for a token's list row, chart and table: one read shared by the list and the token page. */
export const TRADES_READ = 100;

/** The query of a token's latest trades and market: the list rows, the sorted list and the token page share it. */
export function tradesQueryKey(token: string): readonly unknown[] {
  return ['token', token, 'trades'];
}

/** Pair wei for one whole token at a trade's own price (pairWei × 10^decimals / tokenWei); null for no tokens. */
export function tradePriceWei(trade: TokenTrade, tokenDecimals: number): bigint | null {
  const tokenWei = BigInt(trade.tokenWei);
  if (tokenWei === 0n) return null;
  return (BigInt(trade.pairWei) * 10n ** BigInt(tokenDecimals)) / tokenWei;
}

/** What the last 24 hours of trades say, as far as the trades read reach. */
export interface DayStats {
  /** Pair wei traded (paid on buys, received on sells) in the last 24 h, among the trades read. */
  volumeWei: bigint;
  /** Trades counted in the volume. */
  trades: number;
  /** The pool price now against the price at the start of the window, in percent; null without a trade to compare. */
  changePct: number | null;
  /**
   * False when the read stopped inside the window (as many trades as asked, all within 24 h): the volume then
   * covers only those trades, and the change starts from the oldest of them.
   */
  complete: boolean;
}

/**
 * The 24 h volume and price change from the indexed trades (newest first) and the pool's price now. The change
 * compares with the last trade before the window, or else with the window's first trade (for a token launched within
 * the day, its first buy): a trade's own price, the average it paid.
 *
 * @example dayStats(answer, 18, Date.now(), 100) // { volumeWei: 2000000000000000000n, trades: 1, changePct: 4.2, complete: true }
 */
export function dayStats(answer: TokenTrades, tokenDecimals: number, now: number, asked: number): DayStats {
  const since = now - DAY_MS;
  let volumeWei = 0n;
  let trades = 0;
  let reference: TokenTrade | undefined;
  for (const trade of answer.trades) {
    if (Date.parse(trade.at) >= since) {
      volumeWei += BigInt(trade.pairWei);
      trades += 1;
      reference = trade;
    } else {
      reference = trade;
      break;
    }
  }
  const complete = answer.trades.length < asked || trades < answer.trades.length;
  const referenceWei = reference ? tradePriceWei(reference, tokenDecimals) : null;
  const nowWei = BigInt(answer.market.priceWei);
  const changePct =
    referenceWei === null || referenceWei === 0n
      ? null
      : // Basis points in bigint first, so tiny prices keep their precision.
        Number(((nowWei - referenceWei) * 1_000_000n) / referenceWei) / 10_000;
  return { volumeWei, trades, changePct, complete };
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
