import { useState } from 'react';
import type { Address } from 'viem';
import { buildTrade, type Exact, type Side, type TokenInfo, type TradeAsk } from '../api/tokens';
import { shortAddress } from '../format';
import { Link } from '../router/Link';
import { useSettingsStore } from '../store/settingsStore';
import { type ActionProgress, sendBuild } from '../wallet/sendBuild';
import { activeAddress, useWallet } from '../wallet/walletStore';
import { ActionProgressView } from './ActionProgressView';
import { useTokenQuote } from './TokenQuoteLoader';
import { TokenQuoteView } from './TokenQuoteView';

/** The spec's defaults, used until the settings are in. */
const FALLBACK_LIMITS = { defaultSlippageBps: 50, maxSlippageBps: 5000 };

/** A slippage typed in per cent ("0.5") as basis points; null unless it is 0.01% to `maxBps` with two places at most. */
function slippageBpsOf(text: string, maxBps: number): number | null {
  const match = /^(\d{1,5})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const bps = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return bps >= 1 && bps <= maxBps ? bps : null;
}

/** One sentence naming the trade: "Buy MCAT with 0.1 BNB", "Sell 500 MCAT". */
function titleOf(ask: TradeAsk, token: TokenInfo): string {
  const pairSide = (ask.side === 'buy') === (ask.exact === 'in');
  const verb = ask.side === 'buy' ? 'Buy' : 'Sell';
  if (!pairSide) return `${verb} ${ask.amount} ${token.symbol}`;
  return `${verb} ${token.symbol} ${ask.side === 'buy' ? 'with' : 'for'} ${ask.amount} ${token.quote.symbol}`;
}

function Toggle<T extends string>({
  value,
  options,
  onChange,
  testId,
  label,
}: {
  value: T;
  options: { value: T; label: string }[];
  onChange: (value: T) => void;
  testId: string;
  label: string;
}) {
  return (
    <fieldset className="segmented">
      <legend className="tk-visually-hidden">{label}</legend>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          className={option.value === value ? 'segmented-on' : undefined}
          data-testid={`${testId}-${option.value}`}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </fieldset>
  );
}

/**
 * Buy or sell the token: the amount of either side, a slippage, a live quote, and the button that builds the trade
 * for the signer's wallet and takes it through the review screen. A referral link's referrer goes into the build.
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
  const settings = useSettingsStore((s) => s.state);
  const limits = settings.status === 'ready' ? settings.settings.limits : FALLBACK_LIMITS;
  const wallet = useWallet(activeAddress);
  const [side, setSide] = useState<Side>('buy');
  const [exact, setExact] = useState<Exact>('in');
  const [amount, setAmount] = useState('');
  /** Null until the person types one: the settings' default is shown meanwhile. */
  const [slippage, setSlippage] = useState<string | null>(null);
  const [progress, setProgress] = useState<ActionProgress | null>(null);
  const [busy, setBusy] = useState(false);
  const [nonce, setNonce] = useState(0);

  const slippageText = slippage ?? String(limits.defaultSlippageBps / 100);
  const slippageBps = slippageBpsOf(slippageText, limits.maxSlippageBps);
  const typed = amount.trim();
  const quote = useTokenQuote(token.address, side, exact, typed === '' ? null : typed, slippageBps, nonce);
  const unit = (side === 'buy') === (exact === 'in') ? token.quote.symbol : token.symbol;
  const ready = wallet !== null && !busy && typed !== '' && slippageBps !== null && quote.error === null;

  async function submit() {
    if (slippageBps === null || typed === '') return;
    const ask: TradeAsk = { token: token.address, side, amount: typed, exact, slippageBps };
    setBusy(true);
    const { progress: final } = await sendBuild({
      title: titleOf(ask, token),
      request: { kind: side, token: token.address, amount: typed, exact, slippageBps, referrer },
      build: (signer) => buildTrade(signer, ask, referrer),
      onProgress: setProgress,
    });
    setBusy(false);
    if (final.stage === 'done') {
      setNonce((n) => n + 1);
      onTraded();
    }
  }

  return (
    <section className="tk-trade panel" data-testid="trade-panel">
      <h3>Trade</h3>
      <form
        className="tk-trade-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (ready) void submit();
        }}
      >
        <div className="tk-toggles">
          <Toggle
            label="Side"
            testId="trade-side"
            value={side}
            onChange={setSide}
            options={[
              { value: 'buy', label: 'Buy' },
              { value: 'sell', label: 'Sell' },
            ]}
          />
          <Toggle
            label="Exact amount"
            testId="trade-exact"
            value={exact}
            onChange={setExact}
            options={[
              { value: 'in', label: side === 'buy' ? 'Amount to pay' : 'Amount to sell' },
              { value: 'out', label: side === 'buy' ? 'Amount to get' : 'Amount to receive' },
            ]}
          />
        </div>
        <p className="tk-field">
          <label>
            Amount{' '}
            <input
              inputMode="decimal"
              autoComplete="off"
              placeholder="0.0"
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              data-testid="trade-amount"
            />{' '}
            <span data-testid="trade-amount-unit">{unit}</span>
          </label>
        </p>
        <p className="tk-field">
          <label>
            Slippage{' '}
            <input
              className="tk-slippage"
              inputMode="decimal"
              value={slippageText}
              onChange={(event) => setSlippage(event.target.value)}
              aria-invalid={slippageBps === null}
              data-testid="trade-slippage"
            />{' '}
            %
          </label>
        </p>
        {slippageBps === null && (
          <p className="tk-quote-error" role="alert" data-testid="trade-slippage-error" data-code="INVALID_SLIPPAGE">
            Slippage must be from 0.01% to {limits.maxSlippageBps / 100}%, with two decimal places at most.
          </p>
        )}
        <TokenQuoteView state={quote} token={token} />
        {referrer && (
          <p className="muted" data-testid="trade-referrer" data-address={referrer}>
            Referred by <code title={referrer}>{shortAddress(referrer)}</code>: they get part of the site fee.
          </p>
        )}
        <p>
          <button type="submit" disabled={!ready} data-testid="trade-submit" data-side={side}>
            {side === 'buy' ? `Buy ${token.symbol}` : `Sell ${token.symbol}`}
          </button>
          {wallet === null && (
            <span className="muted" data-testid="trade-no-signer">
              {' '}
              Set up a signer in <Link to="/settings">Settings</Link> to trade.
            </span>
          )}
        </p>
      </form>
      <ActionProgressView progress={progress} />
    </section>
  );
}
