import {
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  encodeAbiParameters,
  getCreate2Address,
  keccak256,
  type PublicClient,
  parseEther,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEVNET_BNB_PRICE_USD, WBNB_USDT_FEE } from '../src-main/chain/devnet/deployDevnet';
import { type Devnet, startDevnet } from '../src-main/chain/devnet/startDevnet';
import { DevStablecoin, IPermit2, ServiceConfig } from '../src-main/chain/generated/contracts';
import { PancakeV3Factory, PancakeV3Pool, QuoterV2, SwapRouter } from '../src-main/chain/generated/vendor';
import { devnetChain } from '../src-main/chain/networks';
import { devnetAddresses } from '../src-shared/inspect/devnetContracts';

/** PancakeSwap V3's pool init-code hash on BSC, as its periphery has it compiled in. */
const PANCAKE_POOL_INIT_CODE_HASH = '0x6ce8eb472fa82df5469c6ab6d485f17c3ad13c8cd7af59b3d4a8026c5ce0f7e2';

let devnet: Devnet;
let client: PublicClient;

beforeAll(async () => {
  devnet = await startDevnet();
  client = createPublicClient({ chain: devnetChain, transport: custom(devnet.provider) }) as PublicClient;
});

describe('embedded devnet', () => {
  it('deploys every contract, at the same addresses on every start', async () => {
    for (const [name, address] of Object.entries(devnet.contracts)) {
      if (name === 'siteFeeRecipient') continue;
      const code = await client.getCode({ address });
      expect(code && code.length > 2, `${name} at ${address} has code`).toBe(true);
    }
    const again = await startDevnet();
    expect(again.contracts).toEqual(devnet.contracts);
    expect(again.fingerprint).toBe(devnet.fingerprint);
    // Pinned across versions too: a change here moves every address users and bots have stored.
    expect(devnet.contracts).toMatchSnapshot();
    // What a fork of a devnet (and the offline inspector) computes without starting one.
    const { operator, ...computed } = devnetAddresses();
    const { wbnbUsdtPool: _pool, siteFeeRecipient, ...deployed } = devnet.contracts;
    expect(computed).toEqual(deployed);
    expect(operator).toBe(siteFeeRecipient);
  });

  it('creates pools with the real PancakeSwap V3 init-code hash', async () => {
    expect(keccak256(PancakeV3Pool.bytecode)).toBe(PANCAKE_POOL_INIT_CODE_HASH);
    const { wbnb, usdt, poolDeployer, pancakeFactory, wbnbUsdtPool } = devnet.contracts;
    const [token0, token1] = BigInt(wbnb) < BigInt(usdt) ? [wbnb, usdt] : [usdt, wbnb];
    const computed = getCreate2Address({
      from: poolDeployer,
      salt: keccak256(
        encodeAbiParameters(
          [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }],
          [token0, token1, WBNB_USDT_FEE],
        ),
      ),
      bytecodeHash: PANCAKE_POOL_INIT_CODE_HASH,
    });
    expect(computed).toBe(wbnbUsdtPool);
    const fromFactory = await client.readContract({
      address: pancakeFactory,
      abi: PancakeV3Factory.abi,
      functionName: 'getPool',
      args: [token0, token1, WBNB_USDT_FEE],
    });
    expect(fromFactory).toBe(computed);
  });

  it('funds the 20 test accounts with 10,000 BNB and 1,000,000 USDT each', async () => {
    expect(devnet.accounts).toHaveLength(20);
    expect(devnet.accounts[0]?.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    for (const account of devnet.accounts.slice(1)) {
      expect(await client.getBalance({ address: account.address })).toBe(parseEther('10000'));
      const usdt = await client.readContract({
        address: devnet.contracts.usdt,
        abi: DevStablecoin.abi,
        functionName: 'balanceOf',
        args: [account.address],
      });
      expect(usdt).toBe(parseEther('1000000'));
    }
    const symbol = await client.readContract({
      address: devnet.contracts.usdt,
      abi: DevStablecoin.abi,
      functionName: 'symbol',
    });
    expect(symbol).toBe('USDT');
  });

  it('has Permit2 at its canonical address, with a domain for this chain', async () => {
    const separator = await client.readContract({
      address: devnet.contracts.permit2,
      abi: IPermit2.abi,
      functionName: 'DOMAIN_SEPARATOR',
    });
    const expected = keccak256(
      encodeAbiParameters(
        [{ type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'address' }],
        [
          keccak256(new TextEncoder().encode('EIP712Domain(string name,uint256 chainId,address verifyingContract)')),
          keccak256(new TextEncoder().encode('Permit2')),
          31337n,
          devnet.contracts.permit2,
        ],
      ),
    );
    expect(separator).toBe(expected);
  });

  it('prices BNB near the seeded dollar price in a pool with real liquidity', async () => {
    const pool = { address: devnet.contracts.wbnbUsdtPool, abi: PancakeV3Pool.abi } as const;
    const [slot0, liquidity, token0] = await Promise.all([
      client.readContract({ ...pool, functionName: 'slot0' }),
      client.readContract({ ...pool, functionName: 'liquidity' }),
      client.readContract({ ...pool, functionName: 'token0' }),
    ]);
    expect(liquidity > 10n ** 21n).toBe(true);
    const sqrtPriceX96 = slot0[0];
    // price of token0 in token1, scaled by 1e6
    const price6 = (sqrtPriceX96 * sqrtPriceX96 * 10n ** 6n) >> 192n;
    const usdPerBnb6 = token0 === devnet.contracts.wbnb ? price6 : 10n ** 12n / price6;
    expect(
      usdPerBnb6 > (DEVNET_BNB_PRICE_USD - 1n) * 10n ** 6n && usdPerBnb6 < (DEVNET_BNB_PRICE_USD + 1n) * 10n ** 6n,
    ).toBe(true);
  });

  it('swaps through the WBNB/USDT pool for exactly what QuoterV2 quoted, both ways', async () => {
    const trader = devnet.accounts[7];
    if (!trader) throw new Error('no test account 7');
    const account = privateKeyToAccount(trader.privateKey);
    const wallet = createWalletClient({ account, chain: devnetChain, transport: custom(devnet.provider) });
    const { wbnb, usdt, swapRouter, quoter } = devnet.contracts;
    const usdtBalance = () =>
      client.readContract({
        address: usdt,
        abi: DevStablecoin.abi,
        functionName: 'balanceOf',
        args: [account.address],
      });

    async function quote(tokenIn: Address, tokenOut: Address, amountIn: bigint): Promise<bigint> {
      const { result } = await client.simulateContract({
        address: quoter,
        abi: QuoterV2.abi,
        functionName: 'quoteExactInputSingle',
        args: [{ tokenIn, tokenOut, amountIn, fee: WBNB_USDT_FEE, sqrtPriceLimitX96: 0n }],
      });
      return result[0];
    }
    async function swap(tokenIn: Address, tokenOut: Address, amountIn: bigint, value: bigint) {
      const hash = await wallet.writeContract({
        address: swapRouter,
        abi: SwapRouter.abi,
        functionName: 'exactInputSingle',
        args: [
          {
            tokenIn,
            tokenOut,
            fee: WBNB_USDT_FEE,
            recipient: account.address,
            deadline: 2n ** 40n,
            amountIn,
            amountOutMinimum: 0n,
            sqrtPriceLimitX96: 0n,
          },
        ],
        value,
      });
      expect((await client.getTransactionReceipt({ hash })).status).toBe('success');
    }

    // BNB -> USDT, paid natively: the router wraps it.
    const bnbIn = parseEther('3.25');
    const quotedUsdt = await quote(wbnb, usdt, bnbIn);
    const before = await usdtBalance();
    await swap(wbnb, usdt, bnbIn, bnbIn);
    expect((await usdtBalance()) - before).toBe(quotedUsdt);

    // USDT -> WBNB, large enough to move the price a long way.
    const usdtIn = parseEther('250000');
    await wallet.writeContract({
      address: usdt,
      abi: DevStablecoin.abi,
      functionName: 'approve',
      args: [swapRouter, usdtIn],
    });
    const quotedWbnb = await quote(usdt, wbnb, usdtIn);
    const wbnbBefore = await client.readContract({
      address: wbnb,
      abi: DevStablecoin.abi,
      functionName: 'balanceOf',
      args: [account.address],
    });
    await swap(usdt, wbnb, usdtIn, 0n);
    const wbnbAfter = await client.readContract({
      address: wbnb,
      abi: DevStablecoin.abi,
      functionName: 'balanceOf',
      args: [account.address],
    });
    expect(wbnbAfter - wbnbBefore).toBe(quotedWbnb);
  });

  it('starts the service config with the spec fee rates, owned by the operator', async () => {
    const fees = await client.readContract({
      address: devnet.contracts.config,
      abi: ServiceConfig.abi,
      functionName: 'fees',
    });
    expect(fees).toEqual([100, 20, 1500, devnet.accounts[0]?.address]);
    const owner = await client.readContract({
      address: devnet.contracts.config,
      abi: ServiceConfig.abi,
      functionName: 'owner',
    });
    expect(owner).toBe(devnet.accounts[0]?.address);
  });
});
