import type { Challenge } from '../../../src-main/services/challenges';
import { getJson } from '../api/getJson';
import { signWithReview } from '../wallet/sendBuild';

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
  url: string,
  review: { kind: string; title: string },
): Promise<SignedChallenge | null> {
  const challenge = await getJson<Challenge>(url);
  const signed = await signWithReview({ ...review, message: challenge.message });
  return signed ? { nonce: challenge.nonce, signature: signed.signature } : null;
}
