/*
 * A token's last 24 hours from its indexed trades: the token pages work it out from GET /tokens/{address}/trades,
 * the positions answer from the index itself, both with this one function on the same trades, so a token's change
 * reads the same on every page.
 */

export const DAY_MS = 86_400_000;

/** Trades read for a token's day: one read shared by the list, the token page and the positions' 24 h change. */
export const DAY_TRADES_READ = 100;

/** What the day needs of a trade: its block time and both amounts. */
export interface DayTrade {
  /** The block's time, milliseconds since the epoch. */
  atMs: number;
  /** Pair wei paid (buy) or received (sell), site fee included. */
  pairWei: bigint;
  /** Tokens received (buy) or paid (sell), in wei. */
  tokenWei: bigint;
}

/** What the last 24 hours of trades say, as far as the trades read reach. */
export interface DayStats {
  /** Pair wei traded (paid on buys, received on sells) in the last 24 h, among the trades read. */
  volumeWei: bigint;
  /** Trades counted in the volume. */
  trades: number;
  /** The pool price now against the price at the start of the window, in percent; null without a trade to compare. */
  changePct: number | null;
  /** The price compared with (pair wei per whole token); null without a trade to compare. */
  referencePriceWei: bigint | null;
  /**
   * False when the read stopped inside the window (as many trades as asked, all within 24 h): the volume then
   * covers only those trades, and the change starts from the oldest of them.
   */
  complete: boolean;
}

/** Pair wei for one whole token at a trade's own price (pairWei × 10^decimals / tokenWei); null for no tokens. */
export function tradePriceWei(pairWei: bigint, tokenWei: bigint, tokenDecimals: number): bigint | null {
  if (tokenWei === 0n) return null;
  return (pairWei * 10n ** BigInt(tokenDecimals)) / tokenWei;
}

/**
 * The 24 h volume and price change from the indexed trades (newest first, `asked` of them read) and the pool's price
 * now. The change compares with the last trade before the window, or else with the window's first trade (for a token
 * launched within the day, its first buy): a trade's own price, the average it paid. It is kept to a hundredth of a
 * basis point, worked out in bigint so tiny prices keep their precision.
 *
 * @example dayStats(trades, priceWei, 18, Date.now(), 100) // { volumeWei: 2000000000000000000n, trades: 1, changePct: 4.2, … }
 */
export function dayStats(
  trades: readonly DayTrade[],
  priceWei: bigint,
  tokenDecimals: number,
  now: number,
  asked: number,
): DayStats {
  const since = now - DAY_MS;
  let volumeWei = 0n;
  let counted = 0;
  let reference: DayTrade | undefined;
  for (const trade of trades) {
    reference = trade;
    if (trade.atMs < since) break;
    volumeWei += trade.pairWei;
    counted += 1;
  }
  const complete = trades.length < asked || counted < trades.length;
  const referencePriceWei = reference ? tradePriceWei(reference.pairWei, reference.tokenWei, tokenDecimals) : null;
  const changePct =
    referencePriceWei === null || referencePriceWei === 0n
      ? null
      : Number(((priceWei - referencePriceWei) * 1_000_000n) / referencePriceWei) / 10_000;
  return {
    volumeWei,
    trades: counted,
    changePct,
    referencePriceWei: changePct === null ? null : referencePriceWei,
    complete,
  };
}
