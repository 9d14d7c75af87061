import { type Address, zeroAddress } from 'viem';
import type { ChainContext } from '../chain/connectChain';
import { TradeRouter } from '../chain/generated/contracts';
import { chainRead } from './chainRead';

/** The referrer the wallet is bound to on the router (the first it traded through), or null. */
export async function boundReferrerOf(chain: ChainContext, wallet: Address): Promise<Address | null> {
  const router = chain.addresses.router;
  if (!router) return null;
  const bound = await chainRead("the wallet's referrer binding", () =>
    chain.client.readContract({
      address: router,
      abi: TradeRouter.abi,
      functionName: 'referrerOf',
      args: [wallet],
    }),
  );
  return bound === zeroAddress ? null : bound;
}
