import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Address } from 'viem';
import { useDollars } from '../api/dollars';
import type { Exact, Side, TokenInfo, TradeAsk } from '../api/tokens';
import { useTokenUsd } from '../components/useTokenUsd';
import { useSettingsStore } from '../store/settingsStore';
import { useWalletBalances } from '../wallet/walletBalances';
import { activeAddress, useWallet } from '../wallet/walletStore';
import { GAS_RESERVE_WEI, shortOf } from './shortOf';
import { slippageRetyped, slippageTier } from './slippageRisk';
import { impactTier } from './TokenQuoteView';
import { slippageBpsOf, weiOf } from './tradeInput';
import { useTokenQuote } from './useTokenQuote';
import { useTradePreview } from './useTradePreview';
import { useTradeSubmit } from './useTradeSubmit';

/** The spec's defaults, used until the settings are in. */
const FALLBACK_LIMITS = { defaultSlippageBps: 50, maxSlippageBps: 5000 };

/** What changes the trade itself: a new side, exact side or amount asks for the impact confirm again. */
export interface TradeEdit {
  side?: Side;
  exact?: Exact;
  amount?: string;
}

/**
 * The trade panel's state: what is typed, the wallet's balances, the live quote, the trade built ahead for its fee
 * and approvals, what the wallet lacks, and whether the trade can be sent. A settled trade clears the amount and
 * reads everything about the token again.
 */
export function useTradePanel(token: TokenInfo, referrer: Address | null, onTraded: () => void) {
  const queryClient = useQueryClient();
  const settings = useSettingsStore((s) => s.state);
  const limits = settings.status === 'ready' ? settings.settings.limits : FALLBACK_LIMITS;
  const wbnb = settings.status === 'ready' ? settings.settings.contracts.wbnb : null;
  const wallet = useWallet(activeAddress);
  const { usdPerUnit } = useDollars();
  const { tokenUsd, pairUsd } = useTokenUsd(token.address, token.quote);
  const [side, setSide] = useState<Side>('buy');
  const [exact, setExact] = useState<Exact>('in');
  const [amount, setAmount] = useState('');
  /** Null until the person types one: the settings' default is shown meanwhile. */
  const [slippage, setSlippage] = useState<string | null>(null);
  /** The slippage typed a second time: a slippage over 20% goes on only once the two agree. */
  const [slippageRetype, setSlippageRetype] = useState('');
  const [impactAccepted, setImpactAccepted] = useState(false);
  const [nonce, setNonce] = useState(0);
  const sending = useTradeSubmit(token, referrer, () => {
    // Settled: a fresh form, and everything read about the token (balances, market, quote) read again.
    setAmount('');
    setImpactAccepted(false);
    setNonce((n) => n + 1);
    void queryClient.invalidateQueries({ queryKey: ['token', token.address] });
    onTraded();
  });

  // The balances the page's balances card shows: one query, and BNB from the one entry the header shows too.
  const { balances } = useWalletBalances(wallet, token.address);

  const slippageText = slippage ?? String(limits.defaultSlippageBps / 100);
  const slippageBps = slippageBpsOf(slippageText, limits.maxSlippageBps);
  const typed = amount.trim();
  const quote = useTokenQuote(token.address, side, exact, typed === '' ? null : typed, slippageBps, nonce);
  const pairSide = (side === 'buy') === (exact === 'in');

  // What the wallet pays: the typed amount when it is the paid side, else the quote's ceiling once it is in.
  const fresh = quote.quote && !quote.loading ? quote.quote : null;
  const payWei =
    exact === 'in'
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
  const slippageNeedsRetype =
    slippageTier(slippageBps) === 'retype' && !slippageRetyped(slippageRetype, slippageBps, limits.maxSlippageBps);
  const ready =
    wallet !== null &&
    !sending.busy &&
    ask !== null &&
    quote.error === null &&
    fresh !== null &&
    short === null &&
    !(tier === 'high' && !impactAccepted) &&
    !slippageNeedsRetype;

  return {
    wallet,
    side,
    exact,
    amount,
    /** The currency the typed amount is in. */
    unit: pairSide ? token.quote.symbol : token.symbol,
    balances,
    tokenUsd,
    pairUsd,
    slippageText,
    slippageBps,
    maxSlippageBps: limits.maxSlippageBps,
    slippageRetype,
    /** True while a slippage over 20% has not been typed again to match. */
    slippageNeedsRetype,
    quote,
    /** The quote for what is typed now; null while it is on its way. */
    fresh,
    tier,
    impactAccepted,
    preview,
    /** The whole action's gas at most and BNB's dollar price, once a wallet and a quote are in. */
    networkFee:
      wallet && fresh
        ? { wei: preview.networkFeeWei, usdPerBnb: wbnb ? usdPerUnit(wbnb) : null, loading: preview.loading }
        : null,
    /** The symbol the wallet lacks for this trade, or null. */
    short,
    ready,
    progress: sending.progress,
    edit(next: TradeEdit) {
      if (next.side !== undefined) setSide(next.side);
      if (next.exact !== undefined) setExact(next.exact);
      if (next.amount !== undefined) setAmount(next.amount);
      setImpactAccepted(false);
    },
    setSlippage(text: string) {
      // A new slippage is confirmed anew: the number typed again was for the one before.
      setSlippage(text);
      setSlippageRetype('');
    },
    setSlippageRetype,
    setImpactAccepted,
    submit() {
      if (ready && ask) void sending.submit(ask);
    },
  };
}
