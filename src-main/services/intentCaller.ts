import type { Address } from 'viem';
import { ApiError } from '../core/errors';
import type { KeyHolder } from './apiKeys';

/**
 * Who is asking about prepared requests, as the HTTP layer proved it: the app's own UI (it holds the run's token), a
 * live API key, a signed-in browser (its session, with the CSRF header), or nobody known.
 */
export type IntentCaller =
  | { kind: 'app' }
  | { kind: 'key'; key: KeyHolder }
  | { kind: 'session'; wallet: Address }
  | { kind: 'none' };

/** Where a prepared request came from, as stored with it. */
export type IntentSourceInput = { kind: 'app' } | { kind: 'key'; key: KeyHolder };

const KEY_FIX =
  'Send a live API key in x-api-key (sign GET /keys/challenge, then POST /keys); the app itself asks from its own window.';

const same = (a: Address, b: Address) => a.toLowerCase() === b.toLowerCase();

/**
 * The source a new request is stored with: only a key or the app may prepare one, so every request names who asked.
 * A signed-in browser is a person, not a bot: it trades directly, and so does an unknown caller.
 *
 * @example sourceOf({ kind: 'key', key }) // { kind: 'key', key }
 */
export function sourceOf(caller: IntentCaller): IntentSourceInput {
  if (caller.kind === 'app' || caller.kind === 'key') return caller;
  throw new ApiError(
    'API_KEY_REQUIRED',
    caller.kind === 'session'
      ? 'a prepared request needs an API key: a signed-in browser cannot prepare one'
      : 'a prepared request needs an API key: requests from an unknown source are refused',
    { fix: KEY_FIX },
  );
}

/**
 * Refuses a caller that may not see or act on `wallet`'s requests: the app may, and so may a key of that wallet and
 * that wallet's signed-in browser. Any other key, or a browser signed in as another wallet, may not.
 */
export function requireWalletAccess(caller: IntentCaller, wallet: Address): void {
  switch (caller.kind) {
    case 'app':
      return;
    case 'key':
      if (same(caller.key.wallet, wallet)) return;
      throw new ApiError(
        'API_KEY_REQUIRED',
        `the key ${caller.key.id} is a key of ${caller.key.wallet}; the requests of ${wallet} need a key of that wallet`,
        { field: 'wallet', fix: `Send a key of ${wallet}, sign in as ${wallet}, or open them in the app.` },
      );
    case 'session':
      if (same(caller.wallet, wallet)) return;
      throw new ApiError('SESSION_WALLET_MISMATCH', `signed in as ${caller.wallet}, not as ${wallet}`, {
        field: 'wallet',
        fix: `Sign in as ${wallet}, or name ${caller.wallet}.`,
      });
    case 'none':
      throw new ApiError('API_KEY_REQUIRED', `the requests of ${wallet} need a key of that wallet or its sign-in`, {
        fix: `Send a key of ${wallet} in x-api-key, or sign in as ${wallet} and send x-mm-csrf: 1.`,
      });
  }
}

/** Reading one request: whoever may act on its wallet's requests, and the key that created it (a bot following it). */
export function requireReadAccess(
  caller: IntentCaller,
  intent: { wallet: Address; source: { kind: string; key?: { id: string | null } } },
): void {
  if (caller.kind === 'key' && intent.source.kind === 'key' && intent.source.key?.id === caller.key.id) return;
  requireWalletAccess(caller, intent.wallet);
}
