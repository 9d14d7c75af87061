import { createHash, randomBytes } from 'node:crypto';
import type { Address } from 'viem';
import { ApiError } from '../core/errors';
import type { Db } from '../store/openDatabase';
import { storageStep } from './storageStep';

export const SESSION_DAYS = 30;
export const SESSION_TTL_MS = SESSION_DAYS * 24 * 60 * 60 * 1000;
export const SESSION_COOKIE = 'lpc_session';
const SECRET_SHAPE = /^[0-9a-f]{64}$/;

export interface Session {
  wallet: Address;
  createdAt: Date;
  expiresAt: Date;
}

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * Browser sign-in sessions: a random secret in an HttpOnly cookie, kept here only as its SHA-256, valid 30 days.
 * Storage failures answer SESSIONS_UNAVAILABLE.
 */
export class Sessions {
  private readonly insert;
  private readonly find;
  private readonly end;

  constructor(
    db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.insert = db.prepare('INSERT INTO sessions (secret_hash, wallet, created_at, expires_at) VALUES (?, ?, ?, ?)');
    this.find = db.prepare('SELECT wallet, created_at, expires_at, ended_at FROM sessions WHERE secret_hash = ?');
    this.end = db.prepare('UPDATE sessions SET ended_at = ? WHERE secret_hash = ? AND ended_at IS NULL');
  }

  /** Starts a session for a wallet that signed a session challenge; returns the cookie's secret and the session. */
  start(wallet: Address): { secret: string; session: Session } {
    const secret = randomBytes(32).toString('hex');
    const created = this.now();
    this.storage(() => this.insert.run(hashOf(secret), wallet, created, created + SESSION_TTL_MS));
    return { secret, session: { wallet, createdAt: new Date(created), expiresAt: new Date(created + SESSION_TTL_MS) } };
  }

  /** The session of a cookie secret: NO_SESSION when there is none (or it was ended), SESSION_EXPIRED after 30 days. */
  get(secret: string | undefined): Session {
    const none = () =>
      new ApiError('NO_SESSION', 'this browser is not signed in', {
        fix: 'Sign in: GET /api/auth/challenge, sign the message, POST /api/auth/session.',
      });
    if (!secret || !SECRET_SHAPE.test(secret)) throw none();
    const row = this.storage(
      () =>
        this.find.get(hashOf(secret)) as
          | { wallet: Address; created_at: number; expires_at: number; ended_at: number | null }
          | undefined,
    );
    if (!row || row.ended_at !== null) throw none();
    if (row.expires_at <= this.now()) {
      throw new ApiError('SESSION_EXPIRED', `the sign-in of ${row.wallet} is over ${SESSION_DAYS} days old`, {
        fix: 'Sign in again.',
      });
    }
    return { wallet: row.wallet, createdAt: new Date(row.created_at), expiresAt: new Date(row.expires_at) };
  }

  /** Ends the session of a cookie secret (signing out); ending one that is not there changes nothing. */
  endSession(secret: string | undefined): void {
    if (secret && SECRET_SHAPE.test(secret)) this.storage(() => this.end.run(this.now(), hashOf(secret)));
  }

  private storage<T>(work: () => T): T {
    return storageStep('SESSIONS_UNAVAILABLE', 'sign-in sessions could not be read or written', work);
  }
}
