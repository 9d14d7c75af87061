import type { Address } from 'viem';
import { signChallenge } from '../keys/signChallenge';
import { fetchReferralChallenge, registerReferrer } from './referralsApi';

/**
 * Registers the wallet as a referrer by signing the referral challenge (no gas, moves nothing). 'rejected' when the
 * person turns the message down on the review screen: nothing is sent and the wallet stays unregistered.
 */
export async function registerAsReferrer(wallet: Address): Promise<'registered' | 'rejected'> {
  const signed = await signChallenge(() => fetchReferralChallenge(wallet), {
    kind: 'register',
    title: 'Register as a referrer',
  });
  if (!signed) return 'rejected';
  await registerReferrer(signed);
  return 'registered';
}
