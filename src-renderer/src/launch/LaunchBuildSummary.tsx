import { formatUsd } from '../../../src-shared/format/numbers';
import { shortAddress } from '../format';
import { Amount } from '../ui/Amount';
import type { LaunchBuildAnswer } from './launchApi';

/**
 * What the service built, beside the review screen: the token's address before it exists, the cap it really opens
 * at (ticks are apart, so it drifts a little from the asked one), the first buy's floor and the most the gas costs.
 */
export function LaunchBuildSummary({ build, bnbUsd }: { build: LaunchBuildAnswer; bnbUsd: number | null }) {
  const pair = build.pair.symbol;
  const drift = build.opening.driftFromAskedPct;
  const row = 'flex items-baseline justify-between gap-3 py-1.5';
  return (
    <section className="rounded-lg border border-line bg-raised/50 px-3 py-2 text-sm" data-testid="launch-build">
      <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">The launch as built</h3>
      <dl className="divide-y divide-line">
        <div className={row}>
          <dt className="text-muted">Token</dt>
          <dd>
            <code data-testid="launch-build-token" data-address={build.token} title={build.token}>
              {shortAddress(build.token)}
            </code>
          </dd>
        </div>
        <div className={row}>
          <dt className="text-muted">Opens at</dt>
          <dd className="text-right tabular" data-testid="launch-build-cap" data-value={build.opening.marketCapPair}>
            {Number(build.opening.marketCapPair.toPrecision(5)).toLocaleString('en-US')} {pair}
            {build.opening.marketCapUsd !== null && (
              <span className="ml-1 text-muted">≈ {formatUsd(build.opening.marketCapUsd)}</span>
            )}
          </dd>
        </div>
        <div className={row}>
          <dt className="text-muted">Drift from the asked cap</dt>
          <dd className="tabular" data-testid="launch-build-drift" data-value={drift}>
            {drift > 0 ? '+' : ''}
            {Number(drift.toPrecision(3))}%
          </dd>
        </div>
        {build.firstBuy && (
          <div className={row}>
            <dt className="text-muted">First buy</dt>
            <dd className="text-right" data-testid="launch-build-first-buy">
              <Amount wei={build.firstBuy.spend.wei} decimals={build.pair.decimals} symbol={pair} /> for at least{' '}
              <Amount wei={build.firstBuy.minTokens.wei} decimals={18} symbol={build.symbol} round="down" compact />
            </dd>
          </div>
        )}
        <div className={row}>
          <dt className="text-muted">Launch fee</dt>
          <dd data-testid="launch-build-fee">
            {build.launchFee.wei === '0' ? 'Free' : <Amount wei={build.launchFee.wei} decimals={18} symbol="BNB" />}
          </dd>
        </div>
        <div className={row}>
          <dt className="text-muted">Gas, at most</dt>
          <dd data-testid="launch-build-cost" data-wei={build.cost.maxWei}>
            <Amount wei={build.cost.maxWei} decimals={18} symbol="BNB" usdPerUnit={bnbUsd} round="up" significant={4} />
          </dd>
        </div>
      </dl>
    </section>
  );
}
