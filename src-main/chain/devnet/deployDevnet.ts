import {
  type Abi,
  type Address,
  createWalletClient,
  custom,
  encodeAbiParameters,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  keccak256,
  parseEther,
  publicActions,
} from 'viem';
import { sqrt } from '../../core/math/sqrt';
import {
  DevStablecoin,
  LaunchFactory,
  PoolDeployer,
  ReferralVault,
  ServiceConfig,
  TradeRouter,
} from '../generated/contracts';
import {
  NonfungiblePositionManager,
  PancakeV3Factory,
  PancakeV3Pool,
  PERMIT2_RUNTIME,
  QuoterV2,
  SwapRouter,
  TickLens,
  WETH9,
} from '../generated/vendor';
import { devnetChain, type ExchangeAddresses, PERMIT2_ADDRESS } from '../networks';
import { type EdrProvider, setNextBlockTimestamp } from './edrProvider';
import type { TestAccount } from './testAccounts';

/** Where everything the devnet deploys lives; the same on every start. */
export interface DevnetContracts extends ExchangeAddresses {
  tickLens: Address;
  /** The service's on-chain configuration: fee rates, launch fee, pause, fee recipient. */
  config: Address;
  /** Buys and sells launched tokens, taking the site fee and the referrer's cut. */
  router: Address;
  /** Launches tokens: creates them, opens their pools, lays the supply, keeps the positions. */
  factory: Address;
  /** Pays the weekly lifetime referral share against Merkle roots. */
  referrals: Address;
  /** The WBNB/USDT pool (0.05% tier) that prices BNB in dollars. */
  wbnbUsdtPool: Address;
  siteFeeRecipient: Address;
}

/** Start of devnet time (2026-01-01T00:00:00Z); deployment block n is mined at GENESIS_TIME + n seconds. */
export const GENESIS_TIME = 1_767_225_600n;
export const DEVNET_BALANCE_WEI = parseEther('10000');
export const DEVNET_USDT_EACH = parseEther('1000000');
/** Dollars per BNB in the seeded WBNB/USDT pool. */
export const DEVNET_BNB_PRICE_USD = 600n;
export const WBNB_USDT_FEE = 500;
/** Fee rates the service starts with (the spec's testnet values). */
export const DEVNET_FEES = { siteFeeBps: 100, referrerBps: 20, lifetimeReferralBps: 1500 } as const;

const USDT_RESERVE = parseEther('10000000');
/** BNB the operator wraps to seed the WBNB/USDT pool, in two positions of half each. */
const SEED_BNB = parseEther('2000');
const FULL_RANGE_TICK = 887_270; // the largest multiple of the 0.05% tier's spacing (10) inside the pool's tick range
const NARROW_RANGE_TICK = 2_000; // about ±22% around the opening price

/**
 * Sends deployment transactions from `from` (an account the EVM holds the key of), one block each at `firstTimestamp`,
 * `firstTimestamp + 1`, and so on, with nonces counted from `nonce`: the same inputs make the same blocks on every start.
 */
export function deploymentSender(
  provider: EdrProvider,
  from: Address,
  start: { nonce: number; firstTimestamp: bigint },
): {
  deploy(artifact: { abi: Abi; bytecode: Hex }, args?: readonly unknown[]): Promise<Address>;
  call(to: Address, abi: Abi, functionName: string, args?: readonly unknown[], value?: bigint): Promise<void>;
} {
  const client = createWalletClient({ account: from, chain: devnetChain, transport: custom(provider) }).extend(
    publicActions,
  );
  let step = 0n;
  let nonce = start.nonce;
  async function send(to: Address | null, data: Hex, value = 0n): Promise<Address | null> {
    await setNextBlockTimestamp(provider, start.firstTimestamp + step);
    step += 1n;
    const hash = await client.sendTransaction({ to, data, value, nonce: nonce++, chain: null } as never);
    const receipt = await client.getTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`deployment step ${step} reverted`);
    return receipt.contractAddress ?? null;
  }
  return {
    async deploy(artifact, args = []) {
      const expected = getContractAddress({ from, nonce: BigInt(nonce) });
      const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args } as never);
      const address = await send(null, data);
      if (address?.toLowerCase() !== expected.toLowerCase()) throw new Error('deployment address drifted');
      return expected;
    },
    async call(to, abi, functionName, args = [], value = 0n) {
      await send(to, encodeFunctionData({ abi, functionName, args } as never), value);
    },
  };
}

/**
 * Deploys the service's own contracts (configuration, router, factory, referral vault) over an existing exchange,
 * owned by `operator`, who also receives the site fee, at the devnet's fee rates.
 */
export async function deployOurContracts(
  sender: ReturnType<typeof deploymentSender>,
  operator: Address,
  exchange: Pick<ExchangeAddresses, 'pancakeFactory' | 'poolDeployer' | 'wbnb'>,
): Promise<{ config: Address; router: Address; factory: Address; referrals: Address }> {
  const { deploy } = sender;
  const config = await deploy(ServiceConfig, [
    operator,
    operator,
    DEVNET_FEES.siteFeeBps,
    DEVNET_FEES.referrerBps,
    DEVNET_FEES.lifetimeReferralBps,
  ]);
  const router = await deploy(TradeRouter, [config, exchange.poolDeployer, exchange.wbnb, PERMIT2_ADDRESS]);
  const factory = await deploy(LaunchFactory, [config, exchange.pancakeFactory, exchange.wbnb]);
  const referrals = await deploy(ReferralVault, [config]);
  return { config, router, factory, referrals };
}

/**
 * Deploys the exchange and the service's contracts from the operator (test account 0) and seeds the WBNB/USDT pool.
 * Each transaction gets its own block at a fixed timestamp, so every start produces the same chain, block hash for
 * block hash; addresses follow from the operator's nonces.
 */
export async function deployDevnet(provider: EdrProvider, accounts: readonly TestAccount[]): Promise<DevnetContracts> {
  const operator = accounts[0];
  if (!operator) throw new Error('the devnet needs its operator account');
  const client = createWalletClient({
    account: operator.address,
    chain: devnetChain,
    transport: custom(provider),
  }).extend(publicActions);
  const sender = deploymentSender(provider, operator.address, { nonce: 0, firstTimestamp: GENESIS_TIME + 1n });
  const { deploy, call } = sender;

  const wbnb = await deploy(WETH9);
  const holders = accounts.map((a) => a.address);
  const usdt = await deploy(DevStablecoin, [holders, DEVNET_USDT_EACH, operator.address, USDT_RESERVE]);
  const poolDeployer = await deploy(PoolDeployer, [PancakeV3Pool.bytecode]);
  const pancakeFactory = await deploy(PancakeV3Factory, [poolDeployer]);
  await call(poolDeployer, PoolDeployer.abi, 'setFactoryAddress', [pancakeFactory]);
  const swapRouter = await deploy(SwapRouter, [poolDeployer, pancakeFactory, wbnb]);
  const positionManager = await deploy(NonfungiblePositionManager, [
    poolDeployer,
    pancakeFactory,
    wbnb,
    '0x0000000000000000000000000000000000000000',
  ]);
  const quoter = await deploy(QuoterV2, [poolDeployer, pancakeFactory, wbnb]);
  const tickLens = await deploy(TickLens);
  const siteFeeRecipient = operator.address;
  const { config, router, factory, referrals } = await deployOurContracts(sender, operator.address, {
    pancakeFactory,
    poolDeployer,
    wbnb,
  });
  await provider.request({ method: 'hardhat_setCode', params: [PERMIT2_ADDRESS, permit2Runtime()] } as never);

  // Seed the WBNB/USDT pool: half the liquidity over the full range, half within about ±22% of the price.
  await call(wbnb, WETH9.abi, 'deposit', [], SEED_BNB);
  const max = 2n ** 256n - 1n;
  await call(wbnb, WETH9.abi, 'approve', [positionManager, max]);
  await call(usdt, DevStablecoin.abi, 'approve', [positionManager, max]);
  const wbnbIsToken0 = BigInt(wbnb) < BigInt(usdt);
  const [token0, token1] = wbnbIsToken0 ? [wbnb, usdt] : [usdt, wbnb];
  // sqrtPriceX96 = sqrt(token1 per token0) * 2^96, both tokens having 18 decimals.
  const sqrtPriceX96 = wbnbIsToken0 ? sqrt(DEVNET_BNB_PRICE_USD << 192n) : sqrt((1n << 192n) / DEVNET_BNB_PRICE_USD);
  await call(positionManager, NonfungiblePositionManager.abi, 'createAndInitializePoolIfNecessary', [
    token0,
    token1,
    WBNB_USDT_FEE,
    sqrtPriceX96,
  ]);
  const half = SEED_BNB / 2n;
  const usdtForHalf = half * DEVNET_BNB_PRICE_USD;
  const [amount0, amount1] = wbnbIsToken0 ? [half, usdtForHalf] : [usdtForHalf, half];
  const centre = nearestTick(sqrtPriceX96);
  for (const [lower, upper] of [
    [-FULL_RANGE_TICK, FULL_RANGE_TICK],
    [centre - NARROW_RANGE_TICK, centre + NARROW_RANGE_TICK],
  ] as const) {
    await call(positionManager, NonfungiblePositionManager.abi, 'mint', [
      {
        token0,
        token1,
        fee: WBNB_USDT_FEE,
        tickLower: lower,
        tickUpper: upper,
        amount0Desired: amount0,
        amount1Desired: amount1,
        amount0Min: 0n,
        amount1Min: 0n,
        recipient: operator.address,
        deadline: GENESIS_TIME + 3600n,
      },
    ]);
  }
  const wbnbUsdtPool = (await client.readContract({
    address: pancakeFactory,
    abi: PancakeV3Factory.abi,
    functionName: 'getPool',
    args: [token0, token1, WBNB_USDT_FEE],
  })) as Address;

  return {
    pancakeFactory,
    poolDeployer,
    quoter,
    swapRouter,
    positionManager,
    tickLens,
    wbnb,
    usdt,
    permit2: PERMIT2_ADDRESS,
    config,
    router,
    factory,
    referrals,
    wbnbUsdtPool,
    siteFeeRecipient,
  };
}

/**
 * The published Permit2 runtime was dumped from a deployment on chain 31337 at another address, and Permit2 keeps the
 * domain separator of its deployment as an immutable, used whenever the chain id matches. Left alone, every Permit2
 * signature on the devnet would be checked against the wrong domain, so the immutable is rewritten to the separator
 * of the canonical address (what Permit2's constructor would have stored there).
 */
const DUMPED_PERMIT2_SEPARATOR = 'd5a17abc3865df5c1400c0299bd4ce2eefc8114aec5f9d3dded1745783e57b98';

function permit2Runtime(): Hex {
  const text = new TextEncoder();
  const separator = keccak256(
    encodeAbiParameters(
      [{ type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'address' }],
      [
        keccak256(text.encode('EIP712Domain(string name,uint256 chainId,address verifyingContract)')),
        keccak256(text.encode('Permit2')),
        BigInt(devnetChain.id),
        PERMIT2_ADDRESS,
      ],
    ),
  );
  const parts = PERMIT2_RUNTIME.split(DUMPED_PERMIT2_SEPARATOR);
  if (parts.length !== 2) throw new Error('the Permit2 runtime no longer holds the expected domain separator once');
  return parts.join(separator.slice(2)) as Hex;
}

/** The usable tick (multiple of 10) nearest to a sqrt price, from the price's logarithm: only used to centre a range. */
function nearestTick(sqrtPriceX96: bigint): number {
  const price = (Number(sqrtPriceX96) / 2 ** 96) ** 2;
  return Math.round(Math.log(price) / Math.log(1.0001) / 10) * 10;
}
