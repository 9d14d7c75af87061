import type { Account, Chain, Hash, PublicClient, TransactionReceipt, Transport, WalletClient } from 'viem';
import { CompanionError } from './companionError';
import type { components } from './schema';

export type UnsignedTx = components['schemas']['UnsignedTx'];
export type Step = components['schemas']['Step'];

/** What any build answer (buy, sell, launch, claim, a built prepared request) has that sending needs. */
export interface SendableBuild {
  /** The wallet the build is for; sendBuild refuses a wallet client of another account. */
  wallet?: string;
  requires: Step[];
  tx: UnsignedTx;
}

export interface SendBuildOptions<B extends SendableBuild> {
  /** Signs and sends: its account must be the build's wallet, its chain the build's chain. */
  walletClient: WalletClient<Transport, Chain | undefined, Account | undefined>;
  /** Waits for the receipts. */
  publicClient: PublicClient;
  /**
   * Builds the same request again. Called once the `requires` steps are mined, since the trade's gas and simulation
   * come only once they are in (`simulation.ran` is false and `tx.gas` absent while a step is needed). Without it
   * the first build's transaction is sent, its gas estimated by the wallet's node.
   */
  rebuild?: () => Promise<B>;
}

export interface SentBuild<B extends SendableBuild> {
  /** Each `requires` step sent, in order. */
  steps: { step: string; hash: Hash }[];
  /** The main transaction: its hash and successful receipt. */
  hash: Hash;
  receipt: TransactionReceipt;
  /** The build whose transaction was sent: the rebuilt one when there were steps and `rebuild` was given. */
  build: B;
}

/** Rebuilds after steps at most this often: a build that keeps asking for steps is sent as it is. */
const MAX_STEP_ROUNDS = 2;

/**
 * Sends a build the way the app does: every `requires` step in order, each waited for to a successful receipt, then
 * (rebuilt when steps were sent) the main transaction, waited for too. Throws a CompanionError: WRONG_WALLET,
 * WRONG_CHAIN, SEND_FAILED, or REVERTED with `detail: { step, hash, receipt }`.
 *
 * @example const { hash } = await sendBuild(build, { walletClient, publicClient, rebuild: () => companion.buildSell(body) });
 */
export async function sendBuild<B extends SendableBuild>(
  build: B,
  options: SendBuildOptions<B>,
): Promise<SentBuild<B>> {
  const { walletClient, publicClient, rebuild } = options;
  const account = walletClient.account;
  if (!account) {
    throw refused('WRONG_WALLET', 'The wallet client has no account to send from.', 'Create it with an account.');
  }
  if (build.wallet !== undefined && build.wallet.toLowerCase() !== account.address.toLowerCase()) {
    throw refused(
      'WRONG_WALLET',
      `The build is for ${build.wallet}, but the wallet client sends from ${account.address}.`,
      'Build for the wallet that sends, or send with its account.',
    );
  }
  const chainId = await walletClient.getChainId();
  if (chainId !== build.tx.chainId) {
    throw refused(
      'WRONG_CHAIN',
      `The build is for chain ${build.tx.chainId}, but the wallet client is on chain ${chainId}.`,
      "Point the wallet client at the service's chain (GET /settings: chainId).",
    );
  }

  const send = async (step: string, tx: UnsignedTx): Promise<{ hash: Hash; receipt: TransactionReceipt }> => {
    let hash: Hash;
    try {
      hash = await walletClient.sendTransaction({
        account,
        chain: walletClient.chain ?? null,
        to: tx.to as `0x${string}`,
        data: tx.data as `0x${string}`,
        value: BigInt(tx.value),
        ...(tx.gas === undefined ? {} : { gas: BigInt(tx.gas) }),
      });
    } catch (cause) {
      const message = (cause as { shortMessage?: string }).shortMessage ?? (cause as Error).message;
      throw new CompanionError(
        {
          status: null,
          code: 'SEND_FAILED',
          message: `Sending the ${step} transaction failed: ${message}`,
          retry: false,
        },
        { cause },
      );
    }
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') {
      throw new CompanionError({
        status: null,
        code: 'REVERTED',
        message: `The ${step} transaction ${hash} reverted on chain.`,
        fix: 'Build again and look at the simulation before sending.',
        detail: { step, hash, receipt },
        retry: false,
      });
    }
    return { hash, receipt };
  };

  const steps: SentBuild<B>['steps'] = [];
  let current = build;
  for (let round = 1; current.requires.length > 0; round++) {
    for (const step of current.requires) steps.push({ step: step.step, hash: (await send(step.step, step.tx)).hash });
    if (!rebuild || round >= MAX_STEP_ROUNDS) break;
    current = await rebuild();
  }
  const main = await send('main', current.tx);
  return { steps, ...main, build: current };
}

function refused(code: 'WRONG_WALLET' | 'WRONG_CHAIN', message: string, fix: string): CompanionError {
  return new CompanionError({ status: null, code, message, fix, retry: false });
}
