import type { Side, TradeQuote } from '../api/tokens';
import { formatPct } from '../format';
import type { ImpactTier } from './TokenQuoteView';

/**
 * The price impact spelled out when it is large: amber from 5%, and from 15% a red box whose tick the trade needs
 * before it can be sent.
 */
export function TradeImpactNotice({
  quote,
  tier,
  side,
  accepted,
  onAccept,
}: {
  quote: TradeQuote;
  tier: ImpactTier;
  side: Side;
  accepted: boolean;
  onAccept(accepted: boolean): void;
}) {
  if (tier === 'warn') {
    return (
      <p className="rounded-lg bg-warn-soft px-3 py-2 text-sm text-warn" data-testid="trade-impact-warning">
        This trade moves the price {formatPct(quote.priceImpactPct)}: you get noticeably less than the market price.
      </p>
    );
  }
  if (tier !== 'high') return null;
  return (
    <label
      className="flex items-start gap-2 rounded-lg bg-down-soft px-3 py-2 text-sm text-down"
      data-testid="trade-impact-high"
    >
      <input
        type="checkbox"
        className="mt-0.5"
        checked={accepted}
        onChange={(event) => onAccept(event.target.checked)}
        data-testid="trade-impact-confirm"
      />
      <span>
        <strong>Price impact {formatPct(quote.priceImpactPct)}.</strong> You would get far less than the market price.
        Tick to {side} anyway.
      </span>
    </label>
  );
}
