import { useState } from 'react';
import type { Address } from 'viem';
import { formatExact } from '../../../src-shared/format/numbers';
import { buildTrade, type TokenInfo, type TradeAsk } from '../api/tokens';
import { type ActionProgress, sendBuild } from '../wallet/sendBuild';
import { weiOf } from './tradeInput';

/** The typed amount as the title reads it: every digit (it is exact), with separators. */
function legibleAmount(amount: string, decimals: number): string {
  const wei = weiOf(amount, decimals);
  return wei === null ? amount : formatExact(wei, decimals);
}

/** One sentence naming the trade: "Buy MCAT with 0.1 BNB", "Sell 6,880,770 MCAT". */
function titleOf(ask: TradeAsk, token: TokenInfo): string {
  const pairSide = (ask.side === 'buy') === (ask.exact === 'in');
  const verb = ask.side === 'buy' ? 'Buy' : 'Sell';
  if (!pairSide) return `${verb} ${legibleAmount(ask.amount, token.decimals)} ${token.symbol}`;
  const paid = legibleAmount(ask.amount, token.quote.decimals);
  return `${verb} ${token.symbol} ${ask.side === 'buy' ? 'with' : 'for'} ${paid} ${token.quote.symbol}`;
}

export interface TradeSubmit {
  /** The action under way or last run, step by step; null before the first. */
  progress: ActionProgress | null;
  busy: boolean;
  submit(ask: TradeAsk): Promise<void>;
}

/**
 * The submit and sign flow: builds the trade for the signer's wallet when asked, takes every approval and then the
 * trade through the review screen and the signer (sendBuild), and calls `onDone` once it settled on chain. A referral
 * link's referrer goes into the build and into what the review checks.
 */
export function useTradeSubmit(token: TokenInfo, referrer: Address | null, onDone: () => void): TradeSubmit {
  const [progress, setProgress] = useState<ActionProgress | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(ask: TradeAsk) {
    setBusy(true);
    const { side: kind, amount, exact, slippageBps } = ask;
    const { progress: final } = await sendBuild({
      title: titleOf(ask, token),
      request: { kind, token: token.address, amount, exact, slippageBps, referrer },
      build: (signer) => buildTrade(signer, ask, referrer),
      onProgress: setProgress,
    });
    setBusy(false);
    if (final.stage === 'done') onDone();
  }

  return { progress, busy, submit };
}
