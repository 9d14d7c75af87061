import type { Address } from 'viem';
import type { ActivityEntry } from '../../../src-main/store/activityStore';
import { failureOf } from '../failureOf';
import { reviewChallenge } from '../review/reviewMessage';
import { useReview } from '../review/reviewStore';
import { reviewTransaction } from '../review/reviewTransaction';
import { useSettingsStore } from '../store/settingsStore';
import { invoke } from './appChannel';
import { personalSignInjected, sendWithInjected, waitInjected } from './injectedWallet';
import { activeAddress, type SignerStatus, useWallet, type WalletFailure } from './walletStore';

/** A transaction as the API builds it. */
export interface UnsignedTxJson {
  chainId: number;
  to: string;
  data: string;
  value: string;
  gas?: string;
}

/** The parts of any build answer (trade, launch, claim) that sending needs. */
export interface BuildAnswer {
  requires: { step: string; explain: string; tx: UnsignedTxJson }[];
  tx: UnsignedTxJson;
  explain: string;
}

/** What the person asked for, which the review checks every transaction against. */
export type UserRequest =
  | { kind: 'buy' | 'sell'; token: Address; amount: string; exact: 'in' | 'out'; slippageBps: number }
  | { kind: 'launch'; name: string; symbol: string; firstBuy: string | null }
  | { kind: 'claim' };

export interface ActionProgress {
  stage: 'building' | 'reviewing' | 'signing' | 'confirming' | 'done' | 'rejected' | 'failed';
  /** The step under way: a requires step's name, or 'main'. */
  step: string;
  /** 1-based position among the transactions of the action, and how many there are so far. */
  index: number;
  total: number;
  hash?: string;
  error?: WalletFailure;
}

/**
 * Runs one action end to end: builds it for the signer's wallet, shows each approval step and then the main
 * transaction on the review screen, has main sign and send each, waits for its receipt, and builds again after the
 * steps (the main transaction's gas and simulation come only once the steps are in). Reports every stage.
 */
export async function sendBuild<B extends BuildAnswer>(action: {
  title: string;
  request: UserRequest;
  build: (wallet: Address) => Promise<B>;
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
    for (const [i, step] of steps.entries()) {
      const sent = await signAndSend(
        build,
        step.tx,
        step.step,
        step.explain,
        `Step ${i + 1} of ${total}: ${step.step}`,
        i + 1,
        total,
      );
      if (sent === 'rejected') return { progress, build };
      groupId ??= sent.groupId;
    }
    if (steps.length > 0) {
      report({ stage: 'building', step: 'main', index: total, total });
      build = await action.build(wallet);
    }
    const label =
      steps.length > 0 ? `Step ${total} of ${total}: the ${action.request.kind}` : `The ${action.request.kind}`;
    const sent = await signAndSend(build, build.tx, 'main', build.explain, label, total, total);
    if (sent === 'rejected') return { progress, build };
    return { progress: report({ stage: 'done' }), build };
  } catch (cause) {
    return { progress: report({ stage: 'failed', error: failureOf(cause) }), ...(build ? { build } : {}) };
  }

  async function signAndSend(
    answer: B,
    tx: UnsignedTxJson,
    step: string,
    title: string,
    stepLabel: string,
    index: number,
    total: number,
  ): Promise<{ groupId?: string } | 'rejected'> {
    report({ stage: 'reviewing', step, index, total, hash: undefined });
    const settings = useSettingsStore.getState().state;
    const item = reviewTransaction({
      settings: settings.status === 'ready' ? settings.settings : null,
      answer,
      tx,
      step,
      title,
      stepLabel,
      request: action.request,
      wallet: wallet as Address,
    });
    if (!(await useReview.getState().ask(item))) {
      report({
        stage: 'rejected',
        error: item.checks.every((c) => c.ok)
          ? { code: 'REJECTED', message: 'You rejected it on the review screen.' }
          : {
              code: 'CHECK_FAILED',
              message: item.checks
                .filter((c) => !c.ok)
                .map((c) => c.message)
                .join(' '),
            },
      });
      return 'rejected';
    }
    report({ stage: 'signing' });
    if (injected) {
      const hash = await sendWithInjected(tx, injected);
      report({ stage: 'confirming', hash });
      if ((await waitInjected(hash)) === 'reverted') throw new Error(`The ${step} transaction reverted on chain.`);
      return {};
    }
    const sent = await invoke<ActivityEntry>('tx.send', {
      tx,
      step,
      kind: step === 'main' ? action.request.kind : 'approve',
      // The activity list's line: the action's own title for the main transaction (a build's explain can be long).
      title: (step === 'main' ? action.title : title).slice(0, 200),
      ...(groupId ? { groupId } : {}),
    });
    groupId ??= sent.groupId;
    report({ stage: 'confirming', hash: sent.hash ?? undefined });
    const settled = await invoke<ActivityEntry>('tx.wait', { id: sent.id });
    if (settled.status !== 'confirmed') {
      throw new Error(
        settled.status === 'reverted'
          ? `The ${step === 'main' ? action.request.kind : step} transaction reverted on chain.`
          : `The ${step} transaction is not confirmed yet (${settled.status}); see Activity.`,
      );
    }
    return settled;
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

/** Shows a challenge message on the review screen, then has main sign it. Null when the person rejects it. */
export async function signWithReview(request: {
  kind: string;
  title: string;
  message: string;
}): Promise<{ address: Address; signature: `0x${string}` } | null> {
  const { injected } = useWallet.getState();
  const wallet = activeAddress(useWallet.getState());
  const settings = useSettingsStore.getState().state;
  if (!wallet || settings.status !== 'ready') throw new Error('Set up a signer in Settings first.');
  const item = reviewChallenge({
    title: request.title,
    message: request.message,
    wallet,
    chainId: settings.settings.chainId,
  });
  if (!(await useReview.getState().ask(item))) return null;
  if (injected) return { address: injected, signature: await personalSignInjected(request.message, injected) };
  return invoke('message.sign', { message: request.message, kind: request.kind, title: request.title });
}
