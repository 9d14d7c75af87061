import { type Address, encodeAbiParameters, getCreate2Address, type Hex, keccak256 } from 'viem';

/**
 * PancakeSwap V3's pool init code hash: keccak256 of the pool's creation code, as its periphery on BSC has it compiled
 * in. Our TradeRouter has the same value compiled in (POOL_INIT_CODE_HASH in TradeRouter.sol) to find pools without
 * asking the factory; poolAddress.test.ts keeps the two equal.
 */
export const PANCAKE_POOL_INIT_CODE_HASH: Hex = '0x6ce8eb472fa82df5469c6ab6d485f17c3ad13c8cd7af59b3d4a8026c5ce0f7e2';

/**
 * Where the pool of two tokens at a fee tier is (or will be): the CREATE2 address from the pool deployer, the sorted
 * pair and the fee, as the router computes it on chain.
 *
 * @example pancakePoolAddress(poolDeployer, wbnb, usdt, 500) // the WBNB/USDT 0.05% pool
 */
export function pancakePoolAddress(
  poolDeployer: Address,
  tokenA: Address,
  tokenB: Address,
  fee: number,
  initCodeHash: Hex = PANCAKE_POOL_INIT_CODE_HASH,
): Address {
  const [token0, token1] = BigInt(tokenA) < BigInt(tokenB) ? [tokenA, tokenB] : [tokenB, tokenA];
  const salt = keccak256(
    encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'uint24' }], [token0, token1, fee]),
  );
  return getCreate2Address({ from: poolDeployer, salt, bytecodeHash: initCodeHash });
}
