/**
 * What the swap engine needs to know about a PancakeSwap V3 pool: slot0's price and tick, the liquidity in range, the
 * fee tier, and every initialized tick with its liquidityNet. Whoever reads the chain fills it in; the engine
 * never does I/O.
 */

export interface InitializedTick {
  /** A multiple of the pool's tick spacing. */
  index: number;
  /** int128: liquidity added when the price crosses this tick upward (removed when it crosses downward). */
  liquidityNet: bigint;
}

/**
 * A pool at one moment. Never changed once made, only replaced (applyPoolEvents makes the next one): swaps cache what
 * they work out from a state by the state itself (fullSteps.ts).
 */
export interface PoolState {
  /** slot0.sqrtPriceX96 (uint160, Q64.96). */
  readonly sqrtPriceX96: bigint;
  /**
   * slot0.tick as the pool stores it, not recomputed from the price: after a swap down to exactly an initialized
   * tick the pool sits one tick below it, and the next swap starts from there.
   */
  readonly tick: number;
  /** Liquidity in range (uint128). */
  readonly liquidity: bigint;
  /** Fee in pips (1,000,000 = 100%): 100, 500, 2500 or 10000. */
  readonly fee: number;
  /** 1, 10, 50 or 200 for the tiers above. */
  readonly tickSpacing: number;
  /** Every initialized tick, sorted ascending by index, no duplicates. */
  readonly ticks: readonly InitializedTick[];
}
