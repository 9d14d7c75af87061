import type { TokenInfo } from '../api/tokens';
import { displayUnits } from '../format';
import type { QuoteState } from './TokenQuoteLoader';

/**
 * The quote for what the form says: what is paid and received, the limit written into the trade, fee and impact.
 * Amounts are shown trimmed; the exact wei are on each cell.
 */
export function TokenQuoteView({ state, token }: { state: QuoteState; token: TokenInfo }) {
  const { quote, error, loading } = state;
  if (error) {
    return (
      <p className="tk-quote-error" role="alert" data-testid="quote-error" data-code={error.code}>
        {error.message} {error.fix && <span className="muted">{error.fix}</span>}{' '}
        <span className="muted">({error.code})</span>
      </p>
    );
  }
  if (!quote) {
    return loading ? (
      <p className="muted" data-testid="quote-loading">
        Quoting…
      </p>
    ) : null;
  }
  const pair = token.quote;
  const [payDecimals, receiveDecimals] =
    quote.side === 'buy' ? [pair.decimals, token.decimals] : [token.decimals, pair.decimals];
  const minReceive = quote.limit.kind === 'minReceive';
  const limitLabel = minReceive ? 'You receive at least' : 'You pay at most';
  const limitSymbol = minReceive ? quote.receive.symbol : quote.pay.symbol;
  return (
    <table className="tk-quote" data-testid="quote" data-loading={loading ? 'yes' : 'no'}>
      <tbody>
        <tr>
          <th scope="row">You pay</th>
          <td data-testid="quote-pay" data-wei={quote.pay.wei}>
            {displayUnits(quote.pay.wei, payDecimals)} {quote.pay.symbol}
          </td>
        </tr>
        <tr>
          <th scope="row">You receive</th>
          <td data-testid="quote-receive" data-wei={quote.receive.wei}>
            {displayUnits(quote.receive.wei, receiveDecimals)} {quote.receive.symbol}
          </td>
        </tr>
        <tr>
          <th scope="row">{limitLabel}</th>
          <td data-testid="quote-limit" data-kind={quote.limit.kind} data-wei={quote.limit.wei}>
            {displayUnits(quote.limit.wei, minReceive ? receiveDecimals : payDecimals)} {limitSymbol}{' '}
            <span className="muted">(slippage {quote.slippageBps / 100}%)</span>
          </td>
        </tr>
        <tr>
          <th scope="row">Site fee</th>
          <td data-testid="quote-fee" data-wei={quote.siteFee.wei}>
            {displayUnits(quote.siteFee.wei, pair.decimals)} {quote.siteFee.symbol}{' '}
            <span className="muted">({quote.siteFee.bps / 100}%)</span>
          </td>
        </tr>
        <tr>
          <th scope="row">Price impact</th>
          <td data-testid="quote-impact">{quote.priceImpactPct.toFixed(2)}%</td>
        </tr>
      </tbody>
    </table>
  );
}
