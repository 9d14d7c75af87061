import { compact, displayUnits, shortAddress } from '../format';
import type { LaunchBuildAnswer } from './launchApi';

/**
 * What the service built, beside the review screen: the token's address before it exists, the cap it really opens
 * at (ticks are apart, so it drifts a little from the asked one), the first buy's floor and the most the gas costs.
 */
export function LaunchBuildSummary({ build }: { build: LaunchBuildAnswer }) {
  const pair = build.pair.symbol;
  const drift = build.opening.driftFromAskedPct;
  return (
    <section className="panel launch-build" data-testid="launch-build">
      <h3>The launch as built</h3>
      <table>
        <tbody>
          <tr>
            <th scope="row">Token address</th>
            <td>
              <code data-testid="launch-build-token" data-address={build.token}>
                {build.token}
              </code>
            </td>
          </tr>
          <tr>
            <th scope="row">Opening market cap</th>
            <td data-testid="launch-build-cap" data-value={build.opening.marketCapPair}>
              {compact(build.opening.marketCapPair)} {pair}
              {build.opening.marketCapUsd !== null && (
                <span className="muted"> (about ${compact(build.opening.marketCapUsd)})</span>
              )}
            </td>
          </tr>
          <tr>
            <th scope="row">Drift from the asked cap</th>
            <td data-testid="launch-build-drift" data-value={drift}>
              {drift > 0 ? '+' : ''}
              {drift}%
            </td>
          </tr>
          <tr>
            <th scope="row">Supply</th>
            <td>
              {displayUnits(build.supply.wei)} {build.symbol}
            </td>
          </tr>
          {build.firstBuy && (
            <tr>
              <th scope="row">First buy</th>
              <td data-testid="launch-build-first-buy">
                {build.firstBuy.spend.amount} {pair} for at least {displayUnits(build.firstBuy.minTokens.wei)}{' '}
                {build.symbol}
              </td>
            </tr>
          )}
          <tr>
            <th scope="row">Launch fee</th>
            <td data-testid="launch-build-fee">
              {build.launchFee.wei === '0' ? 'free' : `${build.launchFee.amount} BNB`}
            </td>
          </tr>
          <tr>
            <th scope="row">Royalty</th>
            <td>
              {build.royalty.explain} <span className="muted">({shortAddress(build.creatorFeeRecipient)})</span>
            </td>
          </tr>
          <tr>
            <th scope="row">Gas, at most</th>
            <td data-testid="launch-build-cost" data-wei={build.cost.maxWei}>
              {displayUnits(build.cost.maxWei)} BNB
            </td>
          </tr>
        </tbody>
      </table>
      <p className="muted">{build.explain}</p>
    </section>
  );
}
