import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { type Address, formatUnits, parseUnits } from 'viem';
import { useDollars } from '../api/dollars';
import {
  type Balances,
  buildTrade,
  type Exact,
  fetchBalances,
  type Side,
  type TokenInfo,
  type TradeAsk,
} from '../api/tokens';
import { shortAddress } from '../format';
import { Link } from '../router/Link';
import { useSettingsStore } from '../store/settingsStore';
import { Amount } from '../ui/Amount';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { cn } from '../ui/cn';
import { Segmented } from '../ui/Segmented';
import { UnlockInline } from '../wallet/SignerState';
import { type ActionProgress, sendBuild } from '../wallet/sendBuild';
import { activeAddress, useWallet } from '../wallet/walletStore';
import { ActionProgressView } from './ActionProgressView';
import { useTokenQuote } from './TokenQuoteLoader';
import { formatPct, impactTier, TokenQuoteView } from './TokenQuoteView';
import { useTokenUsd } from './useTokenUsd';
import { useTradePreview } from './useTradePreview';

/** The spec's defaults, used until the settings are in. */
const FALLBACK_LIMITS = { defaultSlippageBps: 50, maxSlippageBps: 5000 };
/**
 * BNB kept back for gas before anything is built (a trade and two approvals at a few gwei cost far less); once the
 * trade is built, its own network fee is used instead.
 */
const GAS_RESERVE_WEI = parseUnits('0.002', 18);
/** Quick amounts for a buy: BNB, or dollars when the pair is a dollar stablecoin. */
const BNB_PRESETS = ['0.1', '0.5', '1'];
const USD_PRESETS = ['10', '50', '100'];
const SELL_SHARES = [25, 50, 100];

/** A slippage typed in per cent ("0.5") as basis points; null unless it is 0.01% to `maxBps` with two places at most. */
function slippageBpsOf(text: string, maxBps: number): number | null {
  const match = /^(\d{1,5})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const bps = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return bps >= 1 && bps <= maxBps ? bps : null;
}

/** A typed amount in wei, or null while it is no amount (the quote answers why). */
function weiOf(text: string, decimals: number): bigint | null {
  if (!/^\d*\.?\d*$/.test(text) || text === '' || text === '.') return null;
  try {
    return parseUnits(text, decimals);
  } catch {
    return null;
  }
}

/** One sentence naming the trade: "Buy MCAT with 0.1 BNB", "Sell 500 MCAT". */
function titleOf(ask: TradeAsk, token: TokenInfo): string {
  const pairSide = (ask.side === 'buy') === (ask.exact === 'in');
  const verb = ask.side === 'buy' ? 'Buy' : 'Sell';
  if (!pairSide) return `${verb} ${ask.amount} ${token.symbol}`;
  return `${verb} ${token.symbol} ${ask.side === 'buy' ? 'with' : 'for'} ${ask.amount} ${token.quote.symbol}`;
}

const COUNT_WORDS = ['no', 'one', 'two', 'three', 'four'];

/** "3 confirmations: two approvals, then the sale". */
function confirmationsText(steps: number, side: Side): string {
  const approvals = `${COUNT_WORDS[steps] ?? steps} approval${steps === 1 ? '' : 's'}`;
  return `${steps + 1} confirmations: ${approvals}, then the ${side === 'buy' ? 'buy' : 'sale'}`;
}

/**
 * What the approvals allow, in a sentence. A token launched here lets Permit2 move it by itself, so its first sell
 * asks only Permit2's approval of the router, which ends after a while and is asked again then.
 */
function approvalsNote(steps: string[]): string {
  if (steps.includes('approve-permit2')) return "The approvals are unlimited; Permit2's is asked once.";
  return 'The approval lets the router spend it through Permit2 for a limited time.';
}

/**
 * What the wallet is short of for this trade, if anything: the paid currency (the typed amount, or the quote's
 * ceiling for an exact-out trade) or BNB for gas. Null while it cannot be told yet or nothing is short.
 */
function shortOf(
  balances: Balances | null,
  token: TokenInfo,
  side: Side,
  payWei: bigint | null,
  gasWei: bigint,
): string | null {
  if (!balances || payWei === null) return null;
  const bnb = BigInt(balances.bnbWei);
  if (side === 'sell') {
    if (payWei > BigInt(balances.token.wei)) return token.symbol;
    return bnb < gasWei ? 'BNB' : null;
  }
  if (balances.pair.native) return payWei + gasWei > bnb ? 'BNB' : null;
  if (payWei > BigInt(balances.pair.wei)) return balances.pair.symbol;
  return bnb < gasWei ? 'BNB' : null;
}

/**
 * Buy or sell the token: the amount with the wallet's balance beside it and quick amounts, a live quote with its
 * dollar values and price-impact tier, the network fee, and the button that builds the trade for the signer's wallet
 * and takes it through the review screen. A referral link's referrer goes into the build. The button says what the
 * wallet lacks before anything is built, and a trade over 15% impact needs its own confirm.
 */
export function TokenTradePanel({
  token,
  referrer,
  onTraded,
}: {
  token: TokenInfo;
  referrer: Address | null;
  onTraded: () => void;
}) {
  const ids = useId();
  const queryClient = useQueryClient();
  const settings = useSettingsStore((s) => s.state);
  const limits = settings.status === 'ready' ? settings.settings.limits : FALLBACK_LIMITS;
  const wbnb = settings.status === 'ready' ? settings.settings.contracts.wbnb : null;
  const wallet = useWallet(activeAddress);
  const walletStatus = useWallet((s) => s.status);
  const available = useWallet((s) => s.available);
  const { usdPerUnit } = useDollars();
  const { tokenUsd, pairUsd } = useTokenUsd(token.address, token.quote);
  const [side, setSide] = useState<Side>('buy');
  const [exact, setExact] = useState<Exact>('in');
  const [amount, setAmount] = useState('');
  /** Null until the person types one: the settings' default is shown meanwhile. */
  const [slippage, setSlippage] = useState<string | null>(null);
  const [impactAccepted, setImpactAccepted] = useState(false);
  const [progress, setProgress] = useState<ActionProgress | null>(null);
  const [busy, setBusy] = useState(false);
  const [nonce, setNonce] = useState(0);

  const balancesQuery = useQuery({
    queryKey: ['token', token.address, 'balances', wallet],
    queryFn: () => fetchBalances(wallet as Address, token.address),
    enabled: wallet !== null,
  });
  const balances = balancesQuery.data ?? null;

  const slippageText = slippage ?? String(limits.defaultSlippageBps / 100);
  const slippageBps = slippageBpsOf(slippageText, limits.maxSlippageBps);
  const typed = amount.trim();
  const quote = useTokenQuote(token.address, side, exact, typed === '' ? null : typed, slippageBps, nonce);
  const pairSide = (side === 'buy') === (exact === 'in');
  const unit = pairSide ? token.quote.symbol : token.symbol;

  // What the wallet pays: the typed amount when it is the paid side, else the quote's ceiling once it is in.
  const paysTyped = exact === 'in';
  const fresh = quote.quote && !quote.loading ? quote.quote : null;
  const payWei = paysTyped
    ? weiOf(typed, side === 'buy' ? token.quote.decimals : token.decimals)
    : fresh
      ? BigInt(fresh.limit.wei)
      : null;

  const ask: TradeAsk | null =
    typed !== '' && slippageBps !== null ? { token: token.address, side, amount: typed, exact, slippageBps } : null;
  const shortBeforeBuild = shortOf(balances, token, side, payWei, GAS_RESERVE_WEI);
  // Built ahead only to show the fee and the confirmations: never for a trade the wallet cannot pay.
  const preview = useTradePreview(
    ask && fresh && shortBeforeBuild === null && quote.error === null ? ask : null,
    wallet,
    referrer,
  );
  const short = shortBeforeBuild ?? (preview.error?.code === 'INSUFFICIENT_BALANCE' ? 'BNB' : null);

  const tier = fresh ? impactTier(fresh.priceImpactPct) : 'low';
  const needsImpactConfirm = tier === 'high' && !impactAccepted;
  const ready =
    wallet !== null &&
    !busy &&
    ask !== null &&
    quote.error === null &&
    fresh !== null &&
    short === null &&
    !needsImpactConfirm;

  function edit(next: { side?: Side; exact?: Exact; amount?: string }) {
    if (next.side !== undefined) setSide(next.side);
    if (next.exact !== undefined) setExact(next.exact);
    if (next.amount !== undefined) setAmount(next.amount);
    setImpactAccepted(false);
  }

  async function submit() {
    if (!ask) return;
    setBusy(true);
    const { progress: final } = await sendBuild({
      title: titleOf(ask, token),
      request: { kind: side, token: token.address, amount: ask.amount, exact, slippageBps: ask.slippageBps, referrer },
      build: (signer) => buildTrade(signer, ask, referrer),
      onProgress: setProgress,
    });
    setBusy(false);
    if (final.stage === 'done') {
      // Settled: a fresh form, and everything read about the token (balances, market, quote) read again.
      setAmount('');
      setImpactAccepted(false);
      setNonce((n) => n + 1);
      void queryClient.invalidateQueries({ queryKey: ['token', token.address] });
      onTraded();
    }
  }

  const buyPresets = token.quoteIsBnb ? BNB_PRESETS : USD_PRESETS;
  // A dollar stablecoin's presets read as dollars.
  const dollarPair = !token.quoteIsBnb && pairUsd === 1;
  const balanceShown =
    balances === null
      ? null
      : side === 'sell'
        ? { wei: balances.token.wei, decimals: balances.token.decimals, symbol: balances.token.symbol, usd: tokenUsd }
        : { wei: balances.pair.wei, decimals: balances.pair.decimals, symbol: balances.pair.symbol, usd: pairUsd };

  const locked = wallet === null && walletStatus?.localKey !== undefined && walletStatus?.localKey?.unlocked === false;
  const verb = side === 'buy' ? 'Buy' : 'Sell';
  const buttonText = short
    ? `Insufficient ${short}`
    : tier === 'high' && fresh
      ? `${verb} anyway at −${formatPct(fresh.priceImpactPct)} impact`
      : `${verb} ${token.symbol}`;
  const firstTimeSteps = preview.steps.length;

  return (
    <Card title="Trade" testId="trade-panel">
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (ready) void submit();
        }}
      >
        <Segmented
          label="Buy or sell"
          className="w-full [&>button]:flex-1 [&>button]:py-1.5"
          value={side}
          onChange={(value) => edit({ side: value })}
          options={[
            { value: 'buy', label: 'Buy', testId: 'trade-side-buy' },
            { value: 'sell', label: 'Sell', testId: 'trade-side-sell' },
          ]}
        />
        <div className="flex flex-col gap-1.5">
          <div className="flex items-center justify-between gap-2">
            <Segmented
              label="Which side is exact"
              size="sm"
              value={exact}
              onChange={(value) => edit({ exact: value })}
              options={[
                {
                  value: 'in',
                  label: side === 'buy' ? 'Amount to pay' : 'Amount to sell',
                  testId: 'trade-exact-in',
                },
                {
                  value: 'out',
                  label: side === 'buy' ? 'Amount to get' : 'Amount to receive',
                  testId: 'trade-exact-out',
                },
              ]}
            />
            {balanceShown && (
              <span className="text-xs text-muted" data-testid="trade-balance">
                Balance{' '}
                <Amount
                  wei={balanceShown.wei}
                  decimals={balanceShown.decimals}
                  symbol={balanceShown.symbol}
                  significant={5}
                  round="down"
                  className="text-fg"
                />
              </span>
            )}
          </div>
          <label htmlFor={`${ids}-amount`} className="sr-only">
            Amount in {unit}
          </label>
          <div
            className={cn(
              'flex items-center gap-2 rounded-lg border bg-surface px-3 focus-within:border-primary',
              short ? 'border-down' : 'border-line-strong',
            )}
          >
            <input
              id={`${ids}-amount`}
              inputMode="decimal"
              autoComplete="off"
              placeholder="0.0"
              value={amount}
              onChange={(event) => edit({ amount: event.target.value })}
              data-testid="trade-amount"
              aria-invalid={short !== null}
              className="min-w-0 flex-1 border-0 bg-transparent px-0 py-2 text-lg font-semibold tabular shadow-none outline-none focus:ring-0"
            />
            <span data-testid="trade-amount-unit" className="shrink-0 font-semibold text-muted">
              {unit}
            </span>
          </div>
          <div className="flex flex-wrap gap-1.5">
            {side === 'buy'
              ? buyPresets.map((preset) => (
                  <Button
                    key={preset}
                    size="sm"
                    variant="secondary"
                    testId={`trade-preset-${preset}`}
                    onClick={() => edit({ exact: 'in', amount: preset })}
                  >
                    {dollarPair ? `$${preset}` : `${preset} ${token.quote.symbol}`}
                  </Button>
                ))
              : SELL_SHARES.map((share) => (
                  <Button
                    key={share}
                    size="sm"
                    variant="secondary"
                    testId={`trade-share-${share}`}
                    disabled={!balances || BigInt(balances.token.wei) === 0n}
                    onClick={() => {
                      if (!balances) return;
                      const wei = (BigInt(balances.token.wei) * BigInt(share)) / 100n;
                      edit({ exact: 'in', amount: formatUnits(wei, balances.token.decimals) });
                    }}
                  >
                    {share === 100 ? 'Max' : `${share}%`}
                  </Button>
                ))}
          </div>
        </div>

        <div className="flex items-center justify-between gap-2 text-sm">
          <label htmlFor={`${ids}-slippage`} className="text-muted">
            Slippage tolerance
          </label>
          <span className="inline-flex items-center gap-1">
            <input
              id={`${ids}-slippage`}
              className="w-16 text-right tabular"
              inputMode="decimal"
              value={slippageText}
              onChange={(event) => setSlippage(event.target.value)}
              aria-invalid={slippageBps === null}
              data-testid="trade-slippage"
            />
            <span className="text-muted">%</span>
          </span>
        </div>
        {slippageBps === null && (
          <p className="text-xs text-down" role="alert" data-testid="trade-slippage-error" data-code="INVALID_SLIPPAGE">
            Slippage must be from 0.01% to {limits.maxSlippageBps / 100}%, with two decimal places at most.
          </p>
        )}

        <TokenQuoteView
          state={quote}
          token={token}
          tokenUsd={tokenUsd}
          pairUsd={pairUsd}
          networkFee={
            wallet && fresh
              ? { wei: preview.networkFeeWei, usdPerBnb: wbnb ? usdPerUnit(wbnb) : null, loading: preview.loading }
              : null
          }
        />

        {fresh && tier === 'warn' && (
          <p className="rounded-lg bg-warn-soft px-3 py-2 text-sm text-warn" data-testid="trade-impact-warning">
            This trade moves the price {formatPct(fresh.priceImpactPct)}: you get noticeably less than the market price.
          </p>
        )}
        {fresh && tier === 'high' && (
          <label
            className="flex items-start gap-2 rounded-lg bg-down-soft px-3 py-2 text-sm text-down"
            data-testid="trade-impact-high"
          >
            <input
              type="checkbox"
              className="mt-0.5"
              checked={impactAccepted}
              onChange={(event) => setImpactAccepted(event.target.checked)}
              data-testid="trade-impact-confirm"
            />
            <span>
              <strong>Price impact {formatPct(fresh.priceImpactPct)}.</strong> You would get far less than the market
              price. Tick to {side} anyway.
            </span>
          </label>
        )}
        {preview.error && preview.error.code !== 'INSUFFICIENT_BALANCE' && (
          <p className="text-xs text-down" data-testid="trade-preview-error" data-code={preview.error.code}>
            {preview.error.message}
          </p>
        )}
        {short && preview.error?.code === 'INSUFFICIENT_BALANCE' && (
          <p className="text-xs text-down">{preview.error.message}</p>
        )}
        {firstTimeSteps > 0 && fresh && (
          <p className="text-xs text-muted" data-testid="trade-confirmations" data-count={firstTimeSteps + 1}>
            Your first {side === 'buy' ? 'buy with' : 'sell of'} {side === 'buy' ? token.quote.symbol : token.symbol}{' '}
            takes {confirmationsText(firstTimeSteps, side)}. {approvalsNote(preview.steps.map((step) => step.step))}
          </p>
        )}
        {referrer && (
          <p className="text-xs text-muted" data-testid="trade-referrer" data-address={referrer}>
            Referred by <code title={referrer}>{shortAddress(referrer)}</code>: they get part of the site fee.
          </p>
        )}

        {wallet !== null && (
          <Button
            type="submit"
            size="lg"
            variant={side === 'buy' ? 'up' : 'down'}
            disabled={!ready}
            testId="trade-submit"
            data-side={side}
            data-short={short ?? undefined}
            className="w-full"
          >
            {buttonText}
          </Button>
        )}
      </form>
      {/* Outside the form: the unlock is a form of its own, and forms do not nest. */}
      {wallet === null &&
        (locked ? (
          <div className="mt-3">
            <UnlockInline />
          </div>
        ) : (
          <p className="mt-3 text-sm text-muted" data-testid="trade-no-signer">
            {available ? (
              <>
                Set up a signer in <Link to="/settings">Settings</Link> to trade.
              </>
            ) : (
              <>
                Open the app with its token to trade (see <Link to="/settings">Settings</Link>).
              </>
            )}
          </p>
        ))}
      {progress && (
        <div className="mt-3">
          <ActionProgressView progress={progress} link={{ to: '/activity', label: 'See it in Activity' }} />
        </div>
      )}
    </Card>
  );
}
