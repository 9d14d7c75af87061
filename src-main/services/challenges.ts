import { randomBytes } from 'node:crypto';
import { type Address, type Hex, recoverMessageAddress } from 'viem';
import { CHALLENGE_TTL_MS, type ChallengePurpose, challengeMessage } from '../../src-shared/challengeMessage';
import { ApiError } from '../core/errors';
import type { Db } from '../store/openDatabase';

export { CHALLENGE_TTL_MS, type ChallengePurpose };

/** How long an expired challenge is kept, so that a late answer hears "expired" rather than "unknown"; then pruned. */
const EXPIRED_KEPT_MS = CHALLENGE_TTL_MS;

/**
 * Rows kept at most: a flood of challenge requests cannot grow the table without end. Past it, new challenges are
 * refused (RATE_LIMITED) until old ones expire and go. (Dropping a wallet's older open challenges instead would let
 * anyone who asks for challenges in a victim's name void the one the victim is signing.)
 */
export const MAX_CHALLENGE_ROWS = 10_000;

/** The spec's Challenge. */
export interface Challenge {
  nonce: string;
  /** Unix milliseconds. */
  expires: number;
  /** The exact text to sign with personal_sign (EIP-191). */
  message: string;
  /** What to do with the signature. */
  next: string;
}

const NEXT: Record<ChallengePurpose, string> = {
  referral: 'Sign message with personal_sign, then POST /referrals/register with { nonce, signature }.',
  key: 'Sign message with personal_sign, then POST /keys with { nonce, signature, label }.',
  session: 'Sign message with personal_sign, then POST /api/auth/session with { nonce, signature }.',
};

function invalid(message: string, field: string, fix?: string): ApiError {
  return new ApiError('INVALID_SIGNATURE', message, { field, ...(fix ? { fix } : {}) });
}

/**
 * Signed challenges (EIP-191): a nonce bound to one purpose and one wallet, valid for five minutes, redeemed once.
 * Signing one costs no gas and moves nothing; the signature proves the caller holds the wallet's key.
 */
export class Challenges {
  private readonly insert;
  private readonly find;
  private readonly redeemStatement;
  private readonly purge;
  private readonly countRows;
  private readonly oldestExpiry;

  constructor(
    private readonly db: Db,
    private readonly chainId: number,
    private readonly now: () => number = Date.now,
    private readonly maxRows = MAX_CHALLENGE_ROWS,
  ) {
    this.insert = db.prepare(
      'INSERT INTO challenges (nonce, purpose, address, message, expires_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.find = db.prepare('SELECT purpose, address, message, expires_at, used_at FROM challenges WHERE nonce = ?');
    this.redeemStatement = db.prepare('UPDATE challenges SET used_at = ? WHERE nonce = ? AND used_at IS NULL');
    this.purge = db.prepare('DELETE FROM challenges WHERE expires_at < ?');
    this.countRows = db.prepare('SELECT COUNT(*) AS rows FROM challenges').pluck();
    this.oldestExpiry = db.prepare('SELECT MIN(expires_at) FROM challenges').pluck();
  }

  /**
   * A new challenge for one purpose and wallet. Expired challenges are pruned as new ones come, and past `maxRows`
   * stored rows the answer is RATE_LIMITED until some go.
   *
   * @example challenges.issue('key', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266').message
   */
  issue(purpose: ChallengePurpose, address: Address): Challenge {
    return this.db.transaction(() => this.issueNow(purpose, address))();
  }

  private issueNow(purpose: ChallengePurpose, address: Address): Challenge {
    const now = this.now();
    this.purge.run(now - EXPIRED_KEPT_MS);
    if ((this.countRows.get() as number) >= this.maxRows) {
      const oldest = (this.oldestExpiry.get() as number | null) ?? now;
      const retryAfter = Math.max(1, Math.ceil((oldest + EXPIRED_KEPT_MS - now) / 1000));
      throw new ApiError('RATE_LIMITED', `${this.maxRows} challenges are waiting to be signed on this server`, {
        fix: `Wait ${retryAfter} seconds (Retry-After) for old challenges to expire, then ask again.`,
        retryAfterSeconds: retryAfter,
      });
    }
    const nonce = randomBytes(16).toString('hex');
    const expires = now + CHALLENGE_TTL_MS;
    const message = challengeMessage({ purpose, wallet: address, chainId: this.chainId, nonce, expires });
    this.insert.run(nonce, purpose, address, message, expires);
    return { nonce, expires, message, next: NEXT[purpose] };
  }

  /**
   * Checks a signed challenge, then uses it up and runs `use` with the wallet that signed, in one transaction: when
   * `use` fails (storage, a limit), the challenge stays unused and the same request can be sent again. INVALID_SIGNATURE
   * when the nonce is missing, unknown, for another purpose, expired or already used, or the signature is not the
   * wallet's.
   */
  async redeem<T>(purpose: ChallengePurpose, nonce: string, signature: Hex, use: (wallet: Address) => T): Promise<T> {
    const wallet = await this.signer(purpose, nonce, signature);
    const again = 'Get a new challenge and sign it.';
    return this.db.transaction(() => {
      // Used up atomically: of two requests racing with one nonce, exactly one gets through.
      if (this.redeemStatement.run(this.now(), nonce).changes !== 1) {
        throw invalid('this challenge was already used; each one works once', 'nonce', again);
      }
      return use(wallet);
    })();
  }

  /**
   * The wallet that signed a challenge still valid and unused; nothing is used up. INVALID_SIGNATURE otherwise. The
   * nonce and the signature are as SignedBodySchema reads them: present, the signature 65 bytes of hex.
   */
  async signer(purpose: ChallengePurpose, nonce: string, signature: Hex): Promise<Address> {
    const row = this.find.get(nonce) as
      | { purpose: ChallengePurpose; address: Address; message: string; expires_at: number; used_at: number | null }
      | undefined;
    const again = `Get a new challenge and sign it.`;
    if (!row || row.purpose !== purpose)
      throw invalid(`no ${purpose} challenge has nonce ${nonce.slice(0, 64)}`, 'nonce', again);
    if (row.used_at !== null) throw invalid('this challenge was already used; each one works once', 'nonce', again);
    if (row.expires_at < this.now()) throw invalid('this challenge expired (they last 5 minutes)', 'nonce', again);
    let signer: Address;
    try {
      signer = await recoverMessageAddress({ message: row.message, signature });
    } catch {
      throw invalid('the signature could not be read', 'signature');
    }
    if (signer.toLowerCase() !== row.address.toLowerCase()) {
      throw invalid(
        `the challenge was signed by ${signer}, not by ${row.address}`,
        'signature',
        'Sign the challenge message exactly as given, with the wallet it was issued for.',
      );
    }
    return row.address;
  }
}
