import type { KnownContracts } from '../../src-shared/inspect/knownContracts';
import type { ServiceAddresses } from '../chain/connectChain';

/**
 * Our contracts on this chain as the shared decoder knows them (src-shared/inspect); null where the network has no
 * router and factory of ours, so nothing can be one of our trades or launches.
 */
export function knownContractsOf(chainId: number, addresses: ServiceAddresses): KnownContracts | null {
  const { factory, router, permit2, referrals, wbnb } = addresses;
  if (!factory || !router) return null;
  return { chainId, factory, router, permit2, referrals: referrals ?? null, wbnb };
}
