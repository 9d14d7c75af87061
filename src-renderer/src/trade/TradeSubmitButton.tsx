import type { Side, TradeQuote } from '../api/tokens';
import { formatPct } from '../format';
import { Button } from '../ui/Button';
import type { ImpactTier } from './TokenQuoteView';

/**
 * The button that builds the trade and takes it to the review. It says what the wallet lacks before anything is
 * built, the price impact when that needed its own confirm, and a high slippage still to be typed again.
 */
export function TradeSubmitButton({
  side,
  symbol,
  short,
  tier,
  quote,
  ready,
  slippageNeedsRetype,
}: {
  side: Side;
  /** The token's symbol. */
  symbol: string;
  short: string | null;
  tier: ImpactTier;
  quote: TradeQuote | null;
  ready: boolean;
  /** A slippage over 20% not yet typed again. */
  slippageNeedsRetype: boolean;
}) {
  const verb = side === 'buy' ? 'Buy' : 'Sell';
  const text = short
    ? `Insufficient ${short}`
    : slippageNeedsRetype
      ? 'Type the slippage again to go on'
      : tier === 'high' && quote
        ? `${verb} anyway at −${formatPct(quote.priceImpactPct)} impact`
        : `${verb} ${symbol}`;
  return (
    <Button
      type="submit"
      size="lg"
      variant={side === 'buy' ? 'up' : 'down'}
      disabled={!ready}
      testId="trade-submit"
      data-side={side}
      data-short={short ?? undefined}
      className="w-full"
    >
      {text}
    </Button>
  );
}
