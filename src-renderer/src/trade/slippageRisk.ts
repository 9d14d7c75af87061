import type { TradeQuote } from '../api/tokens';
import { slippageBpsOf } from './tradeInput';

/** Above this slippage (5%) the panel says what the limit lets the price take at this size. */
export const SLIPPAGE_WARN_BPS = 500;
/** Above this slippage (20%) the person types the number again before the trade can go on. */
export const SLIPPAGE_RETYPE_BPS = 2000;

/** How a slippage tolerance is treated: as is, with a warning, or only once typed twice. */
export type SlippageTier = 'usual' | 'warn' | 'retype';

export function slippageTier(bps: number | null): SlippageTier {
  if (bps === null || bps <= SLIPPAGE_WARN_BPS) return 'usual';
  return bps > SLIPPAGE_RETYPE_BPS ? 'retype' : 'warn';
}

/** The most the limit lets the price move take from the person, in the currency it is counted in. */
export interface WorstCase {
  /** 'receive' for an exact-in trade (the least it may return), 'pay' for an exact-out one (the most it may take). */
  side: 'pay' | 'receive';
  /** How much less received, or more paid, than the quote says, in that currency's wei. */
  lossWei: bigint;
  /** The limit itself: the least received or the most paid. */
  limitWei: bigint;
  /** Whether that currency is the token traded (else it is the pair). */
  inToken: boolean;
  symbol: string;
}

/**
 * What the slippage tolerance costs at worst at this size: the quote's amount minus the least the trade may return,
 * or the most it may take minus the quote's amount. Never negative.
 *
 * @example worstCaseOf(quote) // { side: 'receive', lossWei: 250n * 10n ** 18n, limitWei: 750n * 10n ** 18n, inToken: true, … }
 */
export function worstCaseOf(quote: TradeQuote): WorstCase {
  const limitWei = BigInt(quote.limit.wei);
  const buy = quote.side === 'buy';
  if (quote.limit.kind === 'minReceive') {
    const quoted = BigInt(quote.receive.wei);
    const lossWei = quoted > limitWei ? quoted - limitWei : 0n;
    return { side: 'receive', lossWei, limitWei, inToken: buy, symbol: quote.receive.symbol };
  }
  const quoted = BigInt(quote.pay.wei);
  const lossWei = limitWei > quoted ? limitWei - quoted : 0n;
  return { side: 'pay', lossWei, limitWei, inToken: !buy, symbol: quote.pay.symbol };
}

/**
 * Whether the slippage typed again is the one in force: the same number of basis points (so "25" and "25.0" match), a
 * text that is no slippage never.
 */
export function slippageRetyped(retyped: string, bps: number | null, maxBps: number): boolean {
  return bps !== null && slippageBpsOf(retyped, maxBps) === bps;
}
