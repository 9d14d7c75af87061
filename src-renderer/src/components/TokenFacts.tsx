import type { TokenInfo, TokenMarket } from '../api/tokens';
import { compact, displayUnits, shortAddress } from '../format';

/** What the token is (contract, pool, creator, pair, fee tier) and what its pool says it is worth now. */
export function TokenFacts({ token, market }: { token: TokenInfo; market: TokenMarket | null }) {
  const pair = token.quote;
  return (
    <section className="tk-facts" data-testid="token-facts">
      <h2>
        <span data-testid="token-name">{token.name}</span>{' '}
        <span className="badge" data-testid="token-symbol">
          {token.symbol}
        </span>
      </h2>
      <table>
        <tbody>
          <tr>
            <th scope="row">Price</th>
            <td data-testid="token-price" data-wei={market?.priceWei}>
              {market ? `${displayUnits(market.priceWei, pair.decimals)} ${pair.symbol}` : '…'}
            </td>
          </tr>
          <tr>
            <th scope="row">Market cap</th>
            <td data-testid="token-market-cap" data-wei={market?.marketCap.wei}>
              {market ? (
                <>
                  {displayUnits(market.marketCap.wei, pair.decimals, 2)} {pair.symbol}
                  {market.marketCapUsd !== null && <span className="muted"> (${compact(market.marketCapUsd)})</span>}
                </>
              ) : (
                '…'
              )}
            </td>
          </tr>
          <tr>
            <th scope="row">Supply</th>
            <td data-testid="token-supply">{market ? displayUnits(market.supplyWei, token.decimals, 2) : '…'}</td>
          </tr>
          <tr>
            <th scope="row">Contract</th>
            <td>
              <code data-testid="token-address">{token.address}</code>
            </td>
          </tr>
          <tr>
            <th scope="row">Pool</th>
            <td>
              <code title={token.pool}>{shortAddress(token.pool)}</code>{' '}
              <span className="muted">
                {token.symbol}/{pair.symbol}, fee {token.fee / 10_000}%
              </span>
            </td>
          </tr>
          <tr>
            <th scope="row">Creator</th>
            <td>
              <code title={token.creator} data-testid="token-creator">
                {shortAddress(token.creator)}
              </code>
            </td>
          </tr>
        </tbody>
      </table>
    </section>
  );
}
