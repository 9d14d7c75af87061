import { apiBase } from './apiBase';
import { getJson } from './getJson';

/** GET /settings, abridged to what the UI reads (spec/api-v1.md, "Settings"). */
export interface Settings {
  apiVersion: 1;
  chainId: number;
  network: string;
  /** factory, router, permit2, quoter, wbnb, siteFeeRecipient, referrals (may be null), and extra keys. */
  contracts: Record<string, string | null>;
  fees: { siteFeeBps: number; referrerBps: number; lifetimeReferralBps: number };
  pairs: { address: string; decimals: number; symbol: string; native?: boolean }[];
}

export function fetchSettings(): Promise<Settings> {
  return getJson<Settings>(`${apiBase}/settings`);
}
