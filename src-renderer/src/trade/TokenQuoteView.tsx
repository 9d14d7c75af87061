import type { ReactNode } from 'react';
import type { TokenInfo } from '../api/tokens';
import { formatPct } from '../format';
import { Amount } from '../ui/Amount';
import { cn } from '../ui/cn';
import type { QuoteState } from './useTokenQuote';

/** Price impact from which a trade is flagged amber, and from which it needs an explicit confirm (red). */
const IMPACT_WARN_PCT = 5;
const IMPACT_CONFIRM_PCT = 15;

export type ImpactTier = 'low' | 'warn' | 'high';

export function impactTier(pct: number): ImpactTier {
  if (pct > IMPACT_CONFIRM_PCT) return 'high';
  return pct > IMPACT_WARN_PCT ? 'warn' : 'low';
}

function Row({ label, children, className }: { label: ReactNode; children: ReactNode; className?: string }) {
  return (
    <div className={cn('flex items-baseline justify-between gap-3 py-1', className)}>
      {/* The label wraps before an amount is cut: the figures are what the person reads. */}
      <dt className="min-w-0 text-muted">{label}</dt>
      <dd className="shrink-0 text-right tabular">{children}</dd>
    </div>
  );
}

/**
 * The quote for what the form says: what is paid and received in whole units and dollars, the limit written into
 * the trade, the site fee, the price impact in its tier, and the network fee once the trade has been built.
 */
export function TokenQuoteView({
  state,
  token,
  tokenUsd,
  pairUsd,
  networkFee,
}: {
  state: QuoteState;
  token: TokenInfo;
  tokenUsd?: number | null;
  pairUsd?: number | null;
  /** The whole action's gas at most, in BNB wei, and BNB's dollar price; null while it is not built yet. */
  networkFee?: { wei: bigint | null; usdPerBnb: number | null; loading: boolean } | null;
}) {
  const { quote, error, loading } = state;
  if (error) {
    return (
      <div
        className="rounded-lg bg-down-soft px-3 py-2 text-sm text-down"
        role="alert"
        data-testid="quote-error"
        data-code={error.code}
      >
        <p className="font-semibold">{error.message}</p>
        {/* The service's own fix: for POOL_TOO_THIN the advice to trade less or split it, which is then true. */}
        {error.fix && <p className="text-fg">{error.fix}</p>}
        <p className="text-xs text-muted">{error.code}</p>
      </div>
    );
  }
  if (!quote) {
    return loading ? (
      <p className="text-sm text-muted" data-testid="quote-loading">
        Quoting…
      </p>
    ) : null;
  }
  const pair = token.quote;
  const buy = quote.side === 'buy';
  const [payDecimals, receiveDecimals] = buy ? [pair.decimals, token.decimals] : [token.decimals, pair.decimals];
  const [payUsd, receiveUsd] = buy ? [pairUsd, tokenUsd] : [tokenUsd, pairUsd];
  const minReceive = quote.limit.kind === 'minReceive';
  const tier = impactTier(quote.priceImpactPct);
  return (
    <dl
      className={cn('rounded-lg bg-raised px-3 py-2 text-sm transition-opacity', loading && 'opacity-60')}
      data-testid="quote"
      data-loading={loading ? 'yes' : 'no'}
    >
      <Row label="You pay">
        <Amount
          testId="quote-pay"
          wei={quote.pay.wei}
          decimals={payDecimals}
          symbol={quote.pay.symbol}
          usdPerUnit={payUsd}
          stacked
        />
      </Row>
      <Row label="You receive">
        <Amount
          testId="quote-receive"
          wei={quote.receive.wei}
          decimals={receiveDecimals}
          symbol={quote.receive.symbol}
          usdPerUnit={receiveUsd}
          stacked
          className="font-semibold"
        />
      </Row>
      <Row
        label={
          <>
            {minReceive ? 'Minimum received' : 'Maximum paid'}{' '}
            <span className="text-xs">({formatPct(quote.slippageBps / 100)} slippage)</span>
          </>
        }
      >
        <span data-testid="quote-limit" data-kind={quote.limit.kind} data-wei={quote.limit.wei}>
          <Amount
            wei={quote.limit.wei}
            decimals={minReceive ? receiveDecimals : payDecimals}
            symbol={minReceive ? quote.receive.symbol : quote.pay.symbol}
            usdPerUnit={minReceive ? receiveUsd : payUsd}
            round={minReceive ? 'down' : 'up'}
            stacked
          />
        </span>
      </Row>
      <Row label={`Site fee (${formatPct(quote.siteFee.bps / 100)})`}>
        <Amount
          testId="quote-fee"
          wei={quote.siteFee.wei}
          decimals={pair.decimals}
          symbol={quote.siteFee.symbol}
          usdPerUnit={pairUsd}
          stacked
        />
      </Row>
      <Row label="Price impact">
        <span
          data-testid="quote-impact"
          data-tier={tier}
          className={cn(
            'font-semibold',
            tier === 'high' && 'rounded bg-down-soft px-1.5 text-down',
            tier === 'warn' && 'rounded bg-warn-soft px-1.5 text-warn',
          )}
        >
          {formatPct(quote.priceImpactPct)}
        </span>
      </Row>
      {networkFee && (
        <Row label="Network fee (at most)">
          {networkFee.wei === null ? (
            <span className="text-muted">{networkFee.loading ? 'Estimating…' : '—'}</span>
          ) : (
            <span data-testid="trade-network-fee" data-wei={networkFee.wei.toString()}>
              <Amount
                wei={networkFee.wei}
                decimals={18}
                symbol="BNB"
                usdPerUnit={networkFee.usdPerBnb}
                significant={4}
                round="up"
                stacked
              />
            </span>
          )}
        </Row>
      )}
    </dl>
  );
}
