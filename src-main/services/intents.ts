import { randomBytes } from 'node:crypto';
import type { Address, Hash } from 'viem';
import type { LaunchParams } from '../../src-shared/inspect/decodeCall';
import type { KnownContracts } from '../../src-shared/inspect/knownContracts';
import { INTENT_KINDS, type IntentBody, type IntentKind, type IntentState } from '../../src-shared/schema/intents';
import type { ChainContext } from '../chain/connectChain';
import { LaunchFactory } from '../chain/generated/contracts';
import { ApiError } from '../core/errors';
import type { Db } from '../store/openDatabase';
import { chainRead } from './chainRead';
import { type IntentCaller, requireReadAccess, requireWalletAccess, sourceOf } from './intentCaller';
import { checkFulfilment } from './intentFulfilment';
import { knownContractsOf } from './ourContracts';
import { storageStep } from './storageStep';

export { INTENT_KINDS, type IntentKind, type IntentState };

/**
 * Who asked for a request, and when: an API key (its id, label and wallet as they were then) or the app itself.
 * `unknown` is a request stored before sources were kept and made without a key (closed when the store was upgraded);
 * a key's id and label are null on a request stored then with a key.
 */
export type IntentSource =
  | { kind: 'key'; key: { id: string | null; label: string | null; wallet: Address }; at: string }
  | { kind: 'app'; at: string }
  | { kind: 'unknown'; at: string };

export interface Intent {
  id: string;
  kind: IntentKind;
  wallet: Address;
  state: IntentState;
  /** The body of the matching build, as the bot sent it. */
  request: Record<string, unknown>;
  /** The build shown for review, once built. */
  build: unknown | null;
  /** The wallet of the API key the bot created it with: the build's default referrer, as with the key itself. */
  keyWallet: Address | null;
  source: IntentSource;
  tx: { hash: Hash; block: number | null } | null;
  reason: string | null;
  createdAt: string;
  updatedAt: string;
}

interface IntentRow {
  id: string;
  kind: IntentKind;
  wallet: Address;
  request: string;
  key_wallet: Address | null;
  source: 'key' | 'app' | null;
  key_id: string | null;
  key_label: string | null;
  state: IntentState;
  build: string | null;
  tx_hash: Hash | null;
  block: number | null;
  reason: string | null;
  created_at: number;
  updated_at: number;
}

const ID_SHAPE = /^int_[0-9a-f]{24}$/;
/** The most requests one list answers (the newest). */
const LIST_LIMIT = 200;

function sourceOfRow(row: IntentRow): IntentSource {
  const at = new Date(row.created_at).toISOString();
  if (row.source === 'app') return { kind: 'app', at };
  if (row.source === 'key' && row.key_wallet !== null) {
    return { kind: 'key', key: { id: row.key_id, label: row.key_label, wallet: row.key_wallet }, at };
  }
  return { kind: 'unknown', at };
}

const intentOf = (row: IntentRow): Intent => ({
  id: row.id,
  kind: row.kind,
  wallet: row.wallet,
  state: row.state,
  request: JSON.parse(row.request) as Record<string, unknown>,
  build: row.build === null ? null : JSON.parse(row.build),
  keyWallet: row.key_wallet,
  source: sourceOfRow(row),
  tx: row.tx_hash === null ? null : { hash: row.tx_hash, block: row.block },
  reason: row.reason,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
});

/**
 * Prepared requests: a bot asks, with its API key, for a buy, sell or launch with the body of the matching build (the
 * app may prepare one too); the user reviews it in the app, which builds it, signs and sends it, and reports the hash;
 * the state follows the chain from there. Every request keeps who asked. A wallet's requests are seen and acted on by
 * the app, a key of that wallet, or that wallet's signed-in browser; the key that asked may read its own. Storage
 * failures answer INTENTS_UNAVAILABLE.
 */
export class Intents {
  private readonly statements;

  constructor(
    private readonly db: Db,
    private readonly chain: ChainContext,
    private readonly now: () => number = Date.now,
    /** Told of each request as it is stored (the notifications of a bot's request waiting). */
    private readonly onCreated: (intent: Intent) => void = () => {},
  ) {
    const columns =
      'id, kind, wallet, request, key_wallet, source, key_id, key_label, state, build, tx_hash, block, reason, created_at, updated_at';
    this.statements = {
      insert: db.prepare(
        `INSERT INTO intents (${columns}) VALUES (@id, @kind, @wallet, @request, @keyWallet, @source, @keyId, @keyLabel, @state, NULL, NULL, NULL, NULL, @at, @at)`,
      ),
      get: db.prepare(`SELECT ${columns} FROM intents WHERE id = ?`),
      list: db.prepare(
        `SELECT ${columns} FROM intents WHERE wallet = ? AND (? IS NULL OR state = ?) ORDER BY created_at DESC, id LIMIT ?`,
      ),
      built: db.prepare(
        "UPDATE intents SET state = 'built', build = ?, updated_at = ? WHERE id = ? AND state IN ('pending', 'built')",
      ),
      fulfilledBy: db.prepare('SELECT id FROM intents WHERE tx_hash = ?').pluck(),
      sent: db.prepare(
        "UPDATE intents SET state = 'sent', tx_hash = ?, updated_at = ? WHERE id = ? AND tx_hash IS NULL AND state IN ('pending', 'built')",
      ),
      settled: db.prepare(
        'UPDATE intents SET state = ?, block = ?, reason = ?, updated_at = ? WHERE id = ? AND state = ?',
      ),
      rejected: db.prepare(
        "UPDATE intents SET state = 'failed', reason = ?, updated_at = ? WHERE id = ? AND state IN ('pending', 'built')",
      ),
    };
  }

  /**
   * Records a prepared request from a key or the app (API_KEY_REQUIRED for anyone else), with a body IntentBodySchema
   * read (its kind and wallet); the rest is read in full by the build's own schema when it is built.
   */
  create(caller: IntentCaller, body: IntentBody): Intent {
    const source = sourceOf(caller);
    const { kind, wallet, ...request } = body;
    const id = `int_${randomBytes(12).toString('hex')}`;
    const at = this.now();
    const key = source.kind === 'key' ? source.key : null;
    this.storage(() =>
      this.statements.insert.run({
        id,
        kind,
        wallet,
        request: JSON.stringify({ ...request, wallet }),
        keyWallet: key?.wallet ?? null,
        source: source.kind,
        keyId: key?.id ?? null,
        keyLabel: key?.label ?? null,
        state: 'pending',
        at,
      }),
    );
    const intent = this.get(id);
    this.onCreated(intent);
    return intent;
  }

  /** UNKNOWN_INTENT for an id that is malformed or not here. Checks no caller: for the service's own use. */
  get(id: string): Intent {
    const row = ID_SHAPE.test(id)
      ? this.storage(() => this.statements.get.get(id) as IntentRow | undefined)
      : undefined;
    if (!row) {
      throw new ApiError('UNKNOWN_INTENT', `there is no prepared request ${id.slice(0, 40)}`, {
        fix: 'Send the id the request was created with (int_ and 24 hex digits).',
      });
    }
    return intentOf(row);
  }

  /** A request the caller may read (its wallet's parties, or the key that asked), brought up to date with the chain. */
  async read(caller: IntentCaller, id: string): Promise<Intent> {
    requireReadAccess(caller, this.get(id));
    return this.refresh(id);
  }

  /** A request the caller may act on (build, reject, report): the app, or a key or sign-in of its wallet. */
  forAction(caller: IntentCaller, id: string): Intent {
    const intent = this.get(id);
    requireWalletAccess(caller, intent.wallet);
    return intent;
  }

  /** A wallet's requests, newest first, optionally in one state, for the app or that wallet's key or sign-in. */
  list(caller: IntentCaller, wallet: Address, state?: IntentState): Intent[] {
    requireWalletAccess(caller, wallet);
    return this.storage(() =>
      (this.statements.list.all(wallet, state ?? null, state ?? null, LIST_LIMIT) as IntentRow[]).map(intentOf),
    );
  }

  /** Keeps the build made for review; a request already sent or settled cannot be built again. */
  recordBuild(id: string, build: unknown): Intent {
    const intent = this.get(id);
    if (this.storage(() => this.statements.built.run(JSON.stringify(build), this.now(), id).changes) !== 1) {
      throw this.alreadySent(intent);
    }
    return this.get(id);
  }

  /** The user turned the request down in the app. */
  reject(caller: IntentCaller, id: string, reason: string): Intent {
    const intent = this.forAction(caller, id);
    if (this.storage(() => this.statements.rejected.run(reason, this.now(), id).changes) !== 1) {
      throw this.alreadySent(intent);
    }
    return this.get(id);
  }

  /**
   * Takes the hash of the transaction that fulfilled the request, after checking on chain that it is the trade or
   * launch the request asked for (see `checkFulfilment`), and that no other request was fulfilled by it: one
   * transaction, one request. Reporting the same hash again changes nothing.
   */
  async reportSent(caller: IntentCaller, id: string, hash: Hash): Promise<Intent> {
    const intent = this.forAction(caller, id);
    if (intent.tx) {
      if (intent.tx.hash.toLowerCase() === hash.toLowerCase()) return this.refresh(id);
      throw this.alreadySent(intent);
    }
    if (intent.state === 'failed') throw this.alreadySent(intent);
    const tx = await chainRead('the transaction', () =>
      this.chain.client.getTransaction({ hash }).catch((error: Error) => {
        if (error.name === 'TransactionNotFoundError') return null;
        throw error;
      }),
    );
    if (!tx) {
      throw new ApiError('NOT_SEEN_YET', `the chain has not seen ${hash} yet`, {
        fix: 'Report it again in a few seconds, once the transaction has reached the network.',
      });
    }
    const known = this.knownContracts(hash);
    await checkFulfilment(intent, tx, {
      known,
      launchedToken: (creator, params) => this.launchedToken(known.factory, creator, params),
    });
    const stored = this.storage(() =>
      this.db.transaction(() => {
        const other = this.statements.fulfilledBy.get(tx.hash) as string | undefined;
        if (other !== undefined && other !== id) return { taken: other };
        return this.statements.sent.run(tx.hash, this.now(), id).changes === 1
          ? ('stored' as const)
          : ('late' as const);
      })(),
    );
    if (typeof stored === 'object') {
      // The spec's code for one transaction and one request: this one already fulfils another.
      throw new ApiError(
        'ALREADY_SENT',
        `${tx.hash} already fulfilled another prepared request (${stored.taken}): one transaction fulfils one request`,
        {
          field: 'hash',
          detail: { tx: tx.hash, request: stored.taken },
          fix: 'Report the hash of the transaction built and sent for this request; this one belongs to detail.request.',
        },
      );
    }
    if (stored === 'late') throw this.alreadySent(this.get(id));
    return this.refresh(id);
  }

  /** A sent request, brought up to date with its receipt: confirmed when it succeeded, failed when it reverted. */
  async refresh(id: string): Promise<Intent> {
    const intent = this.get(id);
    if (intent.state !== 'sent' || !intent.tx) return intent;
    const receipt = await chainRead('the receipt', () =>
      this.chain.client.getTransactionReceipt({ hash: intent.tx?.hash as Hash }).catch((error: Error) => {
        if (error.name === 'TransactionReceiptNotFoundError') return null;
        throw error;
      }),
    );
    if (!receipt) return intent;
    const ok = receipt.status === 'success';
    this.storage(() =>
      this.statements.settled.run(
        ok ? 'confirmed' : 'failed',
        Number(receipt.blockNumber),
        ok ? null : 'the transaction reverted on chain',
        this.now(),
        id,
        'sent',
      ),
    );
    return this.get(id);
  }

  /** Our contracts on this chain, for the decoder; a network without a router and factory has no trade to report. */
  private knownContracts(hash: string): KnownContracts {
    const known = knownContractsOf(this.chain.chainId, this.chain.addresses);
    if (!known) {
      throw new ApiError('WRONG_CONTRACT', `${hash} cannot be a trade or launch: this network has none of ours`, {
        field: 'hash',
      });
    }
    return known;
  }

  private launchedToken(factory: Address, creator: Address, params: LaunchParams): Promise<Address> {
    return chainRead("the launch's token address", () =>
      this.chain.client.readContract({
        address: factory,
        abi: LaunchFactory.abi,
        functionName: 'tokenAddress',
        args: [creator, params.salt, params.name, params.symbol, params.supply],
      }),
    );
  }

  private alreadySent(intent: Intent): ApiError {
    return new ApiError(
      'ALREADY_SENT',
      intent.tx
        ? `the request was already fulfilled by ${intent.tx.hash}`
        : `the request is ${intent.state}${intent.reason ? ` (${intent.reason})` : ''}`,
      { ...(intent.tx ? { detail: { tx: intent.tx.hash } } : {}) },
    );
  }

  private storage<T>(work: () => T): T {
    return storageStep('INTENTS_UNAVAILABLE', 'prepared requests could not be stored or read', work);
  }
}
