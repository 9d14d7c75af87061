import type { components } from '../../../clients/ts/src/index';
import { signWithReview } from '../wallet/sendBuild';

export type Challenge = components['schemas']['Challenge'];

export interface SignedChallenge {
  nonce: string;
  signature: `0x${string}`;
}

/**
 * Fetches a challenge, shows its exact message on the review screen and has the signer sign it: the shared first half
 * of registering as a referrer, creating an API key and signing in. Null when the person rejects the message, so the
 * caller sends nothing.
 */
export async function signChallenge(
  fetchChallenge: () => Promise<Challenge>,
  review: { kind: string; title: string },
): Promise<SignedChallenge | null> {
  const challenge = await fetchChallenge();
  const signed = await signWithReview({ ...review, message: challenge.message });
  return signed ? { nonce: challenge.nonce, signature: signed.signature } : null;
}
