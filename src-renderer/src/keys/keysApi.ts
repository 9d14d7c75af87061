import type { Address } from 'viem';
import type { components } from '../../../clients/ts/src/index';
import { MAX_BUDGET_PER_MINUTE, MAX_LABEL_CHARS } from '../../../src-shared/schema/keys';
import { answerOf, api } from '../api/client';
import type { Challenge, SignedChallenge } from './signChallenge';

export type CreatedKey = components['schemas']['CreatedKey'];
export type KeyEntry = components['schemas']['KeyEntry'];
/** A key's own rate budget a minute, given by the app's owner when the key is made. */
export type KeyBudget = NonNullable<KeyEntry['budget']>;

/** The service refuses longer labels; checked here so no signature is spent on one. */
export const MAX_KEY_LABEL_CHARS = MAX_LABEL_CHARS;
/** The most a key's budget may allow of quotes, or of builds, a minute. */
export const MAX_KEY_BUDGET = MAX_BUDGET_PER_MINUTE;

export function fetchKeyChallenge(wallet: Address): Promise<Challenge> {
  return answerOf(api.GET('/keys/challenge', { params: { query: { address: wallet } } }));
}

/** The signed-in wallet's keys; naming the wallet makes a session of another wallet answer SESSION_WALLET_MISMATCH. */
export async function listKeys(wallet: Address): Promise<{ wallet: Address; keys: KeyEntry[] }> {
  const list = await answerOf(api.GET('/keys', { params: { query: { wallet } } }));
  return { ...list, wallet: list.wallet as Address };
}

/**
 * Creates a key for the wallet that signed the challenge; the answer holds the whole key, this once. A budget of its
 * own is the app owner's to give: the service takes it with the run's token, which the client sends when this page has
 * it, that is when it is the app.
 */
export async function createKey(signed: SignedChallenge, label: string, budget?: KeyBudget): Promise<CreatedKey> {
  return answerOf(api.POST('/keys', { body: { ...signed, label, ...(budget ? { budget } : {}) } }));
}

export function revokeKey(id: string): Promise<{ key: KeyEntry }> {
  return answerOf(api.DELETE('/keys/{id}', { params: { path: { id } } }));
}
