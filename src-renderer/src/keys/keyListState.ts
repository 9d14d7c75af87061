import { useQuery } from '@tanstack/react-query';
import type { Address } from 'viem';
import { ApiRequestError } from '../api/apiRequestError';
import { failureOf } from '../failureOf';
import type { WalletFailure } from '../wallet/walletStore';
import { type KeyEntry, listKeys } from './keysApi';

/** What the keys page can show of the list: it needs a signed-in browser, and keys may be off on the server. */
export type KeyListState =
  | { status: 'loading' }
  | { status: 'ready'; keys: KeyEntry[] }
  | { status: 'signed-out'; reason: 'none' | 'expired' | 'other-wallet' }
  | { status: 'off' }
  | { status: 'error'; error: WalletFailure };

/** Codes that mean "sign in first" rather than a fault: no cookie at all, an ended or old session, another wallet. */
const SIGNED_OUT: Record<string, 'none' | 'expired' | 'other-wallet'> = {
  API_KEY_REQUIRED: 'none',
  NO_SESSION: 'none',
  SESSION_EXPIRED: 'expired',
  SESSION_WALLET_MISMATCH: 'other-wallet',
};

/**
 * Asks for the wallet's keys with the browser's session and sorts the answer into what the page shows. Without a
 * session the service answers 401, which the page turns into a sign-in prompt.
 */
export async function loadKeyList(wallet: Address): Promise<KeyListState> {
  try {
    return { status: 'ready', keys: (await listKeys(wallet)).keys };
  } catch (cause) {
    const code = cause instanceof ApiRequestError ? cause.error.code : undefined;
    if (code === 'KEYS_OFF') return { status: 'off' };
    const reason = code === undefined ? undefined : SIGNED_OUT[code];
    if (reason) return { status: 'signed-out', reason };
    return { status: 'error', error: failureOf(cause) };
  }
}

/**
 * The wallet's key list as a query keyed by the wallet, so a list read for another wallet never shows; `load` reads it
 * again (after signing in or out, creating or revoking a key) and settles once the new list is shown.
 */
export function useKeyList(wallet: Address): { list: KeyListState; load: () => Promise<void> } {
  const query = useQuery({ queryKey: ['keys', wallet], queryFn: () => loadKeyList(wallet), retry: false });
  const load = async () => {
    await query.refetch();
  };
  return { list: query.data ?? { status: 'loading' }, load };
}
