import { type Address, decodeFunctionData, isAddressEqual } from 'viem';
import type { UnsignedTxWei } from '../../src-shared/schema/unsignedTx';
import type { ServiceAddresses } from '../chain/connectChain';
import { LaunchFactory, TradeRouter } from '../chain/generated/contracts';
import type { PrivateRpc } from '../chain/privateRpc';

/**
 * Where the app sends what a mempool watcher must not see: a block builder's private RPC. Launches always go there
 * when one is set; buys and sells when `trades` is on; everything else (approvals, claims, messages) never does.
 */
export interface PrivateLane {
  rpc: PrivateRpc;
  trades: boolean;
}

const TRADES = new Set(['buyExactIn', 'buyExactOut', 'sellExactIn', 'sellExactOut']);

/**
 * What a transaction is, as far as private sending cares: a launch of our factory, a trade of our router, or
 * neither (null). Read from the call itself, not from the label the page sent with it, so neither a mislabelled
 * request nor a bot's prepared launch can put a launch in the public mempool.
 *
 * @example privateCallOf(build.tx, chain.addresses) // 'launch'
 */
export function privateCallOf(
  tx: Pick<UnsignedTxWei, 'to' | 'data'>,
  addresses: Pick<ServiceAddresses, 'factory' | 'router'>,
): 'launch' | 'trade' | null {
  const at = (contract: Address | undefined) => contract !== undefined && isAddressEqual(contract, tx.to);
  try {
    if (at(addresses.factory)) {
      return decodeFunctionData({ abi: LaunchFactory.abi, data: tx.data }).functionName === 'launch' ? 'launch' : null;
    }
    if (at(addresses.router)) {
      return TRADES.has(decodeFunctionData({ abi: TradeRouter.abi, data: tx.data }).functionName) ? 'trade' : null;
    }
  } catch {
    // Data that is no call of the contract: the guard refuses it before it gets here.
  }
  return null;
}

/** Whether this transaction goes through the lane: a launch always, a trade when the lane takes trades. */
export function goesPrivately(
  lane: PrivateLane | null,
  tx: Pick<UnsignedTxWei, 'to' | 'data'>,
  addresses: Pick<ServiceAddresses, 'factory' | 'router'>,
): boolean {
  if (!lane) return false;
  const call = privateCallOf(tx, addresses);
  return call === 'launch' || (call === 'trade' && lane.trades);
}
