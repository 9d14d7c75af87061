import { formatUsd } from '../../../src-shared/format/numbers';
import { Amount } from '../ui/Amount';

/** A launch as a person reads it, from the build answer: what the review shows beside the decoded call. */
export interface LaunchFacts {
  name: string;
  symbol: string;
  pair: { symbol: string; decimals: number; usdPerUnit: number | null };
  /** The cap the token really opens at (ticks are apart, so it drifts a little from the asked one). */
  cap: { pair: number; usd: number | null; driftPct: number };
  /** Each range of the shape as the caps it spans ("$25K → $60K") and its share of the supply. */
  ranges: { caps: string; sharePct: number }[];
  supplyWei: string;
  /**
   * The first buy's spend, its floor of tokens and that floor as a share of the supply; `splitAmong` is how many
   * wallets the build splits it to (0 when it all goes to the sending wallet).
   */
  firstBuy: { spendWei: string; minTokensWei: string; pctOfSupply: number; splitAmong: number } | null;
  /** The most the launch can cost in gas, and BNB's dollar price. */
  gas: { maxWei: string; bnbUsd: number | null };
  launchFeeWei: string;
  royalty: string;
}

/** A number written with up to `digits` significant digits and separators. */
const figure = (value: number, digits = 4) =>
  Number(value.toPrecision(digits)).toLocaleString('en-US', { maximumFractionDigits: 8 });

/**
 * The launch in a trader's terms on the review screen: the opening cap in the pair and in dollars, the shape's
 * ranges as caps, the first buy as a share of the supply, the gas and the fee in BNB and dollars, and the royalty.
 */
export function LaunchSummary({ facts }: { facts: LaunchFacts }) {
  const row = 'flex items-baseline justify-between gap-4 px-4 py-2';
  const { pair } = facts;
  return (
    <dl className="divide-y divide-line rounded-xl border border-line text-sm" data-testid="review-launch">
      <div className={row} data-testid="review-launch-cap" data-pair={facts.cap.pair} data-usd={facts.cap.usd ?? ''}>
        <dt className="text-muted">Opening market cap</dt>
        <dd className="text-right font-semibold tabular">
          {figure(facts.cap.pair, 5)} <span className="text-muted">{pair.symbol}</span>
          {facts.cap.usd !== null && <span className="ml-1.5 text-muted">≈ {formatUsd(facts.cap.usd)}</span>}
          {facts.cap.driftPct !== 0 && (
            <span className="block text-xs font-normal text-muted">
              {facts.cap.driftPct > 0 ? '+' : ''}
              {figure(facts.cap.driftPct, 2)}% from the asked cap (ticks are apart)
            </span>
          )}
        </dd>
      </div>
      <div className={row} data-testid="review-launch-ranges">
        <dt className="text-muted">Supply laid across</dt>
        <dd className="text-right tabular">
          {facts.ranges.map((range) => (
            <span key={range.caps} className="block">
              {range.caps} <span className="text-muted">· {figure(range.sharePct, 3)}%</span>
            </span>
          ))}
        </dd>
      </div>
      <div className={row}>
        <dt className="text-muted">Supply</dt>
        <dd className="text-right">
          <Amount wei={facts.supplyWei} decimals={18} symbol={facts.symbol} />
        </dd>
      </div>
      {facts.firstBuy && (
        <div className={row} data-testid="review-launch-first-buy" data-pct={facts.firstBuy.pctOfSupply}>
          <dt className="text-muted">First buy</dt>
          <dd className="text-right">
            <Amount
              wei={facts.firstBuy.spendWei}
              decimals={pair.decimals}
              symbol={pair.symbol}
              usdPerUnit={pair.usdPerUnit}
            />
            <span className="block text-xs text-muted">
              at least <Amount wei={facts.firstBuy.minTokensWei} decimals={18} symbol={facts.symbol} round="down" />
              {facts.firstBuy.splitAmong > 0 && ' in all'} ·{' '}
              <strong className="text-fg">{figure(facts.firstBuy.pctOfSupply, 3)}% of the supply</strong>
            </span>
            {facts.firstBuy.splitAmong > 0 && (
              // Who gets which share is read from the call itself, in the money block above.
              <span className="block text-xs text-muted" data-testid="review-launch-split">
                {facts.firstBuy.splitAmong === 1
                  ? 'all sent to one wallet, named above'
                  : `split among ${facts.firstBuy.splitAmong} wallets: who gets what is listed above`}
              </span>
            )}
          </dd>
        </div>
      )}
      <div className={row} data-testid="review-launch-gas" data-wei={facts.gas.maxWei}>
        <dt className="text-muted">Gas, at most</dt>
        <dd className="text-right">
          <Amount
            wei={facts.gas.maxWei}
            decimals={18}
            symbol="BNB"
            usdPerUnit={facts.gas.bnbUsd}
            round="up"
            significant={4}
          />
        </dd>
      </div>
      <div className={row} data-testid="review-launch-fee">
        <dt className="text-muted">Launch fee</dt>
        <dd className="text-right">
          {facts.launchFeeWei === '0' ? (
            'Free'
          ) : (
            <Amount wei={facts.launchFeeWei} decimals={18} symbol="BNB" usdPerUnit={facts.gas.bnbUsd} />
          )}
        </dd>
      </div>
      <div className={row} data-testid="review-launch-royalty">
        <dt className="text-muted">Royalty</dt>
        <dd className="max-w-[28rem] text-right">{facts.royalty}</dd>
      </div>
    </dl>
  );
}
