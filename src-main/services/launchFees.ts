import { type Address, encodePacked, keccak256 } from 'viem';
import type { ChainContext } from '../chain/connectChain';
import { IPancakeV3Pool, LaunchFactory } from '../chain/generated/contracts';
import { ApiError } from '../core/errors';
import { uncollectedFees } from '../core/swap/positionFees';
import { chainRead } from './chainRead';

/** A launch as the factory keeps it now, with what its locked positions have earned and not yet handed over. */
export interface LaunchFeeState {
  creator: Address;
  /** Who collect pays: `royaltyTo`, or the creator when it named nobody. */
  recipient: Address;
  burnBps: number;
  pool: Address;
  pair: Address;
  /** The pair currency the factory holds for a later buy-back. */
  buybackPending: bigint;
  /** The pool's price now (token1 per token0, Q96). */
  sqrtPriceX96: bigint;
  /** Fees the positions would hand over if collected now, in the pair and in the token. */
  uncollected: { pair: bigint; token: bigint };
  blockNumber: bigint;
}

const ZERO = '0x0000000000000000000000000000000000000000';

/**
 * Reads a launched token's record from the factory and its positions from the pool, all at one block, and works out
 * each position's uncollected fees with the pool's own arithmetic (`uncollectedFees`): what `collect` would take from
 * the pool if it were sent now. UNKNOWN_TOKEN when the factory has no record of the token.
 *
 * @example const state = await readLaunchFees(chain, token) // { recipient, uncollected: { pair, token }, buybackPending, … }
 */
export async function readLaunchFees(chain: ChainContext, token: Address, at?: bigint): Promise<LaunchFeeState> {
  const factory = chain.addresses.factory;
  if (!factory) throw new ApiError('NOT_DEPLOYED', `the launch factory is not deployed on ${chain.network}`);
  const { client } = chain;
  return chainRead("the launch's fees", async () => {
    const blockNumber = at ?? (await client.getBlockNumber({ cacheTime: 0 }));
    const record = await client.readContract({
      address: factory,
      abi: LaunchFactory.abi,
      functionName: 'launchOf',
      args: [token],
      blockNumber,
    });
    if (record.pool === ZERO) {
      throw new ApiError('UNKNOWN_TOKEN', `${token} was not launched by this service's factory`, { field: 'token' });
    }
    const pool = { address: record.pool, abi: IPancakeV3Pool.abi, blockNumber } as const;
    const [slot0, global0, global1] = await Promise.all([
      client.readContract({ ...pool, functionName: 'slot0' }),
      client.readContract({ ...pool, functionName: 'feeGrowthGlobal0X128' }),
      client.readContract({ ...pool, functionName: 'feeGrowthGlobal1X128' }),
    ]);
    const [sqrtPriceX96, tick] = slot0;
    const ranges = await Promise.all(
      record.ranges.map(async ({ tickLower, tickUpper }) => {
        const key = keccak256(encodePacked(['address', 'int24', 'int24'], [factory, tickLower, tickUpper]));
        const [lower, upper, position] = await Promise.all([
          client.readContract({ ...pool, functionName: 'ticks', args: [tickLower] }),
          client.readContract({ ...pool, functionName: 'ticks', args: [tickUpper] }),
          client.readContract({ ...pool, functionName: 'positions', args: [key] }),
        ]);
        return uncollectedFees({
          tickLower,
          tickUpper,
          tick,
          feeGrowthGlobal0X128: global0,
          feeGrowthGlobal1X128: global1,
          lower: { feeGrowthOutside0X128: lower[2], feeGrowthOutside1X128: lower[3] },
          upper: { feeGrowthOutside0X128: upper[2], feeGrowthOutside1X128: upper[3] },
          position: {
            liquidity: position[0],
            feeGrowthInside0LastX128: position[1],
            feeGrowthInside1LastX128: position[2],
            tokensOwed0: position[3],
            tokensOwed1: position[4],
          },
        });
      }),
    );
    const tokenIs0 = token.toLowerCase() < record.pair.toLowerCase();
    let pair = 0n;
    let tokens = 0n;
    for (const { amount0, amount1 } of ranges) {
      pair += tokenIs0 ? amount1 : amount0;
      tokens += tokenIs0 ? amount0 : amount1;
    }
    return {
      creator: record.creator,
      recipient: record.royaltyTo === ZERO ? record.creator : record.royaltyTo,
      burnBps: record.burnBps,
      pool: record.pool,
      pair: record.pair,
      buybackPending: record.buybackPending,
      sqrtPriceX96,
      uncollected: { pair, token: tokens },
      blockNumber,
    };
  });
}
