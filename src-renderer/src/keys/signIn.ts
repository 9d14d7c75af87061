import type { Address } from 'viem';
import type { components } from '../../../clients/ts/src/index';
import { answerOf, api, authBase } from '../api/client';
import { signChallenge } from './signChallenge';

/** A browser session as the service answers it. */
export type SessionJson = components['schemas']['Session'] & { wallet: Address };

/**
 * Signs this browser in as the wallet: a session challenge signed on the review screen starts a 30-day session held in
 * an HttpOnly cookie, which lets the page list and revoke the wallet's keys without an API key. Null when the person
 * rejects the message.
 */
export async function signIn(wallet: Address): Promise<SessionJson | null> {
  const signed = await signChallenge(
    () => answerOf(api.GET('/challenge', { baseUrl: authBase, params: { query: { address: wallet } } })),
    { kind: 'session', title: 'Sign in to manage your API keys' },
  );
  if (!signed) return null;
  return (await answerOf(api.POST('/session', { baseUrl: authBase, body: signed }))) as SessionJson;
}

export function signOut(): Promise<{ signedOut: true }> {
  return answerOf(api.DELETE('/session', { baseUrl: authBase }));
}
