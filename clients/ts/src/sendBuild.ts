import type { Account, Chain, Hash, PublicClient, TransactionReceipt, Transport, WalletClient } from 'viem';
import { type AskedBuild, assertBuild } from './checkBuild';
import { CompanionError } from './companionError';
import type { Settings } from './getSettings';
import { isNonceTrouble, type NonceManager, sharedNonces } from './nonceManager';
import type { components } from './schema';
import { feesOf, recentFeeReads } from './sendFees';
import { sleep } from './sleep';

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
  /** Reads nonces, fees and receipts. */
  publicClient: PublicClient;
  /**
   * Builds the same request again. Called once the `requires` steps are mined, since the trade's gas and simulation
   * come only once they are in (`simulation.ran` is false and `tx.gas` absent while a step is needed). Without it
   * the first build's transaction is sent, its gas estimated by the wallet's node.
   */
  rebuild?: () => Promise<B>;
  /**
   * What was asked, and the service's GET /settings: the build, and each rebuild, is checked against them before
   * anything is signed (checkBuild), and refused with BUILD_MISMATCH naming the field that differs. The companion's
   * sendBuy, sendSell and sendLaunch always pass it.
   */
  expect?: { asked: AskedBuild; settings: Settings; keyReferrer?: string | null };
  /** Hands out the nonces (`sharedNonces`, one per process, by default). */
  nonces?: NonceManager;
  /** The tip per gas, in wei; never under BSC's 0.05 gwei floor (raised to it). The node's suggestion by default. */
  priorityFeeWei?: bigint;
  /** False: return once the main transaction is broadcast, without its receipt (steps are still waited for). */
  wait?: boolean;
  /** How often to ask for a receipt: the chain's block time (the companion's helpers read it from GET /status). */
  pollingIntervalMs?: number;
  /** Told of each transaction as soon as the node took it (`step` is `main` for the build's own), before its receipt. */
  onBroadcast?: (sent: { step: string; hash: Hash; nonce: number }) => void;
}

export interface SentBuild<B extends SendableBuild> {
  /** Each `requires` step sent, in order. */
  steps: { step: string; hash: Hash }[];
  /** The main transaction: its hash and successful receipt. */
  hash: Hash;
  receipt: TransactionReceipt;
  /** The build whose transaction was sent: the rebuilt one when there were steps and `rebuild` was given. */
  build: B;
  /** The nonce the main transaction was sent with. */
  nonce: number;
}

/** What `wait: false` returns: the main transaction is broadcast, its receipt not waited for. */
export type BroadcastBuild<B extends SendableBuild> = Omit<SentBuild<B>, 'receipt'> & { receipt: null };

/** Rebuilds after steps at most this often: a build that keeps asking for steps is sent as it is. */
const MAX_STEP_ROUNDS = 2;
/** Receipts are asked for this often when neither the caller nor the chain says its block time. */
const DEFAULT_POLLING_MS = 500;

/**
 * Sends a build the way the app does: every `requires` step in order, each waited for to a successful receipt, then
 * (rebuilt when steps were sent) the main transaction, waited for too unless `wait: false`. With `expect`, each build
 * is checked against what was asked before anything is signed. Nonces come from a NonceManager (concurrent sends from
 * one key do not collide), fees from the node with BSC's floor under the tip, read once a block for all the sends
 * through one public client (recentFeeReads). Throws a CompanionError: WRONG_WALLET,
 * WRONG_CHAIN, BUILD_MISMATCH, SEND_FAILED, NONCE_CONFLICT, or REVERTED with `detail: { step, hash, receipt }`.
 *
 * @example const { hash } = await sendBuild(build, { walletClient, publicClient, rebuild: () => companion.buildSell(body) });
 */
export async function sendBuild<B extends SendableBuild>(
  build: B,
  options: SendBuildOptions<B> & { wait: false },
): Promise<BroadcastBuild<B>>;
export async function sendBuild<B extends SendableBuild>(
  build: B,
  options: SendBuildOptions<B> & { wait?: true },
): Promise<SentBuild<B>>;
export async function sendBuild<B extends SendableBuild>(
  build: B,
  options: SendBuildOptions<B>,
): Promise<SentBuild<B> | BroadcastBuild<B>>;
export async function sendBuild<B extends SendableBuild>(
  build: B,
  options: SendBuildOptions<B>,
): Promise<SentBuild<B> | BroadcastBuild<B>> {
  const { walletClient, publicClient, rebuild, expect, nonces = sharedNonces } = options;
  const pollingInterval = options.pollingIntervalMs ?? DEFAULT_POLLING_MS;
  const account = walletClient.account;
  if (!account) {
    throw refused('WRONG_WALLET', 'The wallet client has no account to send from.', 'Create it with an account.');
  }
  const [chainId, reads] = await Promise.all([
    walletClient.chain?.id ?? walletClient.getChainId(),
    recentFeeReads(publicClient, pollingInterval),
  ]);
  const { latest } = reads;
  const fees = feesOf(reads, options.priorityFeeWei);
  // Deadlines are checked against the chain's clock where it runs ahead of this machine's (a devnet making blocks
  // faster than one a second), since that is the clock the contracts hold them to.
  const clockAhead = Math.max(0, Number(latest.timestamp) - Math.floor(Date.now() / 1000));
  const verify = (candidate: B) => {
    // What was asked first: a build that differs is refused naming the field, whatever else is wrong with it.
    if (expect) {
      assertBuild(candidate, expect.asked, {
        settings: expect.settings,
        signer: account.address,
        now: Math.floor(Date.now() / 1000) + clockAhead,
        ...(expect.keyReferrer === undefined ? {} : { keyReferrer: expect.keyReferrer }),
      });
    }
    if (candidate.wallet !== undefined && candidate.wallet.toLowerCase() !== account.address.toLowerCase()) {
      throw refused(
        'WRONG_WALLET',
        `The build is for ${candidate.wallet}, but the wallet client sends from ${account.address}.`,
        'Build for the wallet that sends, or send with its account.',
      );
    }
    if (chainId !== candidate.tx.chainId) {
      throw refused(
        'WRONG_CHAIN',
        `The build is for chain ${candidate.tx.chainId}, but the wallet client is on chain ${chainId}.`,
        "Point the wallet client at the service's chain (GET /settings: chainId).",
      );
    }
  };
  verify(build);

  const broadcast = async (step: string, tx: UnsignedTx): Promise<{ hash: Hash; nonce: number }> => {
    const sent = await signAndSend(step, tx);
    options.onBroadcast?.({ step, ...sent });
    return sent;
  };
  const signAndSend = (step: string, tx: UnsignedTx): Promise<{ hash: Hash; nonce: number }> =>
    nonces.send(
      chainId,
      account.address,
      () => publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' }),
      async (nonce) => {
        try {
          const hash = await walletClient.sendTransaction({
            account,
            chain: walletClient.chain ?? null,
            to: tx.to as `0x${string}`,
            data: tx.data as `0x${string}`,
            value: BigInt(tx.value),
            nonce,
            ...fees,
            ...(tx.gas === undefined ? {} : { gas: BigInt(tx.gas) }),
          });
          return { hash, nonce };
        } catch (cause) {
          // A nonce taken by another sender goes back to the manager, which signs again at the next one.
          if (isNonceTrouble(cause)) throw cause;
          const message = (cause as { shortMessage?: string }).shortMessage ?? (cause as Error).message;
          throw new CompanionError(
            {
              status: null,
              code: 'SEND_FAILED',
              message: `Sending the ${step} transaction failed: ${message}`,
              fix: "Check the wallet's BNB for the value and gas, and that its node (RPC_URL) answers; then build again.",
              retry: false,
            },
            { cause },
          );
        }
      },
    );

  const mined = async (step: string, hash: Hash): Promise<TransactionReceipt> => {
    // Nothing broadcast is mined before the next block: asking at once would only load the node while this key's
    // other sends of the block (a sniper's burst) are still going out.
    await sleep(pollingInterval);
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval });
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
    return receipt;
  };

  const steps: SentBuild<B>['steps'] = [];
  let current = build;
  for (let round = 1; current.requires.length > 0; round++) {
    for (const step of current.requires) {
      const { hash } = await broadcast(step.step, step.tx);
      await mined(step.step, hash);
      steps.push({ step: step.step, hash });
    }
    if (!rebuild || round >= MAX_STEP_ROUNDS) break;
    current = await rebuild();
    verify(current);
  }
  const { hash, nonce } = await broadcast('main', current.tx);
  if (options.wait === false) return { steps, hash, nonce, receipt: null, build: current };
  return { steps, hash, nonce, receipt: await mined('main', hash), build: current };
}

function refused(code: 'WRONG_WALLET' | 'WRONG_CHAIN', message: string, fix: string): CompanionError {
  return new CompanionError({ status: null, code, message, fix, retry: false });
}
