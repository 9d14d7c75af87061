import { type UseQueryResult, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { type Address, getAddress, isAddress } from 'viem';
import type { ApiError } from '../api/apiRequestError';
import { fetchBalances, fetchToken, fetchTokenTrades, type TokenInfo } from '../api/tokens';
import { ErrorPanel } from '../components/ErrorPanel';
import { PriceChart } from '../components/PriceChart';
import { TokenBalances } from '../components/TokenBalances';
import { TokenFacts } from '../components/TokenFacts';
import { TokenTradePanel } from '../components/TokenTradePanel';
import { TokenTradesTable } from '../components/TokenTradesTable';
import { failureOf } from '../failureOf';
import { useTitleSubject } from '../router/documentTitle';
import { useRouter } from '../router/routes';
import { activeAddress, useWallet } from '../wallet/walletStore';

/** Trades shown in the table and the chart. */
const TRADES_SHOWN = 100;
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

  const queryClient = useQueryClient();
  const tokenQuery = useQuery({ queryKey: ['token', address], queryFn: () => fetchToken(address) });
  const tradesQuery = useQuery({
    queryKey: ['token', address, 'trades'],
    queryFn: () => fetchTokenTrades(address, TRADES_SHOWN),
    refetchInterval: REFRESH_MS,
  });
  const balancesQuery = useQuery({
    queryKey: ['token', address, 'balances', wallet],
    queryFn: () => fetchBalances(wallet as Address, address),
    enabled: wallet !== null,
  });
  const token = loaded(tokenQuery);
  const trades = loaded(tradesQuery);
  const balances = loaded(balancesQuery);
  const loadToken = tokenQuery.refetch;
  const loadTrades = tradesQuery.refetch;
  const loadBalances = balancesQuery.refetch;

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
      <p className="muted" data-testid="token-loading">
        Loading…
      </p>
    );
  }
  const pair = { symbol: info.quote.symbol, decimals: info.quote.decimals };
  return (
    <div className="tk-token" data-testid="token-page" data-token={info.address}>
      <div className="tk-token-main">
        <TokenFacts token={info} market={trades.value?.market ?? null} />
        {trades.error && (
          <ErrorPanel title="Could not read the trades" error={trades.error} onRetry={() => void loadTrades()} />
        )}
        {trades.value && (
          <>
            <h3>Price</h3>
            <PriceChart trades={trades.value.trades} tokenDecimals={info.decimals} pair={pair} />
            <h3>Recent trades</h3>
            <TokenTradesTable trades={trades.value.trades} token={info} pair={pair} now={now} />
          </>
        )}
      </div>
      <div className="tk-token-side">
        <TokenTradePanel token={info} referrer={referrer} onTraded={onTraded} />
        {r !== null && referrer === null && (
          <p className="muted" data-testid="referrer-invalid">
            The link's referrer is not an address, so trades here name none.
          </p>
        )}
        {balances.error && (
          <ErrorPanel title="Could not read your balances" error={balances.error} onRetry={() => void loadBalances()} />
        )}
        {balances.value && <TokenBalances balances={balances.value} />}
      </div>
    </div>
  );
}

/**
 * One launched token: what it is and its price now, the price chart and latest trades, the signer's balances, and
 * the panel to buy or sell it. A referral link's `r` names the referrer of trades made here.
 */
export function TokenPage({ address }: { address: string }) {
  // A fresh view per token, so an answer about the previous token can never land on this one.
  return <TokenView key={address} address={address} />;
}
