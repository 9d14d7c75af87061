import type { Block } from 'viem';
import type { ChainContext } from '../chain/connectChain';
import { type Fees, readFees } from '../chain/readFees';
import { BlockMemo } from './blockMemo';

/** The longest a read is reused, even when no new block was announced (a chain whose blocks are polled for). */
const MAX_AGE_MS = 1_000;

export interface HeadFacts {
  block: Block;
  fees: Fees;
}

/**
 * The latest block and the fees to pay on top of it, read once for every build asking until the chain announces its
 * next block (or a second passes): a burst of builds at one block, a sniper's at a busy launch, asks the node once
 * instead of four times a build. A failed read is not kept.
 *
 * @example const { block, fees } = await headReads.read();
 */
export class HeadReads {
  private readonly memo: BlockMemo<HeadFacts>;

  constructor(chain: Pick<ChainContext, 'client' | 'chainId' | 'onBlock'>, now?: () => number) {
    const { client, chainId } = chain;
    const read = async (): Promise<HeadFacts> => {
      const block = client.getBlock({ blockTag: 'latest' });
      const [latest, fees] = await Promise.all([block, readFees(client, chainId, block)]);
      return { block: latest, fees };
    };
    this.memo = new BlockMemo(chain, read, MAX_AGE_MS, now);
  }

  read(): Promise<HeadFacts> {
    return this.memo.get();
  }
}
