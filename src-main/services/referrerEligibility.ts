import { type Address, getAbiItem } from 'viem';
import type { ChainContext } from '../chain/connectChain';
import { LaunchFactory } from '../chain/generated/contracts';
import { chainRead } from './chainRead';

/** Referrers who registered by signing a challenge. */
export interface ReferrerDirectory {
  isRegistered(address: Address): Promise<boolean>;
}

/** The indexed launches' creators, and how far the index reaches. */
export interface CreatorLookup {
  isCreator(wallet: Address): boolean;
  /** Every launch up to and including this block is indexed. */
  indexedBlock(): number;
}

const LAUNCHED = getAbiItem({ abi: LaunchFactory.abi, name: 'Launched' });

/**
 * Who may be named as a referrer: a registered referrer, or the creator of any token the factory launched. Creators
 * are found in the index, and in the Launched events of the blocks the index has not reached yet (by the creator
 * topic). A creator stays a creator, so positive answers are kept.
 */
export class ReferrerEligibility {
  private readonly creators = new Set<Address>();

  constructor(
    private readonly chain: ChainContext,
    private readonly directory: ReferrerDirectory,
    private readonly index: CreatorLookup,
  ) {}

  async isEligible(referrer: Address): Promise<boolean> {
    if (this.creators.has(referrer)) return true;
    if (await this.directory.isRegistered(referrer)) return true;
    const factory = this.chain.addresses.factory;
    if (!factory) return false;
    if (this.index.isCreator(referrer)) {
      this.creators.add(referrer);
      return true;
    }
    const unindexed = BigInt(this.index.indexedBlock() + 1);
    const logs = await chainRead('the launches of the referrer', () =>
      this.chain.client.getLogs({
        address: factory,
        event: LAUNCHED,
        args: { creator: referrer },
        fromBlock: unindexed > this.chain.deployBlock ? unindexed : this.chain.deployBlock,
        toBlock: 'latest',
      }),
    );
    if (logs.length > 0) this.creators.add(referrer);
    return logs.length > 0;
  }
}
