import { type Address, getAddress, zeroAddress } from 'viem';
import type { IndexedLaunch, IndexStore } from '../store/indexStore';

/** What a holder is to the token, as the token page and GET /tokens/{address} label it. */
export type HolderLabel = 'creator' | 'pool' | 'dead' | 'firstBuy' | 'factory';

export interface LabelledHolder {
  holder: Address;
  balance: bigint;
  /** The balance's share of the supply in millionths (1_000_000 is all of it), rounded down. */
  shareMicros: bigint;
  labels: HolderLabel[];
}

export interface TokenHolders {
  /** Addresses holding some of the token. */
  count: number;
  /** The largest holders, largest first. */
  top: LabelledHolder[];
}

/** Where tokens go to be burned; the zero address burns too on tokens that allow it (ours refuse the transfer). */
const DEAD_ADDRESSES: ReadonlySet<Address> = new Set([
  getAddress('0x000000000000000000000000000000000000dEaD'),
  zeroAddress,
]);

/**
 * A launched token's holders from the index, the `limit` largest labelled with what they are to the launch: its
 * creator, its pool (where the laid supply waits to be bought), a dead address, a first-buy recipient, the factory.
 * Shares are of the fixed supply the launch minted.
 *
 * @example tokenHolders(index, index.launch(token), factory, 20).top[0] // the pool, soon after a launch
 */
export function tokenHolders(
  index: IndexStore,
  launch: IndexedLaunch,
  factory: Address | null | undefined,
  limit: number,
): TokenHolders {
  const firstBuy = new Set(index.firstBuyRecipients(launch.token));
  const factoryAt = !factory ? null : getAddress(factory);
  const top = index.topHolders(launch.token, limit).map(({ holder, balance }) => {
    const labels: HolderLabel[] = [];
    if (holder === launch.creator) labels.push('creator');
    if (holder === launch.pool) labels.push('pool');
    if (DEAD_ADDRESSES.has(holder)) labels.push('dead');
    if (firstBuy.has(holder)) labels.push('firstBuy');
    if (holder === factoryAt) labels.push('factory');
    const shareMicros = launch.supply === 0n ? 0n : (balance * 1_000_000n) / launch.supply;
    return { holder, balance, shareMicros, labels };
  });
  return { count: index.holderCount(launch.token), top };
}
