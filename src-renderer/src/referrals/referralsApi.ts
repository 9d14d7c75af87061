import type { Address } from 'viem';
import type { components } from '../../../clients/ts/src/index';
import { answerOf, api } from '../api/client';
import type { Challenge, SignedChallenge } from '../keys/signChallenge';
import type { BuildAnswer } from '../wallet/sendBuild';

/** The spec's Referrer record (GET /referrals/{address}). */
export type ReferrerRecord = components['schemas']['Referrer'] & { address: Address };
export type Earnings = ReferrerRecord['instant']['earnings']['all'];
/** A claim build; it never needs approval steps, so `requires` is added empty for sendBuild. */
export type ClaimBuild = components['schemas']['ClaimBuild'] & BuildAnswer;

export async function fetchReferrer(address: Address): Promise<ReferrerRecord> {
  return (await answerOf(api.GET('/referrals/{address}', { params: { path: { address } } }))) as ReferrerRecord;
}

export function fetchReferralChallenge(wallet: Address): Promise<Challenge> {
  return answerOf(api.GET('/referrals/challenge', { params: { query: { address: wallet } } }));
}

export function registerReferrer(signed: SignedChallenge): Promise<components['schemas']['Registration']> {
  return answerOf(api.POST('/referrals/register', { body: signed }));
}

/** A link to one page of the app carrying the referrer; INVALID_PATH for a path that is not a page of the app. */
export function fetchReferralLink(address: Address, path: string): Promise<{ link: string }> {
  return answerOf(api.GET('/referrals/{address}/link', { params: { path: { address }, query: { path } } }));
}

/** One claim of every claimable week of the wallet's own lifetime share. */
export async function buildClaim(wallet: Address): Promise<ClaimBuild> {
  const build = await answerOf(api.POST('/build/claim', { body: { wallet } }));
  return { ...build, requires: [] };
}
