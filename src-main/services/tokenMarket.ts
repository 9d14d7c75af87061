import type { Address } from 'viem';
import type { ChainContext } from '../chain/connectChain';
import { LaunchToken } from '../chain/generated/contracts';
import { pairValueOf } from '../core/swap/pairValueOf';
import type { PoolState } from '../core/swap/poolState';
import { chainRead } from './chainRead';
import type { DollarRate } from './dollarPrices';
import type { Currency, LaunchLookup, TokenFacts } from './tokenRegistry';

/** A token's market as its pool prices it right now. */
export interface TokenMarketState {
  /** Pair wei for one whole token at the pool's current price. */
  priceWei: bigint;
  /** The whole supply valued at that price, in pair wei. */
  marketCapWei: bigint;
  /** The same in dollars; null when the pair has no dollar price (or it could not be read). */
  marketCapUsd: number | null;
  pair: Currency;
  supplyWei: bigint;
}

/** Where the market reads from: the quotes' pool states and the dollar prices. */
export interface TokenMarketSources {
  pools: { poolOf(token: TokenFacts): Promise<PoolState> };
  prices: { rate(pair: Address, decimals: number): Promise<DollarRate | null> };
}

const MAX_CACHED = 10_000;

/**
 * A token's price and market cap from the pool state the quotes already keep current, so pages that show many
 * tokens cost no extra chain reads per request. Launched tokens have a fixed supply (nothing mints or burns; a "burn"
 * sends to the dead address), so it is read once per token and kept.
 */
export class TokenMarket {
  private readonly supplies = new Map<Address, Promise<bigint>>();

  constructor(
    private readonly chain: ChainContext,
    private readonly launches: LaunchLookup,
    private readonly sources: TokenMarketSources,
  ) {}

  /** The token's price, supply and market cap now. */
  async of(token: TokenFacts): Promise<TokenMarketState> {
    const [pool, supplyWei] = await Promise.all([this.sources.pools.poolOf(token), this.supply(token.address)]);
    const priceWei = pairValueOf(10n ** BigInt(token.decimals), pool.sqrtPriceX96, token.tokenIs0);
    const marketCapWei = pairValueOf(supplyWei, pool.sqrtPriceX96, token.tokenIs0);
    return {
      priceWei,
      marketCapWei,
      marketCapUsd: await this.dollars(marketCapWei, token.pair),
      pair: token.pair,
      supplyWei,
    };
  }

  private async dollars(pairWei: bigint, pair: Currency): Promise<number | null> {
    const rate = await this.sources.prices.rate(pair.address, pair.decimals).catch(() => null);
    if (!rate || rate.pairWeiPer === 0n) return null;
    // Dollar wei have 18 decimals; kept to the cent.
    const cents = (pairWei * rate.usdWeiPer) / rate.pairWeiPer / 10n ** 16n;
    return Number(cents) / 100;
  }

  private supply(token: Address): Promise<bigint> {
    let supply = this.supplies.get(token);
    if (!supply) {
      const indexed = this.launches.launch(token);
      supply = indexed
        ? Promise.resolve(indexed.supply)
        : chainRead('the token supply', () =>
            this.chain.client.readContract({ address: token, abi: LaunchToken.abi, functionName: 'totalSupply' }),
          );
      this.supplies.set(token, supply);
      supply.catch(() => this.supplies.delete(token));
      if (this.supplies.size > MAX_CACHED) this.supplies.delete(this.supplies.keys().next().value as Address);
    }
    return supply;
  }
}
