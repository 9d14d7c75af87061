import type { Address } from 'viem';
import type { ActivityEntry } from '../../../src-shared/appChannelTypes';
import type { PreparedTx, UnsignedTxJson } from '../../../src-shared/schema/unsignedTx';
import { dollarsNow } from '../api/dollars';
import { failureOf } from '../failureOf';
import type { LaunchFacts } from '../review/LaunchSummary';
import { reviewChallenge } from '../review/reviewMessage';
import { useReview } from '../review/reviewStore';
import { type Prepared, reviewTransaction } from '../review/reviewTransaction';
import { useSettingsStore } from '../store/settingsStore';
import { invoke } from './appChannel';
import { personalSignInjected, revertOfInjected, sendWithInjected, waitInjected } from './injectedWallet';
import { RevertedOnChain, type RevertedTx } from './revertedOnChain';
import { actionName, approvalName, type StepCurrency, stepLabel } from './stepNames';
import { activeAddress, type SignerStatus, useWallet, type WalletFailure } from './walletStore';

/** The parts of any build answer (trade, launch, claim) that sending needs. */
export interface BuildAnswer {
  requires: { step: string; explain: string; tx: UnsignedTxJson }[];
  tx: UnsignedTxJson;
  explain: string;
}

/**
 * What the person asked for, which the review checks every transaction against. A trade's `referrer` is the one the
 * person chose (a referral link they followed), null for none.
 */
export type UserRequest =
  | {
      kind: 'buy' | 'sell';
      token: Address;
      amount: string;
      exact: 'in' | 'out';
      slippageBps: number;
      referrer?: Address | null;
    }
  | { kind: 'launch'; name: string; symbol: string; firstBuy: string | null }
  | { kind: 'claim' }
  | { kind: 'collect'; token: Address };

export interface ActionProgress {
  stage: 'building' | 'reviewing' | 'signing' | 'confirming' | 'done' | 'rejected' | 'failed';
  /** The step under way: a requires step's name, or 'main'. */
  step: string;
  /** 1-based position among the transactions of the action, and how many there are so far. */
  index: number;
  total: number;
  hash?: string;
  error?: WalletFailure;
  /** Every transaction of the action by name, in order (approvals, then the action's own), once the build is in. */
  names?: string[];
  /** Set when the action stopped because one of its transactions was mined but reverted: which, and why as data. */
  reverted?: RevertedTx;
}

/**
 * The currency an action's approvals let go of, when the build says: a trade's pay side (a launched token has 18
 * decimals), a launch's pair.
 */
function stepCurrencyOf(answer: BuildAnswer): StepCurrency | null {
  const build = answer as Partial<{
    side: string;
    pay: { symbol: string };
    token: { pair?: { symbol: string; decimals: number } };
    pair: { symbol: string; decimals: number };
  }>;
  if (build.side === 'sell' && build.pay) return { symbol: build.pay.symbol, decimals: 18 };
  if (build.side === 'buy' && build.token?.pair) return build.token.pair;
  return build.pair ?? null;
}

/**
 * Runs one action end to end: builds it for the signer's wallet, shows each approval step and then the main
 * transaction on the review screen, has main sign and send each, waits for its receipt, and builds again after the
 * steps (the main transaction's gas and simulation come only once the steps are in). Reports every stage.
 */
export async function sendBuild<B extends BuildAnswer>(action: {
  title: string;
  request: UserRequest;
  /**
   * Who asked, when it was not the person on this page (a bot's prepared request): the request's referrer and
   * slippage are then not the person's choice, and the review says who asked.
   */
  askedBy?: string;
  build: (wallet: Address) => Promise<B>;
  /** For a launch: the build answer in a trader's terms, shown on the review of the main transaction. */
  launch?: (answer: B) => LaunchFacts;
  onProgress: (progress: ActionProgress) => void;
}): Promise<{ progress: ActionProgress; build?: B }> {
  const { onProgress } = action;
  let progress: ActionProgress = { stage: 'building', step: 'main', index: 1, total: 1 };
  const report = (next: Partial<ActionProgress>) => {
    progress = { ...progress, ...next };
    onProgress(progress);
    return progress;
  };
  report({});
  const { injected } = useWallet.getState();
  const wallet = activeAddress(useWallet.getState());
  if (!wallet) {
    return {
      progress: report({
        stage: 'failed',
        error: {
          code: 'NO_SIGNER',
          message: 'No signer is set up.',
          fix: 'Import a local key or connect a Ledger in Settings.',
        },
      }),
    };
  }
  let groupId: string | undefined;
  let build: B | undefined;
  try {
    if (!injected && useWallet.getState().status?.active === 'ledger' && !(await ledgerBlindSigningOn())) {
      return { progress: report({ stage: 'failed', error: BLIND_SIGNING_OFF }) };
    }
    build = await action.build(wallet);
    const steps = build.requires;
    const total = steps.length + 1;
    const currency = stepCurrencyOf(build);
    const names = [
      ...steps.map((step) => approvalName(step.step, step.tx.data, currency)),
      actionName(action.request.kind),
    ];
    report({ names });
    for (const [i, step] of steps.entries()) {
      const sent = await signAndSend(build, step.tx, i, step.step, stepLabel(i + 1, total, names[i] as string), total);
      if (sent === 'rejected') return { progress, build };
      groupId ??= sent.groupId;
    }
    if (steps.length > 0) {
      report({ stage: 'building', step: 'main', index: total, total });
      build = await action.build(wallet);
    }
    const label = stepLabel(total, total, actionName(action.request.kind));
    const sent = await signAndSend(build, build.tx, null, 'main', label, total);
    if (sent === 'rejected') return { progress, build };
    return { progress: report({ stage: 'done' }), build };
  } catch (cause) {
    const failed: Partial<ActionProgress> =
      cause instanceof RevertedOnChain
        ? { stage: 'failed', error: { code: 'REVERTED', message: cause.message }, reverted: cause.reverted }
        : { stage: 'failed', error: failureOf(cause) };
    return { progress: report(failed), ...(build ? { build } : {}) };
  }

  /** Prepares, reviews, signs and sends one transaction: the step at `position`, or the main one (null). */
  async function signAndSend(
    answer: B,
    tx: UnsignedTxJson,
    position: number | null,
    step: string,
    stepLabel: string,
    total: number,
  ): Promise<{ groupId?: string } | 'rejected'> {
    const index = position === null ? total : position + 1;
    report({ stage: 'reviewing', step, index, total, hash: undefined });
    const settings = useSettingsStore.getState().state;
    const loaded = settings.status === 'ready' ? settings.settings : null;
    const defaultSlippageBps = loaded?.limits.defaultSlippageBps ?? 50;
    const { request } = action;
    const trade = request.kind === 'buy' || request.kind === 'sell' ? request : null;
    // A bot's request chose its referrer and slippage itself: the person's are none and the app's default.
    const choice = {
      signer: wallet as Address,
      referrer: action.askedBy ? null : (trade?.referrer ?? null),
      slippageBps: action.askedBy || !trade ? defaultSlippageBps : trade.slippageBps,
    };
    const prepared = injected ? null : await prepare(tx);
    const usdPerUnit = await dollarsNow();
    const item = reviewTransaction({
      usdPerUnit,
      settings: loaded,
      answer,
      tx,
      step: position,
      stepLabel,
      request,
      wallet: wallet as Address,
      choice,
      prepared,
      ...(action.askedBy ? { askedBy: action.askedBy } : {}),
    });
    if (position === null && action.launch) item.launch = action.launch(answer);
    if (!(await useReview.getState().ask(item))) {
      const failed = item.checks.filter((c) => !c.ok);
      report({
        stage: 'rejected',
        error:
          failed.length === 0
            ? { code: 'REJECTED', message: 'You rejected it on the review screen.' }
            : { code: 'CHECK_FAILED', message: failed.map((c) => c.message).join(' ') },
      });
      return 'rejected';
    }
    report({ stage: 'signing' });
    const what = step === 'main' ? action.request.kind : step;
    if (injected) {
      const hash = await sendWithInjected(tx, injected);
      report({ stage: 'confirming', hash });
      const receipt = await waitInjected(hash);
      if (receipt.status === 'reverted') {
        const name = await revertOfInjected(tx, injected, receipt.blockNumber);
        throw new RevertedOnChain(`The ${what} transaction reverted on chain${name ? ` (${name})` : ''}.`, {
          step,
          name,
          feeWei: receipt.feeWei,
        });
      }
      return {};
    }
    const sent = await invoke<ActivityEntry>('tx.send', {
      tx,
      // Signed exactly as prepared and shown (nonce, fees, gas): the hash on the screen is the device's. Main's own
      // warnings were among those the person ticked to get here: headless, that is the confirmation main takes.
      ...(prepared?.ok
        ? { prepared: prepared.id, confirmedWarnings: prepared.warnings.map((warning) => warning.id) }
        : {}),
      step,
      kind: step === 'main' ? action.request.kind : 'approve',
      // The activity list's line: the action's title for the main transaction, the decoded headline for a step.
      title: (step === 'main' ? action.title : item.title).slice(0, 200),
      ...(groupId ? { groupId } : {}),
    });
    groupId ??= sent.groupId;
    report({ stage: 'confirming', hash: sent.hash ?? undefined });
    const settled = await invoke<ActivityEntry>('tx.wait', { id: sent.id });
    if (settled.status === 'reverted') {
      throw new RevertedOnChain(settled.error ?? `The ${what} transaction reverted on chain.`, {
        step,
        name: settled.revert,
        feeWei: settled.feeWei,
      });
    }
    if (settled.status !== 'confirmed') {
      throw new Error(`The ${step} transaction is not confirmed yet (${settled.status}); see Activity.`);
    }
    return settled;
  }
}

/**
 * Has main fill the transaction for signing (nonce, fees, gas) after its own guard, so the review shows exactly what
 * the signer signs; a refusal is shown on the review as a failed check rather than skipping the review.
 */
/** The Ledger that will sign, with the model it last said it is; null when another signer signs. */
const ledgerOf = (status: SignerStatus | null | undefined) =>
  status?.active === 'ledger' ? { model: status.ledgerApp?.model ?? null } : null;

async function prepare(tx: UnsignedTxJson): Promise<Prepared> {
  try {
    const prepared = await invoke<{
      id: string;
      wallet: Address;
      tx: PreparedTx;
      warnings: { id: string; message: string }[];
      confirmation: 'native-dialog' | 'page' | 'refused';
    }>('tx.prepare', { tx });
    return {
      ok: true,
      id: prepared.id,
      wallet: prepared.wallet,
      tx: prepared.tx,
      ledger: ledgerOf(useWallet.getState().status),
      warnings: prepared.warnings,
      confirmation: prepared.confirmation,
    };
  } catch (cause) {
    const failure = failureOf(cause);
    return { ok: false, message: `${failure.message}${failure.fix ? ` ${failure.fix}` : ''}` };
  }
}

const BLIND_SIGNING_OFF: WalletFailure = {
  code: 'LEDGER_BLIND_SIGNING_DISABLED',
  message: "Blind signing is off in the Ledger's Ethereum app, so it would refuse these transactions.",
  fix: 'Turn it on as shown below, then try again.',
};

/**
 * Asks the Ledger whether blind signing is on before anything is built or reviewed: every action here is a contract
 * call, which the Ethereum app refuses with it off. The answer also refreshes the Settings' view of the device.
 */
async function ledgerBlindSigningOn(): Promise<boolean> {
  const status = await invoke<SignerStatus>('ledger.configuration');
  useWallet.setState({ status });
  return status.ledgerApp?.blindSigning === true;
}

/** Shows a message on the review screen, then has main sign it. Null when the person rejects it. */
export async function signWithReview(request: {
  kind: string;
  title: string;
  message: string;
}): Promise<{ address: Address; signature: `0x${string}` } | null> {
  const { injected, status } = useWallet.getState();
  const wallet = activeAddress(useWallet.getState());
  const settings = useSettingsStore.getState().state;
  if (!wallet || settings.status !== 'ready') throw new Error('Set up a signer in Settings first.');
  const item = reviewChallenge({
    message: request.message,
    wallet,
    chainId: settings.settings.chainId,
    ledger: !injected && status?.active === 'ledger',
    ...(injected ? {} : { confirmation: useWallet.getState().info?.signingConfirmation ?? 'refused' }),
  });
  if (!(await useReview.getState().ask(item))) return null;
  if (injected) return { address: injected, signature: await personalSignInjected(request.message, injected) };
  // Reaching here with a warning means the person ticked it: an unknown message they confirmed shown in full.
  const confirmedUnknown = item.warnings.some((warning) => warning.id === 'unknown-message');
  return invoke('message.sign', {
    message: request.message,
    kind: request.kind,
    title: request.title,
    ...(confirmedUnknown ? { confirmedUnknown } : {}),
  });
}
