import type { Address } from 'viem';
import type { LifetimeWeeks } from '../../../src-main/services/lifetimeWeeks';
import type { ReferralRecords } from '../../../src-main/services/referralRecords';
import { apiBase } from '../api/apiBase';
import { getJson } from '../api/getJson';
import { postJson } from '../api/postJson';
import type { SignedChallenge } from '../keys/signChallenge';
import type { BuildAnswer } from '../wallet/sendBuild';

/** The spec's Referrer record (GET /referrals/{address}). */
export type ReferrerRecord = Awaited<ReturnType<ReferralRecords['record']>>;
export type Earnings = ReferrerRecord['instant']['earnings']['all'];
/** A claim build; it never needs approval steps, so `requires` is added empty for sendBuild. */
export type ClaimBuild = Awaited<ReturnType<LifetimeWeeks['buildClaim']>> & BuildAnswer;

const enc = encodeURIComponent;

export function fetchReferrer(address: Address): Promise<ReferrerRecord> {
  return getJson(`${apiBase}/referrals/${enc(address)}`);
}

export const referralChallengeUrl = (wallet: Address): string =>
  `${apiBase}/referrals/challenge?address=${enc(wallet)}`;

export function registerReferrer(signed: SignedChallenge): Promise<{ address: Address; registered: true }> {
  return postJson(`${apiBase}/referrals/register`, signed);
}

/** A link to one page of the app carrying the referrer; INVALID_PATH for a path that is not a page of the app. */
export function fetchReferralLink(address: Address, path: string): Promise<{ link: string }> {
  return getJson(`${apiBase}/referrals/${enc(address)}/link?path=${enc(path)}`);
}

/** One claim of every claimable week of the wallet's own lifetime share. */
export async function buildClaim(wallet: Address): Promise<ClaimBuild> {
  const build = await postJson<Awaited<ReturnType<LifetimeWeeks['buildClaim']>>>(`${apiBase}/build/claim`, { wallet });
  return { ...build, requires: [] };
}
