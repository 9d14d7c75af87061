import { formatUsd, usdValue } from '../../../src-shared/format/numbers';
import type { TradeQuote } from '../api/tokens';
import { Amount } from '../ui/Amount';
import { slippageTier, worstCaseOf } from './slippageRisk';

/** The token's and the pair's decimals and dollar prices, to write the worst case in whichever it is counted in. */
export interface SlippageCurrencies {
  token: { decimals: number; usdPerUnit: number | null };
  pair: { decimals: number; usdPerUnit: number | null };
}

/**
 * What a slippage over 5% lets the price take at this size, in the currency it is counted in and in dollars; before
 * an amount is quoted, that it will say so.
 */
function SlippageWarning({
  percent,
  quote,
  currencies,
  retype,
}: {
  percent: string;
  quote: TradeQuote | null;
  currencies: SlippageCurrencies;
  retype: boolean;
}) {
  const worst = quote ? worstCaseOf(quote) : null;
  const currency = worst?.inToken ? currencies.token : currencies.pair;
  const decimals = currency.decimals;
  const usd = worst ? usdValue(worst.lossWei, decimals, currency.usdPerUnit) : null;
  return (
    <div
      className={
        retype
          ? 'rounded-lg bg-down-soft px-3 py-2 text-sm text-down'
          : 'rounded-lg bg-warn-soft px-3 py-2 text-sm text-warn'
      }
      role="alert"
      data-testid="trade-slippage-warning"
      data-tier={retype ? 'retype' : 'warn'}
      data-loss-wei={worst?.lossWei.toString()}
      data-loss-usd={usd ?? undefined}
    >
      <p className="font-semibold">A {percent}% slippage lets the price move far against you.</p>
      {worst ? (
        <p className="text-fg" data-testid="trade-slippage-cost">
          At this size you could {worst.side === 'receive' ? 'receive' : 'pay'}{' '}
          <Amount wei={worst.lossWei} decimals={decimals} symbol={worst.symbol} significant={4} round="up" />{' '}
          {worst.side === 'receive' ? 'less' : 'more'} than quoted, <strong>{formatUsd(usd)}</strong>
          {usd === null ? ' (no dollar price)' : ''}: {worst.side === 'receive' ? 'as little as' : 'as much as'}{' '}
          <Amount
            wei={worst.limitWei}
            decimals={decimals}
            symbol={worst.symbol}
            round={worst.side === 'receive' ? 'down' : 'up'}
          />
          .
        </p>
      ) : (
        <p className="text-fg">Its cost in dollars shows once an amount is quoted.</p>
      )}
    </div>
  );
}

/**
 * The slippage tolerance in per cent, the settings' default until one is typed, and why a typed one is refused. Over
 * 5% it says what the limit lets the price take at this size, in units and dollars; over 20% the number is typed
 * again before the trade can go on.
 */
export function TradeSlippage({
  inputId,
  text,
  bps,
  maxBps,
  onChange,
  quote,
  currencies,
  retyped,
  onRetype,
}: {
  inputId: string;
  text: string;
  /** `text` in basis points; null when it is refused. */
  bps: number | null;
  maxBps: number;
  onChange(text: string): void;
  /** The quote at this slippage, for the worst case at this size; null while none is in. */
  quote: TradeQuote | null;
  currencies: SlippageCurrencies;
  /** The slippage typed a second time, for a slippage over 20%. */
  retyped: string;
  onRetype(text: string): void;
}) {
  const tier = slippageTier(bps);
  const percent = bps === null ? text : String(bps / 100);
  return (
    <>
      <div className="flex items-center justify-between gap-2 text-sm">
        <label htmlFor={inputId} className="text-muted">
          Slippage tolerance
        </label>
        <span className="inline-flex items-center gap-1">
          <input
            id={inputId}
            className="w-16 text-right tabular"
            inputMode="decimal"
            value={text}
            onChange={(event) => onChange(event.target.value)}
            aria-invalid={bps === null}
            data-testid="trade-slippage"
            data-tier={tier}
          />
          <span className="text-muted">%</span>
        </span>
      </div>
      {bps === null && (
        <p className="text-xs text-down" role="alert" data-testid="trade-slippage-error" data-code="INVALID_SLIPPAGE">
          Slippage must be from 0.01% to {maxBps / 100}%, with two decimal places at most.
        </p>
      )}
      {tier !== 'usual' && (
        <SlippageWarning percent={percent} quote={quote} currencies={currencies} retype={tier === 'retype'} />
      )}
      {tier === 'retype' && (
        <div className="flex items-center justify-between gap-2 text-sm">
          <label htmlFor={`${inputId}-again`} className="text-down">
            Type {percent} again to trade at this slippage
          </label>
          <span className="inline-flex items-center gap-1">
            <input
              id={`${inputId}-again`}
              className="w-16 text-right tabular"
              inputMode="decimal"
              autoComplete="off"
              value={retyped}
              onChange={(event) => onRetype(event.target.value)}
              onPaste={(event) => event.preventDefault()}
              data-testid="trade-slippage-retype"
            />
            <span className="text-muted">%</span>
          </span>
        </div>
      )}
    </>
  );
}
