import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type Address, getAddress, isAddress } from 'viem';
import type { ApiError } from '../api/apiRequestError';
import {
  type Balances,
  fetchBalances,
  fetchToken,
  fetchTokenTrades,
  type TokenInfo,
  type TokenTrades,
} from '../api/tokens';
import { ErrorPanel } from '../components/ErrorPanel';
import { PriceChart } from '../components/PriceChart';
import { TokenBalances } from '../components/TokenBalances';
import { TokenFacts } from '../components/TokenFacts';
import { TokenTradePanel } from '../components/TokenTradePanel';
import { TokenTradesTable } from '../components/TokenTradesTable';
import { failureOf } from '../failureOf';
import { useRouter } from '../router/routes';
import { activeAddress, useWallet } from '../wallet/walletStore';

/** Trades shown in the table and the chart. */
const TRADES_SHOWN = 100;
/** How often the trades and the market are read again while the page is open. */
const REFRESH_MS = 5000;

/** A request's outcome: nothing yet, the answer, or the error. */
type Loaded<T> = { value: T | null; error: ApiError | null };
const NOTHING = { value: null, error: null };

/** What `read` answers, read again by the returned function; only the latest read's answer is kept. */
function useLoaded<T>(read: (() => Promise<T>) | null): [Loaded<T>, () => Promise<void>] {
  const [state, setState] = useState<Loaded<T>>(NOTHING);
  const latest = useRef(0);
  const load = useCallback(async () => {
    const id = ++latest.current;
    if (!read) {
      setState(NOTHING);
      return;
    }
    try {
      const value = await read();
      if (id === latest.current) setState({ value, error: null });
    } catch (cause) {
      if (id === latest.current) setState((shown) => ({ value: shown.value, error: failureOf(cause) }));
    }
  }, [read]);
  return [state, load];
}

function TokenView({ address }: { address: string }) {
  const wallet = useWallet(activeAddress);
  const r = useRouter((s) => s.query.get('r'));
  const referrer: Address | null = r && isAddress(r, { strict: false }) ? getAddress(r) : null;
  const [now, setNow] = useState(() => Date.now());

  const [token, loadToken] = useLoaded(useCallback(() => fetchToken(address), [address]));
  const [trades, loadTrades] = useLoaded<TokenTrades>(
    useCallback(() => fetchTokenTrades(address, TRADES_SHOWN), [address]),
  );
  const [balances, loadBalances] = useLoaded<Balances>(
    useMemo(() => (wallet ? () => fetchBalances(wallet, address) : null), [address, wallet]),
  );

  useEffect(() => {
    void loadToken();
  }, [loadToken]);
  useEffect(() => {
    void loadTrades();
    const timer = setInterval(() => {
      void loadTrades();
      setNow(Date.now());
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [loadTrades]);
  useEffect(() => {
    void loadBalances();
  }, [loadBalances]);

  const onTraded = useCallback(() => {
    void loadTrades();
    void loadBalances();
  }, [loadTrades, loadBalances]);

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
