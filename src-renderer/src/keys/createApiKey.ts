import type { Address } from 'viem';
import { type CreatedKey, createKey, fetchKeyChallenge, type KeyBudget } from './keysApi';
import { signChallenge } from './signChallenge';

/**
 * Creates an API key by signing the key challenge (no gas, moves nothing), with a rate budget of its own when one is
 * given. 'rejected' when the person turns the message down on the review screen, and nothing is sent.
 */
export async function createApiKey(
  wallet: Address,
  label: string,
  budget?: KeyBudget,
): Promise<CreatedKey | 'rejected'> {
  const signed = await signChallenge(() => fetchKeyChallenge(wallet), { kind: 'key', title: 'Create an API key' });
  if (!signed) return 'rejected';
  return createKey(signed, label.trim(), budget);
}
