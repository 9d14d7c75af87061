import { randomUUID } from 'node:crypto';
import { type Address, type Hex, keccak256, serializeTransaction, type TransactionReceipt } from 'viem';
import { formatAmount } from '../../src-shared/format/numbers';
import type { PreparedTx, UnsignedTxWei } from '../../src-shared/schema/unsignedTx';
import type { ChainContext } from '../chain/connectChain';
import { PrivateRpcError } from '../chain/privateRpc';
import { readFees } from '../chain/readFees';
import { tracedRevertData } from '../chain/tracedRevert';
import { explainRevert } from '../core/revertExplained';
import { type Logger, silentLogger } from '../log/createLogger';
import type { Signers } from '../signer/signers';
import type { ActivityEntry, ActivityStore } from '../store/activityStore';
import { movedByReceipt } from './movedByReceipt';
import { goesPrivately, type PrivateLane } from './privateLane';
import type { SigningConfirmer } from './signingConfirmer';
import type { Judged, SigningWarning } from './signingWarnings';
import { contractErrorOf, type DecodedRevert, revertOf, revertOfData } from './simulation';
import { WalletError } from './walletError';

export interface SendRequest {
  tx: UnsignedTxWei;
  /**
   * The id `prepare` gave for this very transaction: it is signed exactly as prepared (and as the review showed). Main
   * signs nothing else.
   */
  prepared?: string;
  /** The ids of main's warnings the person ticked on the review (headless, the only confirmation there is). */
  confirmedWarnings?: readonly string[];
  /** One action: a trade and its approval steps share a group, shown together in the activity list. */
  groupId?: string;
  /** 'main' or the step's name (approve-permit2...). */
  step: string;
  kind: string;
  /** The sentence the person saw when reviewing it. */
  title: string;
}

/** Checks a transaction before it reaches the signer; throws a WalletError to refuse it. */
export type SendGuard = (tx: UnsignedTxWei, wallet: Address) => void;
/**
 * Checks a message before it reaches the signer: 'challenge' for one of the service's own, 'unknown' for any other
 * (which the person must then confirm to main); throws a WalletError for a challenge that does not fit.
 */
export type MessageGuard = (message: string, wallet: Address) => 'challenge' | 'unknown';

/** What main checks, and asks the person to confirm, before anything is signed. */
export interface SigningPolicy {
  guard: SendGuard;
  messageGuard: MessageGuard;
  /** What the transaction does, and what main warns about it, judged from the chain and the decoded call. */
  judge: (tx: UnsignedTxWei, fees: { gas: bigint; maxFeePerGas: bigint }, wallet: Address) => Promise<Judged>;
  /** Where the person confirms main's warnings (a native dialog in the desktop app). */
  confirmer: SigningConfirmer;
  /** The most per gas main signs for: an RPC asking more is refused (a lying or broken node). */
  maxGasPriceWei: bigint;
  /** The RPC as a refusal names it (its host, never a key in its path). */
  rpcName: string;
}

/** A transaction with everything the signer signs: nonce, fees and gas filled. */
export interface FilledTx {
  type: 'eip1559';
  chainId: number;
  to: Address;
  data: Hex;
  value: bigint;
  gas: bigint;
  nonce: number;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** A prepared transaction as the review shows it, amounts as strings of digits, and the hash a Ledger displays. */
export interface PreparedTxJson {
  id: string;
  wallet: Address;
  tx: PreparedTx;
  /** keccak256 of the unsigned serialized transaction: what a Ledger shows when it signs blind. */
  hash: Hex;
  /** What main warns about: each must be confirmed to main before it signs. */
  warnings: SigningWarning[];
  /** How they are confirmed: main's own window, the review's ticks (headless, allowed), or not at all (refused). */
  confirmation: SigningConfirmer['surface'];
}

/** How long a prepared transaction may wait on the review screen before it must be prepared again. */
const PREPARED_TTL_MS = 15 * 60_000;
/** Prepared transactions kept at once; the oldest go first. */
const MAX_PREPARED = 32;

/** Gas margin over the node's estimate for a step the API built without `gas` (20%, as the builds use). */
const GAS_MARGIN_BPS = 12_000n;
const RECEIPT_TIMEOUT_MS = 10 * 60_000;
/** How often a receipt is looked for where the chain's block time is not measured (the devnet answers at once). */
const RECEIPT_POLL_MS = 1_000;
/**
 * How long a nonce this app sent stays taken although no node counts it yet: with load-balanced nodes the one asked
 * for the pending count may not have the transaction in its pool. After this, the nodes' count is trusted again (the
 * transaction was mined, or dropped and its nonce is free).
 */
const SENT_NONCE_KEPT_MS = 2 * 60_000;

/**
 * The app's sending: fills the nonce, fees and (for a step) gas, has the active signer sign, records the signed
 * transaction before broadcasting it to the configured RPC, and follows it to its receipt. The API never sends; this
 * runs only for the app's own person, after the review screen. With a private lane (a block builder's private RPC),
 * a launch, and a trade when asked, is broadcast there instead, and only there; its receipt still comes from the RPC.
 */
export class TransactionSender {
  private readonly following = new Map<string, Promise<ActivityEntry>>();
  private readonly prepared = new Map<string, { wallet: Address; filled: FilledTx; judged: Judged; at: number }>();
  /** The nonce after the last one this app sent, by wallet (lower case), and when. */
  private readonly sentNonces = new Map<string, { next: number; at: number }>();

  constructor(
    private readonly chain: ChainContext,
    private readonly signers: Signers,
    private readonly store: ActivityStore,
    private readonly policy: SigningPolicy,
    private readonly log: Logger = silentLogger(),
    private readonly now: () => number = Date.now,
    private readonly lane: PrivateLane | null = null,
  ) {}

  /**
   * Checks and fills a transaction (nonce, fees, gas) without signing it, so the review can show exactly what the
   * signer will sign, with its hash; `signAndSend` with the returned id signs that very transaction.
   */
  async prepare(tx: UnsignedTxWei): Promise<PreparedTxJson> {
    const wallet = this.check(tx);
    const filled = await this.fill(tx, wallet);
    this.checkFee(filled);
    const judged = await this.policy.judge(tx, filled, wallet);
    const id = randomUUID();
    const now = this.now();
    for (const [key, entry] of this.prepared) {
      if (entry.at >= now - PREPARED_TTL_MS && this.prepared.size < MAX_PREPARED) break;
      this.prepared.delete(key);
    }
    this.prepared.set(id, { wallet, filled, judged, at: now });
    return {
      ...preparedJson(id, wallet, filled),
      warnings: judged.warnings,
      confirmation: this.policy.confirmer.surface,
    };
  }

  /**
   * Signs a prepared transaction and broadcasts it; returns the entry as sent (its hash known). `wait` follows it to
   * the receipt. Main signs only what it prepared, and what it warned about only once the person confirmed it to main.
   */
  async signAndSend(request: SendRequest): Promise<ActivityEntry> {
    const { tx } = request;
    const wallet = this.check(tx);
    if (request.prepared === undefined) {
      throw new WalletError(
        'NOT_PREPARED',
        'The app signs only a transaction it prepared for review (nonce, fees and gas filled, its warnings judged) and that was shown.',
        'Prepare it first (tx.prepare), review it, then send it with the prepared id.',
      );
    }
    const prepared = this.takePrepared(request.prepared, tx, wallet);
    if (prepared.judged.warnings.length > 0) {
      await this.policy.confirmer.confirmTransaction({
        headline: prepared.judged.headline,
        wallet,
        hash: keccak256(serializeTransaction(prepared.filled)),
        warnings: prepared.judged.warnings,
        confirmedOnPage: request.confirmedWarnings ?? [],
      });
    }
    const id = randomUUID();
    this.store.begin({
      id,
      groupId: request.groupId ?? id,
      step: request.step,
      kind: request.kind,
      title: request.title,
      wallet,
      chainId: tx.chainId,
      to: tx.to,
      data: tx.data,
      value: tx.value.toString(),
    });
    let raw: Hex;
    let nonce: number;
    try {
      nonce = prepared.filled.nonce;
      raw = await this.signers.signTransaction(prepared.filled);
    } catch (cause) {
      this.store.failed(id, messageOf(cause));
      throw cause;
    }
    const hash = keccak256(raw);
    const privately = goesPrivately(this.lane, tx, this.chain.addresses);
    // Stored before it leaves: if the app dies now, the next start still knows the hash to follow.
    this.store.signed(id, { status: 'sent', raw, hash, nonce, privately });
    try {
      if (privately) await this.broadcastPrivately(raw);
      else await this.broadcast(raw);
    } catch (cause) {
      this.store.failed(id, messageOf(cause));
      if (cause instanceof WalletError) throw cause;
      throw new WalletError('SEND_FAILED', `The node refused the transaction: ${messageOf(cause)}`, 'Check the RPC.', {
        cause,
      });
    }
    const key = wallet.toLowerCase();
    if (nonce + 1 > (this.sentNonces.get(key)?.next ?? 0))
      this.sentNonces.set(key, { next: nonce + 1, at: this.now() });
    this.follow(id, hash);
    return this.store.get(id) as ActivityEntry;
  }

  /** Settles when the entry has its receipt (confirmed or reverted), or is failed. */
  async wait(id: string): Promise<ActivityEntry> {
    const entry = this.store.get(id);
    if (!entry) throw new WalletError('UNKNOWN_ACTIVITY', `There is no activity ${id.slice(0, 40)}.`);
    if (entry.status !== 'sent' || !entry.hash) return entry;
    return this.following.get(id) ?? this.follow(id, entry.hash);
  }

  /**
   * Signs an EIP-191 message and records that it was signed: one of the service's challenges, or another message
   * the person confirmed shown in full (`confirmedUnknown`).
   */
  async signMessage(request: { message: string; kind: string; title: string; confirmedUnknown?: boolean }) {
    const wallet = this.signers.requireAddress();
    const { confirmedUnknown = false, ...entry } = request;
    if (this.policy.messageGuard(request.message, wallet) === 'unknown') {
      await this.policy.confirmer.confirmMessage({
        message: request.message,
        wallet,
        confirmedOnPage: confirmedUnknown,
      });
    }
    const id = randomUUID();
    this.store.begin({ id, groupId: id, step: 'message', chainId: this.chain.chainId, wallet, ...entry });
    try {
      const signed = await this.signers.signMessage(request.message);
      this.store.signed(id, { status: 'signed' });
      return { ...signed, activity: this.store.get(id) as ActivityEntry };
    } catch (cause) {
      this.store.failed(id, messageOf(cause));
      throw cause;
    }
  }

  /**
   * After a restart: follows what was sent and not yet settled, and marks what was being signed when the app stopped
   * as failed (it never left the app).
   */
  resume(): void {
    for (const entry of this.store.withStatus('signing'))
      this.store.failed(entry.id, 'The app stopped before it was signed.');
    for (const entry of this.store.withStatus('sent')) {
      if (entry.hash) void this.follow(entry.id, entry.hash).catch(() => undefined);
    }
  }

  /** The chain and main's guard, before anything is filled or signed; answers the signer's wallet. */
  private check(tx: UnsignedTxWei): Address {
    if (tx.chainId !== this.chain.chainId) {
      throw new WalletError(
        'WRONG_CHAIN',
        `The transaction is for chain ${tx.chainId}; the app is on ${this.chain.network} (${this.chain.chainId}).`,
        'Build it again on this network.',
      );
    }
    const wallet = this.signers.requireAddress();
    this.policy.guard(tx, wallet);
    return wallet;
  }

  /** Refuses fees above the cap: a node asking that much is lying or broken, and the fee is spent either way. */
  private checkFee(filled: FilledTx): void {
    const { maxGasPriceWei, rpcName } = this.policy;
    if (filled.maxFeePerGas <= maxGasPriceWei) return;
    const gwei = (wei: bigint) => formatAmount(wei, 9, { significant: 4 });
    throw new WalletError(
      'FEE_TOO_HIGH',
      `The RPC (${rpcName}) asks up to ${gwei(filled.maxFeePerGas)} gwei per gas, up to ${formatAmount(filled.gas * filled.maxFeePerGas, 18, { significant: 4 })} BNB for this transaction: above the ${gwei(maxGasPriceWei)} gwei the app signs for.`,
      "Nothing was signed. Check the RPC in Settings (BSC's blocks take 0.05 gwei); if fees really are this high, raise the cap (Settings, or --max-gas-price-gwei).",
    );
  }

  /** A prepared transaction, used up: it must be the same call, for the same signer, and not stale. */
  private takePrepared(id: string, tx: UnsignedTxWei, wallet: Address): { filled: FilledTx; judged: Judged } {
    const entry = this.prepared.get(id);
    this.prepared.delete(id);
    const again = 'Review it again: the app prepares it anew.';
    if (!entry || entry.at < this.now() - PREPARED_TTL_MS) {
      throw new WalletError('NOT_PREPARED', 'The reviewed transaction is no longer prepared (used or too old).', again);
    }
    const { filled } = entry;
    const same =
      entry.wallet === wallet &&
      filled.chainId === tx.chainId &&
      filled.to.toLowerCase() === tx.to.toLowerCase() &&
      filled.data.toLowerCase() === tx.data.toLowerCase() &&
      filled.value === tx.value;
    if (!same) {
      throw new WalletError('NOT_PREPARED', 'The transaction differs from the one prepared for review.', again);
    }
    return entry;
  }

  private async fill(tx: UnsignedTxWei, wallet: Address): Promise<FilledTx> {
    const { client } = this.chain;
    try {
      const [pending, mined, fees, estimated] = await Promise.all([
        client.getTransactionCount({ address: wallet, blockTag: 'pending' }),
        // `latest` is the newest head any node reported (see headPinnedTransport): a node behind a block that mined
        // this wallet's last transaction cannot answer it, while its pending count could still miss that transaction.
        client.getTransactionCount({ address: wallet, blockTag: 'latest' }),
        readFees(client, this.chain.chainId),
        tx.gas === undefined
          ? client.estimateGas({ account: wallet, to: tx.to, data: tx.data, value: tx.value })
          : Promise.resolve(undefined),
      ]);
      const gas = tx.gas ?? ((estimated as bigint) * GAS_MARGIN_BPS) / 10_000n;
      const sent = this.sentNonces.get(wallet.toLowerCase());
      const nonce = Math.max(pending, mined, sent && sent.at >= this.now() - SENT_NONCE_KEPT_MS ? sent.next : 0);
      return {
        type: 'eip1559' as const,
        chainId: tx.chainId,
        to: tx.to,
        data: tx.data,
        value: tx.value,
        gas,
        nonce,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      };
    } catch (cause) {
      // A revert while estimating is the transaction's own fault (balance, allowance, price moved), not the RPC's.
      if (/revert/i.test(messageOf(cause))) {
        throw new WalletError(
          'SEND_FAILED',
          `It would fail on chain now: ${messageOf(cause)}`,
          'Nothing was signed. Build it again; check the balance and the approvals.',
          { cause },
        );
      }
      throw new WalletError(
        'CHAIN_UNREACHABLE',
        `Could not prepare the transaction from the chain: ${messageOf(cause)}`,
        'Check the RPC URL in Settings, then try again.',
        { cause },
      );
    }
  }

  /**
   * To the private RPC only. A refusal or an unreachable endpoint fails the send: falling back to the public RPC would
   * put in the public mempool the very transaction the person chose to keep out of it.
   */
  private async broadcastPrivately(raw: Hex): Promise<void> {
    const rpc = (this.lane as PrivateLane).rpc;
    try {
      await rpc.send(raw);
    } catch (cause) {
      const why = cause instanceof PrivateRpcError ? cause.message : messageOf(cause);
      const unreachable = cause instanceof PrivateRpcError && cause.reason === 'unreachable';
      throw new WalletError(
        unreachable ? 'CHAIN_UNREACHABLE' : 'SEND_FAILED',
        unreachable
          ? `The private RPC (${rpc.shownUrl}) was unreachable: ${why}. Nothing was sent to the public mempool.`
          : `The private RPC (${rpc.shownUrl}) refused the transaction: ${why}. Nothing was sent to the public mempool.`,
        'Check the private RPC URL in Settings, or clear it to send through the public RPC (where anyone watching the mempool sees the launch before it lands); then build it again.',
        { cause },
      );
    }
    this.log.info(`sent ${keccak256(raw)} through the private RPC ${rpc.shownUrl}`);
  }

  private async broadcast(raw: Hex): Promise<void> {
    const { devnet, client } = this.chain;
    // On the devnet, through its journal, so what the app sends survives a restart like any /rpc transaction.
    if (devnet) await devnet.sendRawTransaction(raw);
    else await client.sendRawTransaction({ serializedTransaction: raw });
  }

  /**
   * The transaction's receipt, looked for about once per block time until it comes. A receipt answered null is not
   * taken as "not mined": public nodes answer null for a while after mining, and a node behind the block that mined it
   * answers null too, so it is simply asked again (with no need for a new block to come first).
   */
  private async receiptOf(hash: Hex): Promise<TransactionReceipt> {
    const deadline = Date.now() + RECEIPT_TIMEOUT_MS;
    // The embedded chain says when a block holds it (at its cadence, the next block), with no polling.
    await this.chain.devnet?.included(hash).catch(() => {});
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.chain.client.getTransactionReceipt({ hash });
      } catch (cause) {
        if (Date.now() >= deadline) throw cause;
      }
      // Soon at first (the node asked may just be behind), then about once per block.
      const pause = Math.min(this.chain.heads?.pollMs() ?? RECEIPT_POLL_MS, 250 * 2 ** attempt);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  /**
   * Why a mined transaction reverted, its revert decoded: the contract's error by name, for the app to act on, and
   * explained for the person. From the node's trace of the transaction where it answers one (the devnet, a fork, many
   * nodes), which saw the state the transaction met in its block; else the call replayed at the end of its block (a
   * pool priced first is still priced there; a price moved by the trades before it may have moved on). Null when
   * neither can be had.
   */
  private async whyReverted(hash: Hex, blockNumber: bigint): Promise<{ name: string | null; words: string } | null> {
    const why = (revert: DecodedRevert) => ({
      name: contractErrorOf(revert),
      words: explainRevert(revert.name, revert.args),
    });
    try {
      const data = await tracedRevertData(
        (method, params) => this.chain.client.request({ method, params } as never),
        hash,
      );
      if (data !== undefined) return why(revertOfData(data));
    } catch {
      // No tracing on this node: replay the call instead.
    }
    try {
      const tx = await this.chain.client.getTransaction({ hash });
      await this.chain.client.call({
        account: tx.from,
        to: tx.to,
        data: tx.input,
        value: tx.value,
        gas: tx.gas,
        blockNumber,
      });
      // It would pass now: what made it fail in its block (a price moved by the trades before it) has moved on.
      return { name: null, words: explainRevert('passes now', []) };
    } catch (cause) {
      const revert = revertOf(cause);
      return revert ? why(revert) : null;
    }
  }

  private follow(id: string, hash: Hex): Promise<ActivityEntry> {
    const existing = this.following.get(id);
    if (existing) return existing;
    const run = (async () => {
      try {
        const receipt = await this.receiptOf(hash);
        const reverted = receipt.status !== 'success';
        const why = reverted ? await this.whyReverted(hash, receipt.blockNumber) : null;
        const wallet = this.store.get(id)?.wallet;
        this.store.settled(id, {
          status: reverted ? 'reverted' : 'confirmed',
          block: Number(receipt.blockNumber),
          gasUsed: receipt.gasUsed,
          feeWei: receipt.effectiveGasPrice === undefined ? null : receipt.gasUsed * receipt.effectiveGasPrice,
          error: why?.words ?? null,
          revert: why?.name ?? null,
          moved: reverted || !wallet ? null : movedByReceipt(receipt.logs, wallet, this.chain.addresses),
        });
      } catch (cause) {
        // Still 'sent': the next start (or the next wait) looks again; the transaction may yet be mined.
        this.log.warn(`activity ${id}: no receipt for ${hash} yet: ${messageOf(cause)}`);
      } finally {
        this.following.delete(id);
      }
      return this.store.get(id) as ActivityEntry;
    })();
    this.following.set(id, run);
    return run;
  }
}

function preparedJson(
  id: string,
  wallet: Address,
  filled: FilledTx,
): Omit<PreparedTxJson, 'warnings' | 'confirmation'> {
  return {
    id,
    wallet,
    tx: {
      ...filled,
      value: filled.value.toString(),
      gas: filled.gas.toString(),
      maxFeePerGas: filled.maxFeePerGas.toString(),
      maxPriorityFeePerGas: filled.maxPriorityFeePerGas.toString(),
    },
    hash: keccak256(serializeTransaction(filled)),
  };
}

function messageOf(cause: unknown): string {
  if (cause instanceof Error) return (cause as { shortMessage?: string }).shortMessage ?? cause.message;
  return String(cause);
}
