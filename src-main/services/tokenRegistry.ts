import { type Address, erc20Abi, zeroAddress } from 'viem';
import type { ChainContext } from '../chain/connectChain';
import { LaunchFactory } from '../chain/generated/contracts';
import { PancakeV3Pool } from '../chain/generated/vendor';
import { ApiError } from '../core/errors';
import { FEE_TIERS } from '../core/limits';
import { readAddress } from '../core/units/readAddress';
import type { IndexedLaunch } from '../store/indexStore';
import { chainRead } from './chainRead';

export interface Currency {
  address: Address;
  decimals: number;
  symbol: string;
}

/** What never changes about a launched token: read once, then kept. */
export interface TokenFacts {
  address: Address;
  name: string;
  symbol: string;
  decimals: number;
  creator: Address;
  pool: Address;
  feeTier: number;
  tickSpacing: number;
  pair: Currency;
  /** True when the pair is WBNB, traded as native BNB. */
  quoteIsBnb: boolean;
  /** Whether the token is the pool's token0, which fixes the direction of every swap. */
  tokenIs0: boolean;
  /** The launch's block, where the factory priced the pool; absent for a launch the indexer has not reached yet. */
  launchBlock?: number;
}

const MAX_CACHED = 10_000;
/** Every token the factory launches has 18 decimals (LaunchToken's constant). */
const LAUNCH_TOKEN_DECIMALS = 18;

/** The indexed launches, when an indexer keeps them. */
export interface LaunchLookup {
  launch(token: Address): IndexedLaunch | null;
}

/** What the registry needs of a launch's log: the indexed one, or one in a block at the head not yet confirmed. */
export type LaunchRecord = Pick<IndexedLaunch, 'name' | 'symbol' | 'creator' | 'pool' | 'pair' | 'fee' | 'block'>;

/** Launches the registry knows without reading the chain: the index's, then those seen at the head. */
export interface LaunchRecords {
  launch(token: Address): LaunchRecord | null;
}

/**
 * Answers "is this a token we launched, and what is it": from the index when the launch is indexed, otherwise from
 * the factory on chain (a launch in a block the indexer has not reached yet). Facts of launched tokens never change,
 * so they are cached.
 */
export class TokenRegistry {
  private readonly cache = new Map<Address, Promise<TokenFacts>>();
  private readonly currencies = new Map<Address, Promise<Currency>>();
  /** What the cached reads resolved to, by the same key: see `peek`. */
  private readonly resolved = new Map<Address, TokenFacts>();

  constructor(
    private readonly chain: ChainContext,
    private readonly index?: LaunchRecords,
  ) {}

  /** The token's facts; INVALID_ADDRESS for a malformed address, UNKNOWN_TOKEN when the factory did not launch it. */
  get(address: unknown, field = 'token'): Promise<TokenFacts> {
    let key: Address;
    try {
      key = readAddress(address, field);
    } catch (error) {
      return Promise.reject(error);
    }
    let facts = this.cache.get(key);
    if (!facts) {
      facts = this.read(key);
      this.cache.set(key, facts);
      const reading = facts;
      reading.then(
        (read) => {
          if (this.cache.get(key) === reading) this.resolved.set(key, read);
        },
        // Unknown tokens and failed reads are not kept: a token launched a moment later must be found.
        () => this.cache.delete(key),
      );
      if (this.cache.size > MAX_CACHED) {
        const oldest = this.cache.keys().next().value as Address;
        this.cache.delete(oldest);
        this.resolved.delete(oldest);
      }
    }
    return facts;
  }

  /**
   * The facts `get` resolved to for this checksummed address, without waiting or reading the address again (its
   * checksum costs a keccak): the quote's fast path, whose schema has already checksummed it. Undefined for a token
   * not read yet, or one whose read failed.
   */
  peek(address: Address): TokenFacts | undefined {
    return this.resolved.get(address);
  }

  /** A currency's decimals and symbol; WBNB is shown as BNB, since the router pays and receives it natively. */
  currency(address: Address): Promise<Currency> {
    let currency = this.currencies.get(address);
    if (!currency) {
      currency = this.readCurrency(address);
      this.currencies.set(address, currency);
      currency.catch(() => this.currencies.delete(address));
    }
    return currency;
  }

  private async read(token: Address): Promise<TokenFacts> {
    const indexed = this.index?.launch(token);
    const spacing = indexed ? FEE_TIERS.find((tier) => tier.bps === indexed.fee)?.tickSpacing : undefined;
    if (indexed && spacing !== undefined) {
      return {
        address: token,
        name: indexed.name,
        symbol: indexed.symbol,
        decimals: LAUNCH_TOKEN_DECIMALS,
        creator: indexed.creator,
        pool: indexed.pool,
        feeTier: indexed.fee,
        tickSpacing: spacing,
        pair: await this.currency(indexed.pair),
        quoteIsBnb: indexed.pair === this.chain.addresses.wbnb,
        tokenIs0: BigInt(token) < BigInt(indexed.pair),
        launchBlock: indexed.block,
      };
    }
    const { client, addresses } = this.chain;
    const factory = addresses.factory;
    if (!factory) throw new ApiError('NOT_DEPLOYED', `the launch factory is not deployed on ${this.chain.network}`);
    const record = await chainRead('the launch record', () =>
      client.readContract({ address: factory, abi: LaunchFactory.abi, functionName: 'launchOf', args: [token] }),
    );
    if (record.pool === zeroAddress) {
      throw new ApiError('UNKNOWN_TOKEN', `${token} is not a token launched by this service`, { field: 'token' });
    }
    const erc20 = { address: token, abi: erc20Abi } as const;
    const pool = { address: record.pool, abi: PancakeV3Pool.abi } as const;
    const [name, symbol, decimals, feeTier, tickSpacing, token0, pair] = await chainRead('the token and its pool', () =>
      Promise.all([
        client.readContract({ ...erc20, functionName: 'name' }),
        client.readContract({ ...erc20, functionName: 'symbol' }),
        client.readContract({ ...erc20, functionName: 'decimals' }),
        client.readContract({ ...pool, functionName: 'fee' }),
        client.readContract({ ...pool, functionName: 'tickSpacing' }),
        client.readContract({ ...pool, functionName: 'token0' }),
        this.currency(record.pair),
      ]),
    );
    return {
      address: token,
      name,
      symbol,
      decimals,
      creator: record.creator,
      pool: record.pool,
      feeTier,
      tickSpacing,
      pair,
      quoteIsBnb: record.pair === addresses.wbnb,
      tokenIs0: token0 === token,
    };
  }

  private async readCurrency(address: Address): Promise<Currency> {
    if (address === this.chain.addresses.wbnb) return { address, decimals: 18, symbol: 'BNB' };
    const erc20 = { address, abi: erc20Abi } as const;
    const [decimals, symbol] = await chainRead('the pair currency', () =>
      Promise.all([
        this.chain.client.readContract({ ...erc20, functionName: 'decimals' }),
        this.chain.client.readContract({ ...erc20, functionName: 'symbol' }),
      ]),
    );
    return { address, decimals, symbol };
  }
}
