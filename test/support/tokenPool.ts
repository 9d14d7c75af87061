import { type Address, createWalletClient, custom, erc20Abi, getAddress, type PublicClient, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Devnet } from '../../src-main/chain/devnet/startDevnet';
import { LaunchToken } from '../../src-main/chain/generated/contracts';
import { NonfungiblePositionManager, PancakeV3Factory, WETH9 } from '../../src-main/chain/generated/vendor';
import { devnetChain } from '../../src-main/chain/networks';
import { sqrt } from '../../src-main/core/math/sqrt';

export const POOL_FEE = 10000;
const FULL_RANGE = 887_200; // largest multiple of the 1% tier's spacing (200) inside the tick range

export interface TokenPool {
  token: Address;
  pair: Address;
  pool: Address;
}

/**
 * A token with a full-range pool against `pair`, seeded by test account `ownerIndex`: 100,000,000 tokens against
 * `pairLiquidity` of the pair (WBNB is wrapped from the account's BNB); the owner keeps whatever more of `supply` it
 * mints. Router tests trade against pools made this way, independent of the launch factory.
 */
export async function createTokenPool(
  devnet: Devnet,
  client: PublicClient,
  pair: Address,
  { ownerIndex = 1, pairLiquidity = parseEther('100'), supply = parseEther('100000000') } = {},
): Promise<TokenPool> {
  const owner = privateKeyToAccount(devnet.accounts[ownerIndex]?.privateKey ?? '0x');
  const wallet = createWalletClient({ account: owner, chain: devnetChain, transport: custom(devnet.provider) });
  const { positionManager, pancakeFactory, wbnb } = devnet.contracts;
  const tokenAmount = parseEther('100000000');
  const deployed = await wallet.deployContract({
    abi: LaunchToken.abi,
    bytecode: LaunchToken.bytecode,
    args: ['Test', 'TEST', supply],
  });
  const deployedAt = (await client.getTransactionReceipt({ hash: deployed })).contractAddress;
  if (!deployedAt) throw new Error('token not deployed');
  const token = getAddress(deployedAt);
  if (pair === wbnb)
    await wallet.writeContract({ address: wbnb, abi: WETH9.abi, functionName: 'deposit', value: pairLiquidity });
  const max = 2n ** 256n - 1n;
  await wallet.writeContract({
    address: token,
    abi: LaunchToken.abi,
    functionName: 'approve',
    args: [positionManager, max],
  });
  await wallet.writeContract({
    address: pair,
    abi: erc20Abi,
    functionName: 'approve',
    args: [positionManager, max],
  });
  const tokenIs0 = BigInt(token) < BigInt(pair);
  const [token0, token1] = tokenIs0 ? [token, pair] : [pair, token];
  const [amount0, amount1] = tokenIs0 ? [tokenAmount, pairLiquidity] : [pairLiquidity, tokenAmount];
  await wallet.writeContract({
    address: positionManager,
    abi: NonfungiblePositionManager.abi,
    functionName: 'createAndInitializePoolIfNecessary',
    args: [token0, token1, POOL_FEE, sqrt((amount1 << 192n) / amount0)],
  });
  await wallet.writeContract({
    address: positionManager,
    abi: NonfungiblePositionManager.abi,
    functionName: 'mint',
    args: [
      {
        token0,
        token1,
        fee: POOL_FEE,
        tickLower: -FULL_RANGE,
        tickUpper: FULL_RANGE,
        amount0Desired: amount0,
        amount1Desired: amount1,
        amount0Min: 0n,
        amount1Min: 0n,
        recipient: owner.address,
        deadline: 2n ** 40n,
      },
    ],
  });
  const pool = (await client.readContract({
    address: pancakeFactory,
    abi: PancakeV3Factory.abi,
    functionName: 'getPool',
    args: [token0, token1, POOL_FEE],
  })) as Address;
  return { token, pair, pool };
}
