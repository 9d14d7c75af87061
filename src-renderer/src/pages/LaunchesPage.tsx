import { useQueries } from '@tanstack/react-query';
import { Rocket, Search } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { formatExact } from '../../../src-shared/format/numbers';
import type { ApiError } from '../api/apiRequestError';
import { useDollars } from '../api/dollars';
import { fetchLaunches, type LaunchListItem } from '../api/launches';
import type { TokenTrades } from '../api/tokens';
import { ErrorPanel } from '../components/ErrorPanel';
import { LaunchList } from '../components/LaunchList';
import { launchMarketQuery } from '../components/LaunchListCaps';
import { type DayStats, dayStats, TRADES_READ } from '../components/tokenDayStats';
import { failureOf } from '../failureOf';
import { Link } from '../router/Link';
import { useRouter } from '../router/routes';
import { Card } from '../ui/Card';
import { Empty } from '../ui/Empty';
import { PageHeader } from '../ui/PageHeader';
import { Segmented, type SegmentedOption } from '../ui/Segmented';
import { useWallet } from '../wallet/walletStore';

const POLL_MS = 3000;
/** How long a launch that arrived while the page is open stays highlighted. */
const FRESH_MS = 4000;
/** Launch tokens have 18 decimals (the factory's LaunchToken). */
const TOKEN_DECIMALS = 18;

type SortKey = 'newest' | 'cap' | 'volume' | 'change';

const SORTS: SegmentedOption<SortKey>[] = [
  { value: 'newest', label: 'Newest', testId: 'sort-newest' },
  { value: 'cap', label: 'Market cap', testId: 'sort-cap' },
  { value: 'volume', label: '24h volume', testId: 'sort-volume' },
  { value: 'change', label: '24h change', testId: 'sort-change' },
];

/** `newer` (newest first) put before `shown`, leaving out any token already listed. */
function prepend(newer: LaunchListItem[], shown: LaunchListItem[]): LaunchListItem[] {
  const seen = new Set(shown.map((launch) => launch.token));
  const added: LaunchListItem[] = [];
  for (const launch of newer) {
    if (seen.has(launch.token)) continue;
    seen.add(launch.token);
    added.push(launch);
  }
  return added.length > 0 ? [...added, ...shown] : shown;
}

/** Reads of the first page for logos found after their rows appeared, at most this many in a row. */
const LOGO_READS = 10;

/** The shown launches with the logos a newer read of them found (the same list when none is new). */
function withLogos(shown: LaunchListItem[], read: readonly LaunchListItem[]): LaunchListItem[] {
  const found = new Map(read.filter((launch) => launch.image).map((launch) => [launch.token, launch.image]));
  let changed = false;
  const next = shown.map((launch) => {
    const image = found.get(launch.token);
    if (!image || image === launch.image) return launch;
    changed = true;
    return { ...launch, image };
  });
  return changed ? next : shown;
}

/** Whether a launch matches the filter: its name, symbol or address contains the text, case aside. */
function matches(launch: LaunchListItem, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return [launch.name, launch.symbol, launch.token].some((field) => field.toLowerCase().includes(needle));
}

/** The figure a sort orders by (larger first); launches whose market is not read yet go last. */
function sortValue(key: SortKey, answer: TokenTrades | undefined, day: DayStats | undefined): number | null {
  if (!answer) return null;
  if (key === 'cap') return answer.market.marketCapUsd ?? Number(answer.market.marketCap.amount);
  if (key === 'volume') return day ? Number(day.volumeWei) : null;
  if (key === 'change') return day?.changePct ?? null;
  return null;
}

/**
 * The live list of launches: the newest page first, then every few seconds whatever launched since, by the `next`
 * cursor the API hands out (kept when an answer is empty, so nothing is skipped or repeated). Filtered by a text (the
 * header's search opens `/?q=`), sorted by age, cap, volume or change; launches arriving while it is open flash.
 */
export function LaunchesPage() {
  const [launches, setLaunches] = useState<LaunchListItem[] | null>(null);
  const fork = useWallet((store) => store.info?.fork ?? null);
  const logosOn = useWallet((store) => store.info?.thirdPartyFetches ?? false);
  const [error, setError] = useState<ApiError | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [attempt, setAttempt] = useState(0);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const [sort, setSort] = useState<SortKey>('newest');
  const q = useRouter((s) => s.query.get('q')) ?? '';
  const [filter, setFilter] = useState(q);
  const { usdPerUnit } = useDollars();
  /** The block to ask after; undefined until the first page is in. */
  const cursor = useRef<number | undefined>(undefined);

  // The header's search opens this page with a new `q`: it replaces the filter.
  useEffect(() => setFilter(q), [q]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a retry restarts the polling loop at once
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const after = cursor.current;
        const page = await fetchLaunches(after);
        if (stopped) return;
        // Polling answers come oldest first; the list shows newest first.
        const newer = after === undefined ? page.launches : [...page.launches].reverse();
        // An empty first page has no cursor to keep: polling then starts from the beginning of the chain.
        cursor.current = page.next ?? after ?? 0;
        setLaunches((shown) => prepend(newer, shown ?? []));
        if (after !== undefined && newer.length > 0) {
          // What the first page lists is not new to the person; what polling brings is.
          const tokens = newer.map((launch) => launch.token);
          setFresh((old) => new Set([...old, ...tokens]));
          setTimeout(
            () =>
              setFresh((old) => {
                const next = new Set(old);
                for (const token of tokens) next.delete(token);
                return next;
              }),
            FRESH_MS,
          );
        }
        setError(null);
      } catch (cause) {
        if (stopped) return;
        setError(failureOf(cause));
      }
      setNow(Date.now());
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [attempt]);

  // Other people's logos are fetched after their launch is listed (and only once the person allowed it): rows still
  // without one are read again for a while, so a logo shows when found without reloading the page.
  const waitingForLogos = logosOn && (launches ?? []).some((launch) => !launch.image);
  useEffect(() => {
    if (!waitingForLogos) return;
    let stopped = false;
    let reads = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      reads++;
      try {
        const page = await fetchLaunches(undefined);
        if (!stopped) setLaunches((shown) => (shown ? withLogos(shown, page.launches) : shown));
      } catch {
        // The main polling shows what went wrong; a missed logo read is tried again below.
      }
      if (!stopped && reads < LOGO_READS) timer = setTimeout(() => void read(), POLL_MS);
    };
    timer = setTimeout(() => void read(), POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [waitingForLogos]);

  const shown = useMemo(() => (launches ?? []).filter((launch) => matches(launch, filter)), [launches, filter]);
  // The rows' own reads, shared through the cache: sorting by a figure reads every shown row's market at once.
  const answers = useQueries({
    queries: shown.map((launch) => ({ ...launchMarketQuery(launch.token), enabled: sort !== 'newest' })),
  });
  const days = new Map<string, DayStats>();
  const byToken = new Map<string, TokenTrades>();
  shown.forEach((launch, i) => {
    const answer = answers[i]?.data;
    if (!answer) return;
    byToken.set(launch.token, answer);
    days.set(launch.token, dayStats(answer, TOKEN_DECIMALS, now, TRADES_READ));
  });
  const ordered =
    sort === 'newest'
      ? shown
      : [...shown].sort((a, b) => {
          const x = sortValue(sort, byToken.get(a.token), days.get(a.token));
          const y = sortValue(sort, byToken.get(b.token), days.get(b.token));
          if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
          return y - x;
        });

  return (
    <>
      <PageHeader
        title="Launches"
        description="Every token launched through the factory, live: new launches appear here within seconds."
        actions={
          <Link
            to="/launch"
            className="inline-flex items-center gap-2 rounded-lg bg-primary px-3.5 py-2 text-sm font-semibold text-primary-fg no-underline hover:bg-primary-hover"
          >
            <Rocket size={16} aria-hidden="true" />
            Launch a token
          </Link>
        }
      />
      {error && (
        <div className="mb-4">
          <ErrorPanel
            title={launches ? 'Could not check for new launches' : 'Could not load the launches'}
            error={error}
            onRetry={() => setAttempt((n) => n + 1)}
          />
        </div>
      )}
      <Card flush>
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-line px-4 py-3">
          <div className="relative w-full max-w-xs">
            <Search
              size={15}
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-muted"
            />
            <input
              type="search"
              aria-label="Filter launches by name, symbol or address"
              placeholder="Filter by name, symbol or address"
              data-testid="launches-filter"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
              className="!pl-9"
            />
          </div>
          <Segmented<SortKey> label="Sort launches by" value={sort} options={SORTS} onChange={setSort} size="sm" />
        </div>
        {!launches && !error && (
          <p className="px-4 py-10 text-center text-muted" data-testid="launches-loading">
            Loading launches…
          </p>
        )}
        {launches &&
          launches.length === 0 &&
          (fork ? (
            <Empty
              title={`No launches since the fork at block ${formatExact(BigInt(fork.block), 0)}`}
              testId="launches-empty"
            >
              A rehearsal lists what is launched from its fork block on. A token launched on {fork.sourceNetwork} before
              it still opens by its address in the search above, and trades here at its real price.{' '}
              <Link to="/launch">Rehearse a launch</Link>.
            </Empty>
          ) : (
            <Empty title="No tokens launched yet" testId="launches-empty">
              New launches appear here within seconds. <Link to="/launch">Launch the first one</Link>.
            </Empty>
          ))}
        {launches && launches.length > 0 && ordered.length === 0 && (
          <Empty title={`No launch matches “${filter.trim()}”`} testId="launches-no-match">
            The filter looks in names, symbols and addresses.{' '}
            <button type="button" className="cursor-pointer text-link underline" onClick={() => setFilter('')}>
              Clear the filter
            </button>
          </Empty>
        )}
        {ordered.length > 0 && (
          <LaunchList
            launches={ordered}
            now={now}
            usdPerUnit={usdPerUnit}
            days={days}
            fresh={fresh}
            always={sort !== 'newest'}
          />
        )}
      </Card>
    </>
  );
}
