import type { Address } from 'viem';
import { AddressSchema } from '../schema/common';
import type { KnownContracts, TokenInfos } from './knownContracts';

/** What the inspector takes from a `GET /settings` answer. */
export interface InspectSettings {
  known: KnownContracts;
  /** The listed pair currencies (BNB under the WBNB address). */
  tokens: TokenInfos;
  limits: { tradeDeadlineSeconds: number; permitDays: number };
}

/** The spec's limits, used when no settings say otherwise. */
export const DEFAULT_LIMITS = { tradeDeadlineSeconds: 1200, permitDays: 30 } as const;

/**
 * Reads the contracts, pair currencies and time limits out of a saved `GET /settings` answer, so a build can be
 * checked against the addresses the service announced without asking it again. Field by field rather than with the
 * whole SettingsSchema: a saved answer with only what the check needs (chainId and the contracts) is enough.
 */
export function readSettings(json: unknown): InspectSettings | { error: string } {
  if (typeof json !== 'object' || json === null) return { error: 'the settings are not a JSON object' };
  const s = json as Record<string, unknown>;
  if (typeof s.chainId !== 'number' || !Number.isSafeInteger(s.chainId))
    return { error: 'settings.chainId is missing' };
  const contracts = (s.contracts ?? {}) as Record<string, unknown>;
  const address = (name: string): Address | undefined =>
    AddressSchema.safeParse(contracts[name]).success ? (contracts[name] as Address) : undefined;
  const { factory, router, permit2, wbnb } = {
    factory: address('factory'),
    router: address('router'),
    permit2: address('permit2'),
    wbnb: address('wbnb'),
  };
  if (!factory || !router || !permit2 || !wbnb) {
    return { error: 'settings.contracts lacks factory, router, permit2 or wbnb' };
  }
  const siteFeeRecipient = address('siteFeeRecipient');
  const tokens: Record<string, { symbol: string; decimals: number }> = {};
  for (const pair of Array.isArray(s.pairs) ? s.pairs : []) {
    const p = pair as Record<string, unknown>;
    if (typeof p.address === 'string' && typeof p.symbol === 'string' && typeof p.decimals === 'number') {
      tokens[p.address] = { symbol: p.symbol, decimals: p.decimals };
    }
  }
  const limits = (s.limits ?? {}) as Record<string, unknown>;
  return {
    known: {
      chainId: s.chainId,
      factory,
      router,
      permit2,
      referrals: address('referrals') ?? null,
      wbnb,
      ...(siteFeeRecipient ? { siteFeeRecipient } : {}),
    },
    tokens,
    limits: {
      tradeDeadlineSeconds:
        typeof limits.tradeDeadlineSeconds === 'number'
          ? limits.tradeDeadlineSeconds
          : DEFAULT_LIMITS.tradeDeadlineSeconds,
      permitDays: typeof limits.permitDays === 'number' ? limits.permitDays : DEFAULT_LIMITS.permitDays,
    },
  };
}
