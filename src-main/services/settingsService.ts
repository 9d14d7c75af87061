import type { Address } from 'viem';
import type { ChainContext } from '../chain/connectChain';
import { ServiceConfig } from '../chain/generated/contracts';
import { ApiError } from '../core/errors';
import { DEFAULT_FEE_TIER, DEFAULT_SUPPLY, FEE_TIERS, LIMITS } from '../core/limits';
import { BlockMemo } from './blockMemo';

export interface Settings {
  apiVersion: 1;
  chainId: number;
  network: string;
  contracts: Record<string, Address | null>;
  fees: { siteFeeBps: number; referrerBps: number; lifetimeReferralBps: number };
  launch: {
    paused: boolean;
    launchFeeWei: string;
    feeTiers: { bps: number; label: string; default?: boolean }[];
    defaultFeeTier: number;
    defaultSupply: string;
  };
  pairs: { address: Address; decimals: number; symbol: string; native?: boolean }[];
  limits: { tradeDeadlineSeconds: number; permitDays: number; maxSlippageBps: number; defaultSlippageBps: number };
}

/**
 * `GET /settings`: addresses from the deployment, fee rates, launch fee and pause read live from the service's
 * on-chain config. The answer is kept until the next block, when it may have changed.
 */
export class SettingsService {
  private readonly memo: BlockMemo<Settings>;

  constructor(private readonly chain: ChainContext) {
    this.memo = new BlockMemo(chain, () => this.read());
  }

  get(): Promise<Settings> {
    return this.memo.get();
  }

  /** The settings `get` would give at once, without waiting; undefined until read in this block. */
  peek(): Settings | undefined {
    return this.memo.peek();
  }

  private async read(): Promise<Settings> {
    const { client, addresses } = this.chain;
    const config = { address: addresses.config, abi: ServiceConfig.abi } as const;
    let fees: readonly [number, number, number, Address];
    let paused: boolean;
    let launchFeeWei: bigint;
    try {
      [fees, paused, launchFeeWei] = await Promise.all([
        client.readContract({ ...config, functionName: 'fees' }),
        client.readContract({ ...config, functionName: 'launchesPaused' }),
        client.readContract({ ...config, functionName: 'launchFeeWei' }),
      ]);
    } catch (cause) {
      throw new ApiError(
        'FEES_UNREADABLE',
        `the fee rates could not be read from the service config at ${addresses.config}`,
        {
          cause,
        },
      );
    }
    const [siteFeeBps, referrerBps, lifetimeReferralBps, siteFeeRecipient] = fees;
    return {
      apiVersion: 1,
      chainId: this.chain.chainId,
      network: this.chain.network,
      contracts: {
        ...(addresses.factory ? { factory: addresses.factory } : {}),
        ...(addresses.router ? { router: addresses.router } : {}),
        permit2: addresses.permit2,
        quoter: addresses.quoter,
        wbnb: addresses.wbnb,
        siteFeeRecipient,
        referrals: addresses.referrals ?? null,
        config: addresses.config,
        usdt: addresses.usdt,
        pancakeFactory: addresses.pancakeFactory,
        poolDeployer: addresses.poolDeployer,
        swapRouter: addresses.swapRouter,
        positionManager: addresses.positionManager,
      },
      fees: { siteFeeBps, referrerBps, lifetimeReferralBps },
      launch: {
        paused,
        launchFeeWei: launchFeeWei.toString(),
        feeTiers: FEE_TIERS.map(({ bps, label }) => ({
          bps,
          label,
          ...(bps === DEFAULT_FEE_TIER ? { default: true } : {}),
        })),
        defaultFeeTier: DEFAULT_FEE_TIER,
        defaultSupply: DEFAULT_SUPPLY.toString(),
      },
      pairs: [
        { address: addresses.wbnb, decimals: 18, symbol: 'BNB', native: true },
        { address: addresses.usdt, decimals: 18, symbol: 'USDT' },
      ],
      limits: {
        tradeDeadlineSeconds: LIMITS.tradeDeadlineSeconds,
        permitDays: LIMITS.permitDays,
        maxSlippageBps: LIMITS.maxSlippageBps,
        defaultSlippageBps: LIMITS.defaultSlippageBps,
      },
    };
  }
}
