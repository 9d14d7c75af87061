import { useQuery } from '@tanstack/react-query';
import { Bell, BellOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { parseUnits } from 'viem';
import { alertFigureText } from '../../../src-shared/format/alertFigure';
import { formatAge, formatLocalTime } from '../../../src-shared/format/times';
import { useDollars } from '../api/dollars';
import { fetchLaunches } from '../api/launches';
import { fetchToken } from '../api/tokens';
import { CopyIcon } from '../components/CopyIcon';
import { ErrorPanel } from '../components/ErrorPanel';
import { launchMarketQuery } from '../components/LaunchListCaps';
import { MarketPrice, marketCapText } from '../components/LaunchListRow';
import { loadableLogo } from '../components/loadableLogo';
import { ChangeText } from '../components/PriceChange';
import { dayStats, TRADES_READ } from '../components/tokenDayStats';
import { failureOf } from '../failureOf';
import { shortAddress } from '../format';
import { Link } from '../router/Link';
import { Badge } from '../ui/Badge';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { Empty } from '../ui/Empty';
import { PageHeader } from '../ui/PageHeader';
import { TokenLogo } from '../ui/TokenLogo';
import { appChannelAvailable } from '../wallet/appChannel';
import { AlertRuleForm } from '../watchlist/AlertRuleForm';
import { NotificationPermissionLine } from '../watchlist/NotificationPermissionLine';
import { CreatorStar, TokenStar } from '../watchlist/StarButton';
import { type AlertRule, useWatchlist, type Watchlist } from '../watchlist/watchlistApi';

/** How often the watched tokens' markets are read again while the page is open. */
const REFRESH_MS = 10_000;
/** The newest launches looked through for the watched creators' (the list's largest page). */
const LAUNCHES_READ = 200;

const STATE_TEXT: Record<AlertRule['state'], { label: string; tone: 'neutral' | 'primary' | 'warn'; title: string }> = {
  unknown: { label: 'not seen yet', tone: 'neutral', title: 'Looked at on the next trade' },
  armed: { label: 'waiting', tone: 'primary', title: 'Fires when the value crosses the figure' },
  fired: {
    label: 'crossed',
    tone: 'warn',
    title: 'Past the figure: fires again once it has come back by 1% and crossed again',
  },
};

/** "Price above $0.0005", "Market cap below 120 BNB". */
function ruleText(rule: AlertRule): string {
  const what = rule.metric === 'price' ? 'Price' : 'Market cap';
  return `${what} ${rule.direction} ${alertFigureText(parseUnits(rule.figure, 18), rule.currency)}`;
}

function WatchedTokenRow({
  address,
  rule,
  now,
  editing,
  onEdit,
}: {
  address: string;
  rule: AlertRule | null;
  now: number;
  editing: boolean;
  onEdit(open: boolean): void;
}) {
  const { usdPerUnit } = useDollars();
  const token = useQuery({ queryKey: ['token', address], queryFn: () => fetchToken(address) });
  const trades = useQuery({ ...launchMarketQuery(address), refetchInterval: REFRESH_MS });
  const info = token.data;
  const market = trades.data?.market ?? null;
  const pairUsd = market ? usdPerUnit(market.pair.address) : null;
  const day = trades.data && info ? dayStats(trades.data, info.decimals, now, TRADES_READ) : null;
  const unread = token.error || trades.error ? <span className="text-muted">unavailable</span> : null;
  const waiting = unread ?? <span className="text-muted">…</span>;
  return (
    <>
      <tr data-testid="watched-token" data-token={address}>
        <td>
          <div className="flex min-w-0 items-center gap-3">
            <TokenLogo src={loadableLogo(info?.image ?? null)} symbol={info?.symbol ?? '?'} address={address} />
            <div className="min-w-0">
              <Link
                to={`/token/${address}`}
                testId="watched-token-link"
                className="block truncate font-semibold text-fg no-underline hover:underline"
              >
                {info?.name ?? shortAddress(address)}
              </Link>
              <span className="text-xs font-semibold text-muted">{info?.symbol ?? ''}</span>
            </div>
          </div>
        </td>
        <td className="num" data-testid="watched-price">
          {market ? <MarketPrice market={market} pairUsd={pairUsd} /> : waiting}
        </td>
        <td className="num" data-testid="watched-change">
          {day ? <ChangeText pct={day.changePct} /> : waiting}
        </td>
        <td className="num font-semibold" data-testid="watched-cap">
          {market ? marketCapText(market) : waiting}
        </td>
        <td data-testid="watched-alert">
          {rule ? (
            <span className="inline-flex flex-wrap items-center gap-1.5">
              <span className="text-sm">{ruleText(rule)}</span>
              <Badge tone={STATE_TEXT[rule.state].tone} title={STATE_TEXT[rule.state].title}>
                {STATE_TEXT[rule.state].label}
              </Badge>
            </span>
          ) : (
            <span className="text-muted">No alert</span>
          )}
        </td>
        <td className="text-right whitespace-nowrap">
          {appChannelAvailable && (
            <Button
              size="sm"
              variant="ghost"
              icon={rule ? <Bell size={14} aria-hidden="true" /> : <BellOff size={14} aria-hidden="true" />}
              onClick={() => onEdit(!editing)}
              aria-expanded={editing}
              testId="watched-alert-edit"
            >
              {rule ? 'Edit alert' : 'Set alert'}
            </Button>
          )}
          <TokenStar address={address} size={16} />
        </td>
      </tr>
      {editing && (
        <tr data-testid="watched-alert-row">
          <td colSpan={6} className="bg-raised/50">
            <AlertRuleForm
              token={address}
              symbol={info?.symbol ?? 'the token'}
              rule={rule}
              onDone={() => onEdit(false)}
            />
          </td>
        </tr>
      )}
    </>
  );
}

function WatchedTokens({ tokens, now }: { tokens: Watchlist['tokens']; now: number }) {
  const [editing, setEditing] = useState<string | null>(null);
  if (tokens.length === 0) {
    return (
      <Empty title="No tokens watched yet" testId="watched-tokens-empty">
        Star a token on its page to follow its price, 24 h change and market cap here, and set an alert on it.
      </Empty>
    );
  }
  return (
    <div className="overflow-x-auto">
      <table className="w-full">
        <thead>
          <tr>
            <th scope="col">Token</th>
            <th scope="col" className="num">
              Price
            </th>
            <th scope="col" className="num">
              24h
            </th>
            <th scope="col" className="num">
              Market cap
            </th>
            <th scope="col">Alert</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <WatchedTokenRow
              key={token.address}
              address={token.address}
              rule={token.alert}
              now={now}
              editing={editing === token.address}
              onEdit={(open) => setEditing(open ? token.address : null)}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function WatchedCreators({ creators, now }: { creators: Watchlist['creators']; now: number }) {
  const launches = useQuery({
    queryKey: ['launches', 'newest', LAUNCHES_READ],
    queryFn: () => fetchLaunches(undefined, LAUNCHES_READ),
    refetchInterval: REFRESH_MS,
    enabled: creators.length > 0,
  });
  if (creators.length === 0) {
    return (
      <Empty title="No creators watched yet" testId="watched-creators-empty">
        Star a creator beside their address on a token's page: each launch of theirs then raises a notification.
      </Empty>
    );
  }
  return (
    <ul className="divide-y divide-line">
      {creators.map((creator) => {
        const theirs =
          launches.data?.launches.filter((launch) => launch.creator.toLowerCase() === creator.address.toLowerCase()) ??
          null;
        return (
          <li
            key={creator.address}
            className="flex flex-wrap items-start gap-x-6 gap-y-2 px-4 py-3"
            data-testid="watched-creator"
            data-creator={creator.address}
          >
            <div className="flex w-56 shrink-0 items-center gap-1">
              <code title={creator.address} className="text-sm">
                {shortAddress(creator.address)}
              </code>
              <CopyIcon text={creator.address} label="Copy the creator's address" />
              <CreatorStar address={creator.address} />
            </div>
            <div className="min-w-0 flex-1 text-sm" data-testid="watched-creator-launches">
              {launches.error ? (
                <ErrorPanel title="Could not read the launches" error={failureOf(launches.error)} />
              ) : theirs === null ? (
                <span className="text-muted">…</span>
              ) : theirs.length === 0 ? (
                <span className="text-muted">No launches among the latest {LAUNCHES_READ}.</span>
              ) : (
                <ul className="flex flex-wrap gap-2">
                  {theirs.map((launch) => (
                    <li key={launch.token}>
                      <Link
                        to={`/token/${launch.token}`}
                        className="inline-flex items-center gap-1.5 rounded-full border border-line px-2.5 py-0.5 text-xs font-semibold text-fg no-underline hover:bg-raised"
                        title={`${launch.name}, launched ${formatLocalTime(launch.launchedAt)}`}
                      >
                        {launch.symbol}
                        <span className="font-normal text-muted">{formatAge(launch.launchedAt, now)}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The person's watchlist: starred tokens with their market and alert rule, and starred creators with their launches.
 * Kept by the service in the data directory; notifications of each come from the service's one feed.
 */
export function WatchlistPage() {
  const watchlist = useWatchlist();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <>
      <PageHeader
        title="Watchlist"
        description="Tokens and creators you starred, with an alert per token when its price or cap crosses your figure."
      />
      <NotificationPermissionLine className="mb-4" />
      {watchlist.error && (
        <ErrorPanel
          title="Could not load the watchlist"
          error={failureOf(watchlist.error)}
          onRetry={() => void watchlist.refetch()}
        />
      )}
      {watchlist.data && (
        <div className="flex flex-col gap-4" data-testid="watchlist">
          <Card title="Tokens" flush>
            <WatchedTokens tokens={watchlist.data.tokens} now={now} />
          </Card>
          <Card title="Creators" flush>
            <WatchedCreators creators={watchlist.data.creators} now={now} />
          </Card>
        </div>
      )}
    </>
  );
}
