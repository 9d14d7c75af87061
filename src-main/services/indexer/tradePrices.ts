import { type Address, getAbiItem, hexToBigInt, numberToHex, toEventSelector } from 'viem';
import type { ChainContext } from '../../chain/connectChain';
import { PancakeV3Pool } from '../../chain/generated/vendor';
import { saysNodeBehind } from '../../chain/nodeBehind';
import type { RawLog, ServiceEvent } from '../../chain/serviceEvents';
import type { Logger } from '../../log/createLogger';
import { ChainMoved, NodeBehind } from './indexerErrors';
import { logsRefusal } from './logsRefusal';

/** The dollar pool's price after a trade block, and that block: where the next look back may stop. */
export type CarriedPrice = { block: number; sqrtPriceX96: bigint } | null;

/** The pool events that set its price: each carries sqrtPriceX96 (Swap's third data word, Initialize's first). */
const SWAP_TOPIC = toEventSelector(getAbiItem({ abi: PancakeV3Pool.abi, name: 'Swap' }));
const INITIALIZE_TOPIC = toEventSelector(getAbiItem({ abi: PancakeV3Pool.abi, name: 'Initialize' }));

/** The first range looked back over for the dollar pool's price at a trade block; it widens eightfold while empty. */
const FIRST_PRICE_WINDOW = 8;
/** How far back from a trade block the dollar pool's last price is looked for before the trade is left unpriced. */
const PRICE_LOOKBACK_BLOCKS = 200_000;

/** The price a pool event leaves the pool at. */
function sqrtPriceOf(log: RawLog): bigint {
  const word = log.topics[0] === SWAP_TOPIC ? 2 : 0;
  return hexToBigInt(`0x${log.data.slice(2 + word * 64, 2 + (word + 1) * 64)}`);
}

/**
 * The BNB dollar price at each trade block, kept with the batch: a trade's earnings in dollars need the price of its
 * block, and reading it later would need an archive node. Taken from the dollar pool's own events where it can be,
 * since a free public node keeps no state of past blocks.
 */
export class TradePrices {
  /** The dollar pool's price after the last trade block priced, and that block: where the next look back may stop. */
  private carried: CarriedPrice = null;
  private unpricedLogged = false;

  constructor(
    private readonly client: ChainContext['client'],
    /** Reads the pool's price at a block from the node's state (see IndexerOptions.priceAt). */
    private readonly priceAt: ((block: number) => Promise<bigint | null>) | undefined,
    private readonly log: Logger,
  ) {}

  /**
   * The dollar price at each trade block of a batch, from the pool's last price-setting event at or before the block
   * (see poolPriceAt), else read at the block, else left out and said once. Returns where the pool's price was left,
   * to `carry` into the next batch once this one is stored. `range` is the log source's: a look back never asks wider.
   */
  async pricesOf(
    events: readonly ServiceEvent[],
    pool: Address | null,
    range: number,
  ): Promise<{ prices: Map<number, bigint>; after: CarriedPrice }> {
    const prices = new Map<number, bigint>();
    const tradeBlocks = [...new Set(events.filter((e) => e.kind === 'trade').map((e) => e.block))].sort(
      (a, b) => a - b,
    );
    let carried = this.carried;
    const unknown: number[] = [];
    for (const block of tradeBlocks) {
      const price = pool ? await this.poolPriceAt(pool, block, carried, range) : null;
      if (price === null) {
        unknown.push(block);
        continue;
      }
      prices.set(block, price);
      carried = { block, sqrtPriceX96: price };
    }
    const priceAt = this.priceAt;
    if (priceAt && unknown.length > 0) {
      await Promise.all(
        unknown.map(async (block) => {
          const price = await priceAt(block).catch(() => null);
          if (price !== null) prices.set(block, price);
        }),
      );
      const missed = unknown.filter((block) => !prices.has(block));
      if (missed.length > 0 && !this.unpricedLogged) {
        this.unpricedLogged = true;
        this.log.warn(
          `indexer: the dollar pool did not trade in the ${PRICE_LOOKBACK_BLOCKS} blocks before block ${missed[0]} and the RPC keeps no state of it: ` +
            'trades without a dollar price are left out of dollar totals',
        );
      }
    }
    return { prices, after: carried };
  }

  /** Keeps where a stored batch left the pool's price: the next batch's look back stops there. */
  carry(after: CarriedPrice): void {
    this.carried = after;
  }

  /** Drops the carried price after a rollback: it may be the price of a block no longer on the chain. */
  forget(): void {
    this.carried = null;
  }

  /**
   * The pool's sqrtPriceX96 as `block` left it: its last Swap or Initialize at or before the block. Looked for back
   * from the block in narrow ranges that widen while they find nothing (8 blocks, then 64, 512, ... up to the batch
   * range), down to the last block priced (whose price stands when nothing happened since) or PRICE_LOOKBACK_BLOCKS.
   * Never every event of the pool: on BSC mainnet the WBNB/USDT pool trades in nearly every block, and reading all of
   * its swaps with ours would swamp the public nodes' result caps. A range refused as too large is narrowed.
   */
  private async poolPriceAt(
    pool: Address,
    block: number,
    carried: CarriedPrice,
    range: number,
  ): Promise<bigint | null> {
    const since = carried !== null && carried.block <= block ? carried : null;
    if (since?.block === block) return since.sqrtPriceX96;
    const floor = since ? since.block + 1 : Math.max(0, block - PRICE_LOOKBACK_BLOCKS);
    let high = block;
    let span = FIRST_PRICE_WINDOW;
    while (high >= floor) {
      const low = Math.max(floor, high - span + 1);
      let found: RawLog[];
      try {
        found = await this.poolLogs(pool, low, high);
      } catch (error) {
        if (saysNodeBehind(error)) throw new NodeBehind(`the node that answered has no block ${high} yet`);
        const refusal = logsRefusal(error);
        if (refusal !== null || low === high) throw error;
        span = Math.max(1, Math.floor((high - low + 1) / 4));
        continue;
      }
      let last: RawLog | undefined;
      for (const log of found) {
        if (log.removed) throw new ChainMoved(`a log of block ${log.blockNumber} was removed`);
        const later =
          !last ||
          Number(log.blockNumber) > Number(last.blockNumber) ||
          (log.blockNumber === last.blockNumber && Number(log.logIndex) > Number(last.logIndex));
        if (later) last = log;
      }
      if (last) return sqrtPriceOf(last);
      high = low - 1;
      span = Math.min(span * 8, range);
    }
    return since ? since.sqrtPriceX96 : null;
  }

  private async poolLogs(pool: Address, from: number, to: number): Promise<RawLog[]> {
    return (await this.client.request(
      {
        method: 'eth_getLogs',
        params: [
          {
            fromBlock: numberToHex(from),
            toBlock: numberToHex(to),
            address: pool,
            topics: [[SWAP_TOPIC, INITIALIZE_TOPIC]],
          },
        ],
      },
      { retryCount: 1 },
    )) as RawLog[];
  }
}
