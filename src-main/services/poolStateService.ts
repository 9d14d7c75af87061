import type { Address } from 'viem';
import type { ChainContext } from '../chain/connectChain';
import { PancakeV3Pool } from '../chain/generated/vendor';
import { MAX_TICK, MIN_TICK } from '../core/math/tickMath';
import type { InitializedTick, PoolState } from '../core/swap/poolState';
import { chainRead } from './chainRead';

/** Bitmap words read in parallel at a time, so a pool with a fine tick spacing does not flood the RPC. */
const WORD_BATCH = 64;

/**
 * Keeps each pool's state (price, liquidity, every initialized tick) for the quote engine. A pool is read from the
 * chain on first use and again after each new block, when trades may have moved it; concurrent requests for the same
 * pool share one read.
 */
export class PoolStateService {
  private readonly cache = new Map<Address, { block: bigint; state: Promise<PoolState> }>();
  private block = 0n;

  constructor(private readonly chain: ChainContext) {
    chain.onBlock((blockNumber) => {
      this.block = blockNumber > this.block ? blockNumber : this.block + 1n;
    });
  }

  get(pool: Address): Promise<PoolState> {
    const cached = this.cache.get(pool);
    if (cached && cached.block === this.block) return cached.state;
    const state = chainRead('the pool state', () => this.read(pool));
    const entry = { block: this.block, state };
    this.cache.set(pool, entry);
    state.catch(() => {
      if (this.cache.get(pool) === entry) this.cache.delete(pool);
    });
    return state;
  }

  private async read(address: Address): Promise<PoolState> {
    const { client } = this.chain;
    const pool = { address, abi: PancakeV3Pool.abi } as const;
    const [slot0, liquidity, fee, tickSpacing] = await Promise.all([
      client.readContract({ ...pool, functionName: 'slot0' }),
      client.readContract({ ...pool, functionName: 'liquidity' }),
      client.readContract({ ...pool, functionName: 'fee' }),
      client.readContract({ ...pool, functionName: 'tickSpacing' }),
    ]);
    // The bitmap has one bit per usable tick (tick / spacing), 256 to a word.
    const firstWord = Math.floor(Math.ceil(MIN_TICK / tickSpacing) / 256);
    const lastWord = Math.floor(Math.floor(MAX_TICK / tickSpacing) / 256);
    const indexes: number[] = [];
    for (let start = firstWord; start <= lastWord; start += WORD_BATCH) {
      const words = Array.from({ length: Math.min(WORD_BATCH, lastWord - start + 1) }, (_, i) => start + i);
      const bitmaps = await Promise.all(
        words.map((word) => client.readContract({ ...pool, functionName: 'tickBitmap', args: [word] })),
      );
      words.forEach((word, i) => {
        let bits = bitmaps[i] ?? 0n;
        for (let bit = 0; bits !== 0n; bit++, bits >>= 1n) {
          if (bits & 1n) indexes.push((word * 256 + bit) * tickSpacing);
        }
      });
    }
    const ticks: InitializedTick[] = await Promise.all(
      indexes.map(async (index) => {
        const info = await client.readContract({ ...pool, functionName: 'ticks', args: [index] });
        return { index, liquidityNet: info[1] };
      }),
    );
    return { sqrtPriceX96: slot0[0], tick: slot0[1], liquidity, fee, tickSpacing, ticks };
  }
}
