import { CompanionError } from './companionError';

/** How many times a send whose nonce another sender took is signed again at the chain's next nonce. */
const MAX_NONCE_RETRIES = 8;

/**
 * What a node answers when a transaction's nonce is already taken, or ahead of what it holds. Not "already known":
 * that is this very transaction, already in the node's pool, and signing it again at another nonce would send it twice.
 */
const NONCE_TROUBLE = [
  /nonce too low/i,
  /nonce too high/i,
  /nonce has already been used/i,
  /replacement transaction underpriced/i,
  /invalid nonce/i,
  // viem's own wording of the same refusals.
  /lower than the current nonce/i,
  /higher than the next one expected/i,
];

/** Whether a failed send failed for its nonce: another sender on the key took it, or the node lost track. */
export function isNonceTrouble(cause: unknown): boolean {
  return textsOf(cause).some((text) => NONCE_TROUBLE.some((pattern) => pattern.test(text)));
}

function isNonceTooHigh(cause: unknown): boolean {
  return textsOf(cause).some((text) => /nonce too high|higher than the next one expected/i.test(text));
}

/** The messages of an error and of every cause under it (viem keeps the node's own words in `details`). */
function textsOf(cause: unknown): string[] {
  const texts: string[] = [];
  for (let error = cause as { message?: unknown; details?: unknown; cause?: unknown } | undefined; error; ) {
    if (typeof error.message === 'string') texts.push(error.message);
    if (typeof error.details === 'string') texts.push(error.details);
    error = error.cause as typeof error | undefined;
  }
  return texts;
}

interface Account {
  /** The next nonce to hand out, or null when it must be read from the chain first. */
  next: number | null;
  /**
   * The lowest nonce that can still be free: past every nonce this manager sent at or saw taken. A node behind on
   * its pending count (a load-balanced public RPC) can answer less; the next read never goes under it.
   */
  floor: number;
  /** The sends of this account, one after another. */
  queue: Promise<unknown>;
}

/**
 * Hands out nonces per account (chain and address), so that concurrent sends from one key never take the same nonce
 * and never reach the node out of order: each account's sends are signed and broadcast one at a time (only the
 * broadcast: receipts are waited for outside), each at the nonce after the last. The first send of an account, and
 * any after a failure, reads the account's pending nonce from the chain. A send whose nonce someone else took (another
 * program, or another manager, on the same key) is signed again at the chain's new nonce, up to 8 times, and then
 * fails with NONCE_CONFLICT naming the account.
 *
 * Every sendBuild of one process shares `sharedNonces` unless given its own: two clients on one key in one process
 * do not collide. Bots in separate processes on one key each resync as above; give each its own key to never race.
 *
 * @example const nonces = new NonceManager(); await sendBuild(build, { walletClient, publicClient, nonces });
 */
export class NonceManager {
  private readonly accounts = new Map<string, Account>();

  /**
   * Sends one transaction from `address` on `chainId`: `broadcast(nonce)` signs and sends it at the nonce given;
   * `pendingNonce()` reads the account's next nonce from the chain (pending transactions counted).
   */
  send<T>(
    chainId: number,
    address: string,
    pendingNonce: () => Promise<number>,
    broadcast: (nonce: number) => Promise<T>,
  ): Promise<T> {
    const key = `${chainId}:${address.toLowerCase()}`;
    let account = this.accounts.get(key);
    if (!account) {
      account = { next: null, floor: 0, queue: Promise.resolve() };
      this.accounts.set(key, account);
    }
    const state = account;
    const turn = state.queue.then(() => this.sendInTurn(state, address, pendingNonce, broadcast));
    // The next send waits for this one's broadcast, whether it went out or not.
    state.queue = turn.catch(() => {});
    return turn;
  }

  /** Forgets what it knows of every account: the next send of each reads its nonce from the chain alone. */
  reset(): void {
    for (const account of this.accounts.values()) {
      account.next = null;
      account.floor = 0;
    }
  }

  private async sendInTurn<T>(
    state: Account,
    address: string,
    pendingNonce: () => Promise<number>,
    broadcast: (nonce: number) => Promise<T>,
  ): Promise<T> {
    const taken: number[] = [];
    for (let attempt = 0; ; attempt++) {
      if (state.next === null) state.next = Math.max(await pendingNonce(), state.floor);
      const nonce = state.next;
      try {
        const sent = await broadcast(nonce);
        state.next = nonce + 1;
        state.floor = nonce + 1;
        return sent;
      } catch (cause) {
        // Whatever failed, what the chain holds is known better than what was counted here.
        state.next = null;
        if (!isNonceTrouble(cause)) throw cause;
        // A nonce refused as used is used; one refused as too high is not.
        if (!isNonceTooHigh(cause)) state.floor = Math.max(state.floor, nonce + 1);
        taken.push(nonce);
        if (attempt + 1 >= MAX_NONCE_RETRIES) throw nonceConflict(address, taken, cause);
      }
    }
  }
}

function nonceConflict(address: string, taken: number[], cause: unknown): CompanionError {
  return new CompanionError(
    {
      status: null,
      code: 'NONCE_CONFLICT',
      message:
        `Another sender keeps taking the nonces of ${address}: nonces ${taken.join(', ')} were used before this ` +
        'transaction could be sent.',
      fix:
        'Another program sends from this key. Give each bot its own key, or send from one process through one ' +
        'NonceManager; then send again.',
      detail: { address, nonces: taken },
      retry: { afterMs: 1_000 },
    },
    { cause },
  );
}

/** The manager every sendBuild of this process uses unless given its own. */
export const sharedNonces = new NonceManager();
