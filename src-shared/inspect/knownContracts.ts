import type { Address } from 'viem';

/**
 * The addresses a build may legitimately call on one chain: the `contracts` of `GET /settings` plus its `chainId`.
 * `referrals` is null where the referral vault is not deployed.
 */
export interface KnownContracts {
  chainId: number;
  factory: Address;
  router: Address;
  permit2: Address;
  referrals: Address | null;
  /** Wrapped BNB: a pair at this address is BNB, paid and received natively. */
  wbnb: Address;
  siteFeeRecipient?: Address;
}

/** A token's symbol and decimals, to show its amounts in whole units. */
export interface TokenInfo {
  symbol: string;
  decimals: number;
}

/** Tokens whose amounts can be shown in whole units, by address (any letter case). */
export type TokenInfos = Readonly<Record<string, TokenInfo>>;

/** Our contracts a transaction may be sent to, by the name the summary shows. */
export type KnownContractName = 'TradeRouter' | 'LaunchFactory' | 'ReferralVault' | 'Permit2';

/** Whether two addresses are the same account, whatever their letter case. */
export function sameAddress(a: string | null | undefined, b: string | null | undefined): boolean {
  return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
}

/**
 * Which of our contracts an address is, so a call can be decoded with the right ABI; null for any other address
 * (a token, or something unknown).
 */
export function knownContractAt(known: KnownContracts, address: string): KnownContractName | null {
  if (sameAddress(address, known.router)) return 'TradeRouter';
  if (sameAddress(address, known.factory)) return 'LaunchFactory';
  if (sameAddress(address, known.referrals)) return 'ReferralVault';
  if (sameAddress(address, known.permit2)) return 'Permit2';
  return null;
}

/**
 * A short label for an address the reviewer may recognise (one of our contracts, WBNB, the fee recipient, a known
 * token), or null: shown beside the address, never instead of it.
 */
export function addressLabel(address: string, known: KnownContracts, tokens: TokenInfos = {}): string | null {
  const contract = knownContractAt(known, address);
  if (contract) return contract;
  if (sameAddress(address, known.wbnb)) return 'WBNB';
  if (sameAddress(address, known.siteFeeRecipient)) return 'site fee recipient';
  if (/^0x0{40}$/i.test(address)) return 'zero address';
  if (sameAddress(address, '0x000000000000000000000000000000000000dEaD')) return 'dead address: burned';
  return tokenInfoAt(tokens, address)?.symbol ?? null;
}

/** A token's symbol and decimals from the map, whatever the letter case of either address. */
export function tokenInfoAt(tokens: TokenInfos, address: string): TokenInfo | undefined {
  const lower = address.toLowerCase();
  for (const [key, info] of Object.entries(tokens)) if (key.toLowerCase() === lower) return info;
  return undefined;
}
