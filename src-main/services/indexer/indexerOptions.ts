import type { Address } from 'viem';
import type { ChainContext, ServiceAddresses } from '../../chain/connectChain';
import type { Logger } from '../../log/createLogger';
import type { IndexCursor } from '../../store/indexStore';

/** The parts of the connected chain the indexer uses. */
export type IndexerSource = Pick<ChainContext, 'client' | 'chainId' | 'deployBlock' | 'consistentRead'> &
  Partial<Pick<ChainContext, 'onBlock' | 'heads'>> & {
    addresses: Pick<ServiceAddresses, 'factory' | 'router' | 'referrals'>;
  };

/** How the indexer confirms, paces, logs and prices; everything but `confirmations` has a default. */
export interface IndexerOptions {
  /** Blocks a block must have on top of it before its events are indexed (0 on the devnet). */
  confirmations: number;
  /**
   * Also count as confirmed every block the node calls `finalized` (BSC's fast finality, about two blocks behind the
   * head), where the node answers that tag; where it does not, `confirmations` alone decides. Off on the devnet.
   */
  finalized?: boolean;
  /** Largest block range asked of eth_getLogs; the range halves when the RPC refuses one and grows back after. */
  maxRange?: number;
  /** How often to look for new blocks when the chain does not announce them (milliseconds). */
  pollMs?: number;
  /** How often to log progress while backfilling (milliseconds). */
  progressEveryMs?: number;
  log?: Logger;
  /**
   * Reads the BNB dollar pool's sqrtPriceX96 at a block, to keep with the batch (null when it cannot be read): prices
   * at past blocks would later need an archive node. Asked only for a trade block whose price the pool's own events
   * do not tell (see `dollarPool`), which on a pruned node works only within its last 128 blocks.
   */
  priceAt?: (block: number) => Promise<bigint | null>;
  /**
   * The BNB dollar pool (null when there is none). Its Swap and Initialize events are read with the service's, and
   * each carries the pool's price after it, so a backfill knows the dollar price at every trade block without the
   * state of past blocks, which a free public node does not keep.
   */
  dollarPool?: () => Promise<Address | null>;
  /** Called after each batch is stored (tests and the benchmark follow the indexer with it). */
  onBatch?: (cursor: IndexCursor, events: number) => void;
  /** Called after a reorganization took the index back to `cursor`. */
  onRollBack?: (cursor: IndexCursor) => void;
}
