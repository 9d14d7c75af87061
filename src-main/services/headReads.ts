import type { Block } from 'viem';
import type { ChainContext } from '../chain/connectChain';
import { type Fees, readFees } from '../chain/readFees';

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
  private memo: { at: number; reads: Promise<HeadFacts> } | null = null;

  constructor(
    private readonly chain: Pick<ChainContext, 'client' | 'chainId' | 'onBlock'>,
    private readonly now: () => number = () => performance.now(),
  ) {
    chain.onBlock(() => {
      this.memo = null;
    });
  }

  read(): Promise<HeadFacts> {
    const at = this.now();
    if (this.memo && at - this.memo.at <= MAX_AGE_MS) return this.memo.reads;
    const { client, chainId } = this.chain;
    const block = client.getBlock({ blockTag: 'latest' });
    const reads = Promise.all([block, readFees(client, chainId, block)]).then(([latest, fees]) => ({
      block: latest,
      fees,
    }));
    const memo = { at, reads };
    this.memo = memo;
    reads.catch(() => {
      if (this.memo === memo) this.memo = null;
    });
    return reads;
  }
}
