import { createHash, randomBytes } from 'node:crypto';
import type { Address } from 'viem';
import { ApiError } from '../core/errors';
import type { Db } from '../store/openDatabase';
import { storageStep } from './storageStep';

/** Every key starts so: the app's prefix, then `live_`, then the secret. */
export const KEY_PREFIX = 'lpc_live_';
export const MAX_ACTIVE_KEYS = 10;
const SECRET_CHARS = 40;
const KEY_SHAPE = /^lpc_live_[0-9A-Za-z]{40}$/;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Last-use times are written at most this often per key, so a busy bot does not write on every request. */
const LAST_USED_EVERY_MS = 60_000;

/**
 * A key's own allowance a minute, given by the app's owner when the key is made: the key's requests count against it
 * instead of their address's. A key made by signing a challenge alone has none (null) and shares its address's.
 */
export interface KeyBudget {
  quotesPerMinute: number;
  buildsPerMinute: number;
}

export interface KeyEntry {
  id: string;
  label: string;
  /** The key's last four characters. */
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  revoked: boolean;
  budget: KeyBudget | null;
}

export interface CreatedKey extends KeyEntry {
  wallet: Address;
  /** The whole key: shown this once, never stored. */
  key: string;
}

/** The key a request came with. */
export interface KeyHolder {
  id: string;
  wallet: Address;
  /** The name its owner gave it, shown wherever the key is named as the source of something. */
  label: string;
  /** Its own rate budget, when the app's owner gave it one. */
  budget: KeyBudget | null;
}

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function randomSecret(): string {
  // Rejection sampling keeps every character equally likely.
  let secret = '';
  while (secret.length < SECRET_CHARS) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && secret.length < SECRET_CHARS) secret += ALPHABET[byte % 62];
    }
  }
  return secret;
}

interface KeyRow {
  id: string;
  wallet: Address;
  label: string;
  hint: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  quotes_per_minute: number | null;
  builds_per_minute: number | null;
}

const COLUMNS = 'id, wallet, label, hint, created_at, last_used_at, revoked_at, quotes_per_minute, builds_per_minute';

const budgetOf = (row: KeyRow): KeyBudget | null =>
  row.quotes_per_minute === null || row.builds_per_minute === null
    ? null
    : { quotesPerMinute: row.quotes_per_minute, buildsPerMinute: row.builds_per_minute };

const entryOf = (row: KeyRow): KeyEntry => ({
  id: row.id,
  label: row.label,
  hint: row.hint,
  createdAt: iso(row.created_at) as string,
  lastUsedAt: iso(row.last_used_at),
  revokedAt: iso(row.revoked_at),
  revoked: row.revoked_at !== null,
  budget: budgetOf(row),
});

/**
 * API keys: made for a wallet that signed a challenge, kept only as a SHA-256 of the key (the key has 238 bits of
 * randomness, so a plain hash cannot be searched back), looked up by that hash, listed and revoked by their wallet.
 * A key the app's owner made may carry a rate budget of its own, kept beside it. Storage failures answer
 * KEYS_UNAVAILABLE; a server can switch keys off (KEYS_OFF).
 */
export class ApiKeys {
  private readonly statements;
  private readonly lastWritten = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly enabled = true,
    private readonly now: () => number = Date.now,
  ) {
    this.statements = {
      insert: db.prepare(
        `INSERT INTO api_keys (id, wallet, label, secret_hash, hint, created_at, quotes_per_minute, builds_per_minute)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      active: db.prepare('SELECT count(*) FROM api_keys WHERE wallet = ? AND revoked_at IS NULL').pluck(),
      byHash: db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE secret_hash = ?`),
      list: db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE wallet = ? ORDER BY created_at, id`),
      byId: db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE id = ? AND wallet = ?`),
      revoke: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      used: db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?'),
    };
  }

  get isEnabled(): boolean {
    return this.enabled;
  }

  /** KEYS_OFF when keys are switched off on this server. */
  requireEnabled(): void {
    if (!this.enabled) {
      throw new ApiError('KEYS_OFF', 'API keys are switched off on this server', {
        fix: 'Leave out the x-api-key header; every endpoint works without a key.',
      });
    }
  }

  /**
   * A new key for `wallet`, labelled as CreateKeyBodySchema reads a label (1 to 64 characters, trimmed), with a
   * budget of its own only when the app's owner asked for one (the route checks who asks).
   *
   * @example keys.create(wallet, 'sniper', { quotesPerMinute: 600, buildsPerMinute: 120 })
   */
  create(wallet: Address, label: string, budget: KeyBudget | null = null): CreatedKey {
    this.requireEnabled();
    const key = `${KEY_PREFIX}${randomSecret()}`;
    const row: KeyRow = {
      id: `key_${randomBytes(8).toString('hex')}`,
      wallet,
      label,
      hint: key.slice(-4),
      created_at: this.now(),
      last_used_at: null,
      revoked_at: null,
      quotes_per_minute: budget?.quotesPerMinute ?? null,
      builds_per_minute: budget?.buildsPerMinute ?? null,
    };
    this.storage(() =>
      this.db.transaction(() => {
        if ((this.statements.active.get(wallet) as number) >= MAX_ACTIVE_KEYS) {
          throw new ApiError('KEY_LIMIT', `${wallet} already holds ${MAX_ACTIVE_KEYS} active keys`, {
            fix: 'Revoke a key you no longer use with DELETE /keys/{id}, then create this one.',
          });
        }
        this.statements.insert.run(
          row.id,
          wallet,
          row.label,
          hashOf(key),
          row.hint,
          row.created_at,
          row.quotes_per_minute,
          row.builds_per_minute,
        );
      })(),
    );
    return { ...entryOf(row), wallet, key };
  }

  /**
   * The holder of a key sent in x-api-key: INVALID_API_KEY when it is not a live key of this server,
   * API_KEY_REVOKED when revoked.
   */
  authenticate(key: string): KeyHolder {
    this.requireEnabled();
    const leave = 'Leave out the x-api-key header, or send a live key (GET /keys/challenge, then POST /keys).';
    if (!KEY_SHAPE.test(key)) {
      throw new ApiError('INVALID_API_KEY', `x-api-key is not a key of this server (keys start ${KEY_PREFIX})`, {
        fix: leave,
      });
    }
    const row = this.storage(() => this.statements.byHash.get(hashOf(key)) as KeyRow | undefined);
    if (!row) throw new ApiError('INVALID_API_KEY', 'x-api-key is not a live key of this server', { fix: leave });
    if (row.revoked_at !== null) {
      throw new ApiError('API_KEY_REVOKED', `the key ${row.id} was revoked on ${iso(row.revoked_at)}`, { fix: leave });
    }
    const now = this.now();
    if (now - (this.lastWritten.get(row.id) ?? 0) >= LAST_USED_EVERY_MS) {
      this.lastWritten.set(row.id, now);
      this.storage(() => this.statements.used.run(now, row.id));
    }
    return { id: row.id, wallet: row.wallet, label: row.label, budget: budgetOf(row) };
  }

  list(wallet: Address): KeyEntry[] {
    return this.storage(() => (this.statements.list.all(wallet) as KeyRow[]).map(entryOf));
  }

  /** Revokes one of the wallet's keys; revoking a revoked key changes nothing. */
  revoke(wallet: Address, id: string): KeyEntry {
    return this.storage(() =>
      this.db.transaction(() => {
        const row = this.statements.byId.get(id, wallet) as KeyRow | undefined;
        if (!row) {
          throw new ApiError('KEY_NOT_FOUND', `${wallet} has no key ${id}`, { fix: 'Send an id from GET /keys.' });
        }
        if (row.revoked_at === null) {
          row.revoked_at = this.now();
          this.statements.revoke.run(row.revoked_at, id);
        }
        return entryOf(row);
      })(),
    );
  }

  /** Runs a storage step; anything but our own answers becomes KEYS_UNAVAILABLE. */
  private storage<T>(work: () => T): T {
    return storageStep('KEYS_UNAVAILABLE', 'API keys could not be read or written', work);
  }
}
