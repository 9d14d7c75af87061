import { type Address, zeroAddress } from 'viem';
import type { ChainContext } from '../chain/connectChain';
import { PancakeV3Factory, PancakeV3Pool } from '../chain/generated/vendor';
import { chainRead } from './chainRead';

/** A pair's dollar rate as an exact ratio: `usdWeiPer` dollar-wei (18 decimals) are worth `pairWeiPer` pair-wei. */
export interface DollarRate {
  usdWeiPer: bigint;
  pairWeiPer: bigint;
}

/**
 * Dollars per whole unit of a currency with `decimals`, from its exact rate: for display beside amounts only (a float
 * is fine there, never for money). Null without a rate.
 */
export function dollarsPerUnit(rate: DollarRate | null, decimals: number): number | null {
  if (rate === null || rate.pairWeiPer === 0n) return null;
  // Twelve decimals of the ratio are kept before it becomes a float; dollar-wei have 18 decimals, the unit `decimals`.
  return (Number((rate.usdWeiPer * 10n ** 12n) / rate.pairWeiPer) / 1e12) * 10 ** (decimals - 18);
}

/** PancakeSwap V3 tier of the WBNB/USDT pool that prices BNB. */
const BNB_DOLLAR_TIER = 500;

/** BNB's rate at the latest block, read once per block: `known` once the read has settled. */
interface LatestRate {
  read: Promise<DollarRate | null>;
  known?: { rate: DollarRate | null };
  /** Asked for since it was read: the next block's rate is read as that block comes. */
  used: boolean;
}

/**
 * Dollar prices from the chain: USDT is the dollar, BNB is priced by the WBNB/USDT pool, any other currency has no
 * price (null). At the latest block, or at a past one (a trade's, for its earnings in dollars); past prices are kept.
 * The latest BNB rate is read once a block and kept until the next, so quotes can value their amounts in the turn
 * they are asked (`peekRate`); a rate in use is read again as soon as a new block is announced.
 */
export class DollarPrices {
  private pool: Promise<Address | null> | undefined;
  private readonly past = new Map<bigint, Promise<DollarRate | null>>();
  private latest: LatestRate | undefined;
  /** USDT's rate by its decimals: one object, so what is worked out from it can be kept by it. */
  private readonly par = new Map<number, DollarRate>();
  /** Whether new blocks are followed yet: from the first read of the latest rate on. */
  private following = false;

  constructor(
    private readonly chain: ChainContext,
    /** The pool price kept by the indexer at a block, read before asking the chain (which needs an archive node). */
    private readonly recorded: (block: number) => bigint | undefined = () => undefined,
  ) {}

  /**
   * The rate of `pair` at the latest block when it needs no waiting: USDT's and an unpriced pair's at once, BNB's once
   * read at this block; undefined when it must be read (ask `rate`).
   */
  peekRate(pair: Address, decimals: number): DollarRate | null | undefined {
    const { wbnb, usdt } = this.chain.addresses;
    if (pair === usdt) return this.parRate(decimals);
    if (pair !== wbnb) return null;
    const latest = this.latest;
    if (!latest?.known) return undefined;
    latest.used = true;
    return latest.known.rate;
  }

  /** The BNB dollar pool's sqrtPriceX96 at a block (null when there is no such pool); for the indexer to keep. */
  async sqrtPriceAt(block: number): Promise<bigint | null> {
    const pool = await this.dollarPool();
    if (!pool) return null;
    const [sqrtPriceX96] = await this.chain.client.readContract({
      address: pool,
      abi: PancakeV3Pool.abi,
      functionName: 'slot0',
      blockNumber: BigInt(block),
    });
    return sqrtPriceX96;
  }

  /** The rate of `pair` (with its decimals) now, or at `block`. */
  async rate(pair: Address, decimals: number, block?: bigint): Promise<DollarRate | null> {
    const { wbnb, usdt } = this.chain.addresses;
    if (pair === usdt) return this.parRate(decimals);
    if (pair !== wbnb) return null;
    if (block === undefined) {
      const latest = this.latestBnbRate();
      latest.used = true;
      return latest.read;
    }
    let rate = this.past.get(block);
    if (!rate) {
      rate = this.bnbRate(block);
      this.past.set(block, rate);
      rate.catch(() => this.past.delete(block));
      if (this.past.size > 50_000) this.past.delete(this.past.keys().next().value as bigint);
    }
    return rate;
  }

  /** The BNB dollar pool (null when there is none): the indexer reads its price-setting events with its own. */
  dollarPool(): Promise<Address | null> {
    const { wbnb, usdt, pancakeFactory } = this.chain.addresses;
    this.pool ??= chainRead('the BNB dollar pool', () =>
      this.chain.client.readContract({
        address: pancakeFactory,
        abi: PancakeV3Factory.abi,
        functionName: 'getPool',
        args: [wbnb, usdt, BNB_DOLLAR_TIER],
      }),
    ).then((pool) => (pool === zeroAddress ? null : pool));
    this.pool.catch(() => {
      this.pool = undefined;
    });
    return this.pool;
  }

  /** The dollar's own rate: a dollar-wei per wei of a currency with `decimals` (USDT is the dollar). */
  private parRate(decimals: number): DollarRate {
    let rate = this.par.get(decimals);
    if (!rate) {
      rate = { usdWeiPer: 10n ** 18n, pairWeiPer: 10n ** BigInt(decimals) };
      this.par.set(decimals, rate);
    }
    return rate;
  }

  /** The latest block's BNB rate, read now if it is not being read yet; a failed read is forgotten, to be read again. */
  private latestBnbRate(): LatestRate {
    if (this.latest) return this.latest;
    if (!this.following) {
      this.following = true;
      this.chain.onBlock(() => {
        const inUse = this.latest?.used === true;
        this.latest = undefined;
        if (inUse) this.latestBnbRate().used = false;
      });
    }
    const latest: LatestRate = { read: this.bnbRate(), used: false };
    this.latest = latest;
    latest.read.then(
      (rate) => {
        latest.known = { rate };
      },
      () => {
        if (this.latest === latest) this.latest = undefined;
      },
    );
    return latest;
  }

  private async bnbRate(block?: bigint): Promise<DollarRate | null> {
    const { wbnb, usdt } = this.chain.addresses;
    const kept = block === undefined ? undefined : this.recorded(Number(block));
    const pool = kept === undefined ? await this.dollarPool() : null;
    if (kept === undefined && !pool) return null;
    const [sqrtPriceX96] =
      kept !== undefined
        ? [kept]
        : await chainRead('the BNB dollar price', () =>
            this.chain.client.readContract({
              address: pool as Address,
              abi: PancakeV3Pool.abi,
              functionName: 'slot0',
              ...(block === undefined ? {} : { blockNumber: block }),
            }),
          );
    // The pool's price is token1 per token0 = sqrtP² / 2^192 (USDT and WBNB both have 18 decimals).
    const priceX192 = sqrtPriceX96 * sqrtPriceX96;
    return BigInt(wbnb) < BigInt(usdt)
      ? { usdWeiPer: priceX192, pairWeiPer: 1n << 192n }
      : { usdWeiPer: 1n << 192n, pairWeiPer: priceX192 };
  }
}
