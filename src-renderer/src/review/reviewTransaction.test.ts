import { maxUint256 } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  erc20ApproveTx,
  KNOWN,
  NOW,
  OTHER,
  permit2ApproveTx,
  REFERRER,
  sellBuild,
  TOKEN,
  WALLET,
} from '../../../src-shared/inspect/testVectors';
import { reviewTransaction } from './reviewTransaction';

const SETTINGS = {
  apiVersion: 1,
  chainId: KNOWN.chainId,
  contracts: { ...KNOWN },
  pairs: [],
  limits: { tradeDeadlineSeconds: 1200, permitDays: 30, defaultSlippageBps: 50 },
};

const request = { kind: 'sell' as const, token: TOKEN, amount: '1000', exact: 'in' as const, slippageBps: 50 };
const review = (answer: ReturnType<typeof sellBuild>, step: number | null, referrer: string | null = REFERRER) =>
  reviewTransaction({
    answer: answer as never,
    tx: (step === null ? answer.tx : answer.requires[step]?.tx) as never,
    step,
    stepLabel: 'x',
    request,
    wallet: WALLET,
    choice: { signer: WALLET, referrer: referrer as never, slippageBps: 50 },
    prepared: null,
    settings: SETTINGS,
    now: NOW * 1000,
  });

describe('the review of one transaction', () => {
  it('checks each step as the step at its position, even when two steps share a name', () => {
    const good = {
      step: 'approve-permit2',
      explain: 'Let Permit2 move your MCAT',
      tx: erc20ApproveTx(TOKEN, KNOWN.permit2),
    };
    // A second step under the same name approves a stranger: shown with the first one's checks, it looked green.
    const hostile = {
      step: 'approve-permit2',
      explain: 'Let Permit2 move your MCAT',
      tx: erc20ApproveTx(TOKEN, OTHER),
    };
    const answer = sellBuild([good, hostile]);
    expect(review(answer, 0).checks.filter((c) => !c.ok)).toEqual([]);
    const second = review(answer, 1);
    expect(second.checks.some((c) => !c.ok)).toBe(true);
    expect(second.title).toContain(OTHER);
    // A transaction given for a position that holds another is caught too.
    const swapped = reviewTransaction({
      ...{ answer: answer as never, stepLabel: 'x', request, wallet: WALLET, prepared: null, settings: SETTINGS },
      tx: hostile.tx as never,
      step: 0,
      choice: { signer: WALLET, referrer: REFERRER, slippageBps: 50 },
      now: NOW * 1000,
    });
    expect(swapped.checks.find((c) => c.id === 'tx-is-the-build')?.ok).toBe(false);
  });

  it("heads the call with what it decodes to, and warns of what goes against the person's interest", () => {
    const answer = sellBuild([
      {
        step: 'approve-permit2',
        explain: 'Let Permit2 move a little',
        tx: erc20ApproveTx(TOKEN, KNOWN.permit2, maxUint256),
      },
    ]);
    const approval = review(answer, 0);
    expect(approval.title).toBe(`Let Permit2 take any amount of your MCAT, with no end`);
    expect(approval.warnings.map((w) => w.id)).toEqual(['unlimited-approval']);
    const exact = review(
      sellBuild([{ step: 'approve-permit2', explain: 'x', tx: erc20ApproveTx(TOKEN, KNOWN.permit2, 10n ** 21n) }]),
      0,
    );
    expect(exact.warnings).toEqual([]);

    // A Permit2 approval that never ends (uint48's largest time, past any Date) is shown, not thrown on.
    const forever = review(
      sellBuild([{ step: 'approve-router', explain: 'x', tx: permit2ApproveTx(TOKEN, KNOWN.router, 2 ** 48 - 1) }]),
      0,
    );
    expect(forever.title).toContain('beyond any date');
    expect(forever.warnings.map((w) => w.id)).toEqual(['unlimited-approval']);

    const trade = review(answer, null);
    expect(trade.title).toBe('Sell MCAT: pays exactly 1,000 MCAT, receives at least 0.4975 BNB');
    expect(trade.warnings).toEqual([]);
    // The same trade, where the person chose no referrer: the cut to REFERRER is a warning to tick.
    expect(review(answer, null, null).warnings.map((w) => w.id)).toEqual(['referrer-not-chosen']);
    // A build allowing 5% where the person's own setting is 0.5%: a warning, whoever asked for it.
    const loose = review(sellBuild(answer.requires, 500), null);
    expect(loose.warnings.map((w) => w.id)).toEqual(['slippage-above-yours']);
    expect(loose.warnings[0]?.message).toContain('5%');
  });
});
