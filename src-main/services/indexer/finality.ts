import { BaseError, type Hex, RpcRequestError } from 'viem';
import type { ChainContext } from '../../chain/connectChain';
import type { HeadTracker } from '../../chain/headTracker';
import type { Logger } from '../../log/createLogger';

/** How often the `finalized` tag is asked again of a node that did not answer it. */
const FINALIZED_PROBE_MS = 60_000;
/** A finalized block deeper than usual is asked again this many times in a pass, and in this many passes running. */
const FINALIZED_ASKS_AGAIN = 3;
const FINALIZED_DEEPER_PASSES = 3;

/**
 * The nodes' finalized block (BSC's fast finality, about two blocks behind the head), which confirms blocks sooner
 * than a block count where the node answers the tag. Kept across passes because over load-balanced nodes one answer
 * may come from a node behind: the highest answer stands, and how deep finality usually is tells a late answer.
 */
export class Finality {
  /**
   * The highest finalized block the nodes reported, whether they answer the tag (null: not asked yet), and how far
   * below the head their finality usually is.
   */
  private finality: {
    answered: boolean | null;
    block: number | null;
    depth: number | null;
    /** Passes in a row whose finalized block was deeper than `depth`. */
    deeperPasses: number;
    askAgainAt: number;
  } = { answered: null, block: null, depth: null, deeperPasses: 0, askAgainAt: 0 };

  constructor(
    private readonly client: ChainContext['client'],
    /** Off on the devnet, and where the option is off: `confirmations` alone decides. */
    private readonly enabled: boolean,
    private readonly heads: HeadTracker | null,
    private readonly log: Logger,
  ) {}

  /** The node's finalized block for /status (null: not asked, or not answered). */
  get reported(): number | null {
    return this.finality.answered ? this.finality.block : null;
  }

  /**
   * The newest block the nodes call finalized (the highest any answered: a node behind answers lower), or null where
   * the option is off or the node does not answer the tag, which is asked again only every minute. A request that did
   * not reach the node fails the pass like any other read. `lookAgainSoon`: the block was deeper than usual, so the
   * next pass should come shortly rather than at the next block.
   */
  async finalizedBlock(): Promise<{ block: number | null; lookAgainSoon: boolean }> {
    const finality = this.finality;
    if (!this.enabled || (finality.answered === false && Date.now() < finality.askAgainAt)) {
      return { block: null, lookAgainSoon: false };
    }
    let number = await this.askFinalized();
    if (number === null) {
      if (finality.answered !== false)
        this.log.warn('indexer: the RPC answers no finalized block: confirming by block count');
      this.finality = {
        answered: false,
        block: null,
        depth: null,
        deeperPasses: 0,
        askAgainAt: Date.now() + FINALIZED_PROBE_MS,
      };
      return { block: null, lookAgainSoon: false };
    }
    if (finality.answered === false)
      this.log.info('indexer: the RPC answers the finalized block now: confirming by it');
    // Deeper under the head than the nodes' finality usually is: the node asked is likely behind, and another may
    // already have finalized a newer block. Asked again a few times (each request may land on another node).
    const head = this.heads?.latest() ?? null;
    const deeper = (n: number) => head !== null && finality.depth !== null && head - n > finality.depth;
    for (let again = 0; again < FINALIZED_ASKS_AGAIN && deeper(number); again++) {
      number = Math.max(number, (await this.askFinalized()) ?? number);
    }
    const block = Math.max(number, finality.block ?? number);
    const depth = head === null ? finality.depth : head - block;
    if (deeper(block) && finality.deeperPasses < FINALIZED_DEEPER_PASSES) {
      // Still deeper: looked at again shortly rather than at the next block, a few passes running; after that the
      // nodes' finality is taken to have slowed, and the new depth is the usual one.
      this.finality = { ...finality, answered: true, block, deeperPasses: finality.deeperPasses + 1 };
      return { block, lookAgainSoon: true };
    }
    this.finality = { answered: true, block, depth, deeperPasses: 0, askAgainAt: 0 };
    return { block, lookAgainSoon: false };
  }

  /** The node's `finalized` block number; null where it answers none (a JSON-RPC error, or null). */
  private async askFinalized(): Promise<number | null> {
    try {
      const block = (await this.client.request({
        method: 'eth_getBlockByNumber',
        params: ['finalized', false],
      })) as { number: Hex } | null;
      return block ? Number(block.number) : null;
    } catch (error) {
      if (!(error instanceof BaseError) || !error.walk((e) => e instanceof RpcRequestError)) throw error;
      return null;
    }
  }
}
