import type { Address } from 'viem';
import { apiBase } from '../api/apiBase';
import { deleteJson, postJson } from '../api/postJson';
import { signChallenge } from './signChallenge';

/** Browser sign-in lives beside the v1 API, at /api/auth. */
const authBase = apiBase.replace(/\/v1$/, '/auth');

/** A browser session as the service answers it. */
export interface SessionJson {
  wallet: Address;
  createdAt: string;
  expiresAt: string;
}

/**
 * Signs this browser in as the wallet: a session challenge signed on the review screen starts a 30-day session held in
 * an HttpOnly cookie, which lets the page list and revoke the wallet's keys without an API key. Null when the person
 * rejects the message.
 */
export async function signIn(wallet: Address): Promise<SessionJson | null> {
  const signed = await signChallenge(`${authBase}/challenge?address=${encodeURIComponent(wallet)}`, {
    kind: 'session',
    title: 'Sign in to manage your API keys',
  });
  if (!signed) return null;
  return postJson<SessionJson>(`${authBase}/session`, signed);
}

export function signOut(): Promise<{ signedOut: true }> {
  return deleteJson(`${authBase}/session`);
}
