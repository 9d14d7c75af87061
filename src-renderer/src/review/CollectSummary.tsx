import type { Address } from 'viem';
import { shortAddress } from '../format';
import { Amount } from '../ui/Amount';
import type { FlowAmount } from './moneyFlow';

/**
 * Who gains what by a collect, as the build's simulation says (only the chain can decide it, so the review says whose
 * word it is): the royalty and to whom, the tokens burned, and what stays pending for a later buy-back.
 */
export interface CollectFacts {
  /** True when every figure is from the collect sent on a copy of the chain. */
  simulated: boolean;
  recipient: Address;
  recipientIsSigner: boolean;
  royalty: FlowAmount[];
  burned: FlowAmount;
  /** Null when not simulated: the buy-back's result is then unknown, and `budget` is what it may spend. */
  pendingAfter: FlowAmount | null;
  budget: FlowAmount;
}

/** Reads a POST /build/collect answer's outcome into amounts with their dollars; null for any other answer. */
export function collectFactsOf(
  answer: unknown,
  signer: Address,
  usdPerUnit: (address: Address) => number | null,
): CollectFacts | null {
  const a = answer as {
    recipient?: Address;
    token?: { address: Address; decimals: number; pair?: { address: Address; decimals: number } };
    outcome?: {
      simulated: boolean;
      royalty: { pair: { wei: string; symbol: string }; tokens: { wei: string; symbol: string } };
      burned: { wei: string; symbol: string };
      buyback: { budget: { wei: string; symbol: string }; pendingAfter: { wei: string; symbol: string } | null };
    };
  };
  const { recipient, token, outcome } = a;
  if (!recipient || !token?.pair || !outcome) return null;
  const pair = token.pair;
  const inPair = (v: { wei: string; symbol: string }): FlowAmount => ({
    wei: BigInt(v.wei),
    decimals: pair.decimals,
    symbol: v.symbol,
    usdPerUnit: usdPerUnit(pair.address),
  });
  const inTokens = (v: { wei: string; symbol: string }): FlowAmount => ({
    wei: BigInt(v.wei),
    decimals: token.decimals,
    symbol: v.symbol,
    usdPerUnit: usdPerUnit(token.address),
  });
  return {
    simulated: outcome.simulated,
    recipient,
    recipientIsSigner: recipient.toLowerCase() === signer.toLowerCase(),
    royalty: [inPair(outcome.royalty.pair), inTokens(outcome.royalty.tokens)],
    burned: inTokens(outcome.burned),
    pendingAfter: outcome.buyback.pendingAfter ? inPair(outcome.buyback.pendingAfter) : null,
    budget: inPair(outcome.buyback.budget),
  };
}

export function CollectSummary({ facts }: { facts: CollectFacts }) {
  const row = 'flex items-baseline justify-between gap-4 px-4 py-2';
  return (
    <div className="flex flex-col gap-1.5" data-testid="review-collect">
      <p className="text-xs text-muted">
        {facts.simulated
          ? 'What the build’s simulation (the collect sent on a copy of the chain) says it does:'
          : 'What the build says from the positions’ fees (the buy-back was not simulated):'}
      </p>
      <dl className="divide-y divide-line rounded-xl border border-line text-sm">
        <div className={row} data-testid="review-collect-royalty" data-recipient={facts.recipient}>
          <dt className="text-muted">
            Royalty to{' '}
            {facts.recipientIsSigner ? (
              <strong className="text-fg">you</strong>
            ) : (
              <code title={facts.recipient}>{shortAddress(facts.recipient)}</code>
            )}
          </dt>
          <dd className="flex flex-col items-end gap-0.5 text-right font-semibold">
            {facts.royalty.map((amount) => (
              <Amount key={amount.symbol} {...amount} significant={5} />
            ))}
          </dd>
        </div>
        <div className={row} data-testid="review-collect-burned">
          <dt className="text-muted">Bought back and burned</dt>
          <dd className="text-right">
            {facts.pendingAfter === null && <span className="text-muted">at least </span>}
            <Amount {...facts.burned} significant={5} />
          </dd>
        </div>
        <div className={row} data-testid="review-collect-pending">
          <dt className="text-muted">
            {facts.pendingAfter ? 'Stays pending for a later buy-back' : 'Buy-back spends'}
          </dt>
          <dd className="text-right">
            {facts.pendingAfter === null && <span className="text-muted">up to </span>}
            <Amount {...(facts.pendingAfter ?? facts.budget)} significant={5} />
          </dd>
        </div>
      </dl>
    </div>
  );
}
