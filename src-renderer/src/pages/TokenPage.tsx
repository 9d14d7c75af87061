import { type UseQueryResult, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { type Address, getAddress, isAddress } from 'viem';
import type { ApiError } from '../api/apiRequestError';
import { priceUsd, useDollars } from '../api/dollars';
import { fetchToken, type TokenInfo } from '../api/tokens';
import { ErrorPanel } from '../components/ErrorPanel';
import { launchMarketQuery } from '../components/LaunchListCaps';
import { PriceChart } from '../components/PriceChart';
import { TokenBalances } from '../components/TokenBalances';
import { TokenFacts } from '../components/TokenFacts';
import { TokenHoldersTable } from '../components/TokenHoldersTable';
import { TokenTradesTable } from '../components/TokenTradesTable';
import { dayStats, TRADES_READ } from '../components/tokenDayStats';
import { failureOf } from '../failureOf';
import { useTitleSubject } from '../router/documentTitle';
import { useRouter } from '../router/routes';
import { TokenTradePanel } from '../trade/TokenTradePanel';
import { Card } from '../ui/Card';
import { Empty } from '../ui/Empty';
import { balancesQuery, useWalletBalances } from '../wallet/walletBalances';
import { activeAddress, useWallet } from '../wallet/walletStore';

/** How often the trades and the market are read again while the page is open. */
const REFRESH_MS = 5000;

/** A query's outcome as the view shows it: the last good answer, and the error of the latest read if it failed. */
function loaded<T>(query: UseQueryResult<T>): { value: T | null; error: ApiError | null } {
  return { value: query.data ?? null, error: query.error ? failureOf(query.error) : null };
}

function TokenView({ address }: { address: string }) {
  const wallet = useWallet(activeAddress);
  const r = useRouter((s) => s.query.get('r'));
  const referrer: Address | null = r && isAddress(r, { strict: false }) ? getAddress(r) : null;
  const [now, setNow] = useState(() => Date.now());
  const { usdPerUnit } = useDollars();

  const queryClient = useQueryClient();
  // Read again now and then for its holders, which move with every trade and transfer.
  const tokenQuery = useQuery({
    queryKey: ['token', address],
    queryFn: () => fetchToken(address),
    refetchInterval: REFRESH_MS * 2,
  });
  // The same read as the launches list's row: one cache entry per token.
  const tradesQuery = useQuery({ ...launchMarketQuery(address), staleTime: 0, retry: 3, refetchInterval: REFRESH_MS });
  // The same balances the trade panel reads and checks against: one query, its BNB from the one BNB entry.
  const walletBalances = useWalletBalances(wallet, address);
  const creator = tokenQuery.data?.creator ?? null;
  // The creator's holding, from the chain: it shows a transfer before the index has its block confirmed.
  const creatorQuery = useQuery({ ...balancesQuery(creator, address), refetchInterval: REFRESH_MS * 6 });
  const token = loaded(tokenQuery);
  const trades = loaded(tradesQuery);
  const balances = {
    value: walletBalances.balances,
    error: walletBalances.error ? failureOf(walletBalances.error) : null,
  };
  const loadToken = tokenQuery.refetch;
  const loadTrades = tradesQuery.refetch;
  const loadBalances = walletBalances.refetch;

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  useTitleSubject(token.value?.symbol ?? null);

  // A settled trade moves the market and the signer's balances: everything read about this token is read again.
  const onTraded = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ['token', address] });
  }, [queryClient, address]);

  if (token.error) {
    return <ErrorPanel title="Could not load this token" error={token.error} onRetry={() => void loadToken()} />;
  }
  const info: TokenInfo | null = token.value;
  if (!info) {
    return (
      <p className="text-muted" data-testid="token-loading">
        Loading…
      </p>
    );
  }
  const pair = { symbol: info.quote.symbol, decimals: info.quote.decimals };
  const pairUsd = usdPerUnit(info.quote.address);
  const answer = trades.value;
  const day = answer ? dayStats(answer, info.decimals, now, TRADES_READ) : null;
  const tokenUsd = answer ? priceUsd(answer.market.priceWei, pair.decimals, pairUsd) : null;
  const holders = info.holders;
  return (
    <div
      className="grid items-start gap-4 xl:grid-cols-[minmax(0,1fr)_23rem]"
      data-testid="token-page"
      data-token={info.address}
    >
      <div className="min-w-0 xl:col-start-1 xl:row-start-1">
        <TokenFacts
          token={info}
          market={answer?.market ?? null}
          day={day}
          pairUsd={pairUsd}
          creatorHoldsWei={creatorQuery.data ? BigInt(creatorQuery.data.token.wei) : null}
          wallet={wallet}
          now={now}
        />
      </div>
      <aside
        aria-label="Trade"
        className="grid min-w-0 gap-4 md:grid-cols-2 xl:sticky xl:top-4 xl:col-start-2 xl:row-span-3 xl:row-start-1 xl:grid-cols-1"
      >
        <TokenTradePanel token={info} referrer={referrer} onTraded={onTraded} />
        <div className="flex min-w-0 flex-col gap-3">
          {r !== null && referrer === null && (
            <p className="text-sm text-muted" data-testid="referrer-invalid">
              The link's referrer is not an address, so trades here name none.
            </p>
          )}
          {balances.error && (
            <ErrorPanel
              title="Could not read your balances"
              error={balances.error}
              onRetry={() => void loadBalances()}
            />
          )}
          {balances.value && <TokenBalances balances={balances.value} />}
        </div>
      </aside>
      {trades.error && (
        <div className="min-w-0 xl:col-start-1">
          <ErrorPanel title="Could not read the trades" error={trades.error} onRetry={() => void loadTrades()} />
        </div>
      )}
      {answer && (
        <>
          <Card title="Price" className="min-w-0 xl:col-start-1">
            <PriceChart trades={answer.trades} tokenDecimals={info.decimals} pair={pair} />
          </Card>
          <Card
            title="Trades"
            flush
            className="min-w-0 xl:col-start-1"
            actions={
              <span className="text-xs text-muted">
                {answer.trades.length < TRADES_READ ? 'Every trade since the launch' : `The latest ${TRADES_READ}`}
              </span>
            }
          >
            <TokenTradesTable trades={answer.trades} token={info} pair={pair} pairUsd={pairUsd} now={now} />
          </Card>
        </>
      )}
      <Card
        title="Holders"
        flush
        testId="token-holders"
        className="min-w-0 xl:col-start-1"
        actions={
          holders && (
            <span className="text-xs text-muted" data-testid="holders-count" data-count={holders.count}>
              {holders.count.toLocaleString('en-US')} holder{holders.count === 1 ? '' : 's'}
              {holders.count > holders.top.length ? `, the largest ${holders.top.length}` : ''}
            </span>
          )
        }
      >
        {holders ? (
          <TokenHoldersTable holders={holders} token={info} tokenUsd={tokenUsd} wallet={wallet} />
        ) : (
          <Empty title="Holders not indexed yet" testId="holders-empty">
            The holders appear once the indexer has read the launch's block.
          </Empty>
        )}
      </Card>
    </div>
  );
}

/**
 * One launched token: what it is (logo, links, description from its metadata) and its market now, the price chart
 * and latest trades (its first buy included), its largest holders, the signer's balances, and the panel to buy or sell it. A referral link's `r` names the referrer of trades made here.
 */
export function TokenPage({ address }: { address: string }) {
  // A fresh view per token, so an answer about the previous token can never land on this one.
  return <TokenView key={address} address={address} />;
}
