import { formatAmount, formatUsd } from '../../../src-shared/format/numbers';
import { formatAge, formatLocalTime } from '../../../src-shared/format/times';
import { priceUsd, type UsdPerUnit } from '../api/dollars';
import type { LaunchListItem } from '../api/launches';
import type { TokenTrades } from '../api/tokens';
import { useRouter } from '../router/routes';
import { cn } from '../ui/cn';
import { useLaunchMarket } from './LaunchListCaps';
import { ChangeText } from './PriceChange';
import { opensOnClick, TokenNameCell } from './TokenNameCell';
import { type DayStats, dayVolumeText, TRADES_READ } from './tokenDayStats';

/** A fee tier as people write it: 10000 → "1%", 2500 → "0.25%". */
export function feeTierText(feeTier: number): string {
  return `${feeTier / 10_000}%`;
}

const muted = <span className="text-muted">…</span>;

type Market = TokenTrades['market'];

/** A token's price in dollars over its price in the pair currency, as the lists show it. */
export function MarketPrice({ market, pairUsd, title }: { market: Market; pairUsd: number | null; title?: string }) {
  const price = priceUsd(market.priceWei, market.pair.decimals, pairUsd);
  const inPair = formatAmount(BigInt(market.priceWei), market.pair.decimals, { significant: 4 });
  return (
    <span className="inline-flex flex-col items-end leading-tight" title={title}>
      <span>{price !== null ? formatUsd(price) : inPair}</span>
      <span className="text-xs text-muted">
        {inPair} {market.pair.symbol}
      </span>
    </span>
  );
}

/** A token's market cap in dollars, or in its pair currency when the pair has no dollar price. */
export function marketCapText(market: Market): string {
  return market.marketCapUsd !== null
    ? formatUsd(market.marketCapUsd)
    : `${formatAmount(BigInt(market.marketCap.wei), market.pair.decimals, { compact: true })} ${market.pair.symbol}`;
}

/** One launch in the list, logo first; its market is read once the row scrolls into view (or at once when sorted). */
export function LaunchListRow({
  launch,
  now,
  usdPerUnit,
  day,
  fresh,
  always,
}: {
  launch: LaunchListItem;
  now: number;
  usdPerUnit: UsdPerUnit;
  /** The row's 24 h figures, worked out by the list from the same read. */
  day: DayStats | null;
  /** Arrived while the page was open: highlighted for a moment. */
  fresh: boolean;
  always: boolean;
}) {
  const { ref, answer, failed } = useLaunchMarket(launch.token, always);
  const market: TokenTrades['market'] | null = answer?.market ?? null;
  const pairUsd = market ? usdPerUnit(market.pair.address) : null;
  const to = `/token/${launch.token}`;
  const waiting = failed ? <span className="text-muted">unavailable</span> : muted;
  const navigate = useRouter((store) => store.navigate);
  return (
    <tr
      ref={ref}
      // The whole row opens the token, as in every trading list; the name stays the link keyboards and readers use.
      onClick={opensOnClick(() => navigate(to))}
      data-testid="launch-row"
      data-token={launch.token}
      data-fresh={fresh ? 'yes' : undefined}
      className={cn('cursor-pointer transition-colors duration-1000 hover:bg-raised', fresh && 'bg-fresh')}
    >
      <TokenNameCell token={{ ...launch, address: launch.token }} to={to} testIds="launch">
        <span title="The pair currency and the pool's fee tier">
          {market ? `${market.pair.symbol} pair` : 'pair'} · {feeTierText(launch.feeTier)} fee
        </span>
      </TokenNameCell>
      <td className="num" data-testid="launch-price">
        {market ? <MarketPrice market={market} pairUsd={pairUsd} title={`per ${launch.symbol}`} /> : waiting}
      </td>
      <td className="num font-semibold" data-testid="launch-cap" data-ready={market ? 'yes' : 'no'}>
        {market ? marketCapText(market) : waiting}
      </td>
      <td className="num" data-testid="launch-change">
        {day ? <ChangeText pct={day.changePct} /> : waiting}
      </td>
      <td className="num" data-testid="launch-volume">
        {day && market ? (
          <span
            title={
              day.complete
                ? `${day.trades} trade${day.trades === 1 ? '' : 's'} in the last 24 h`
                : `At least this: only the latest ${TRADES_READ} trades are counted`
            }
          >
            {dayVolumeText(day, market.pair, pairUsd)}
          </span>
        ) : (
          waiting
        )}
      </td>
      <td className="num text-muted" title={formatLocalTime(launch.launchedAt)}>
        {formatAge(launch.launchedAt, now)}
      </td>
    </tr>
  );
}
