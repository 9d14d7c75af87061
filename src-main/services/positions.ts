import { type Address, erc20Abi } from 'viem';
import { DAY_TRADES_READ, type DayStats, dayStats } from '../../src-shared/market/dayStats';
import type { ChainContext } from '../chain/connectChain';
import { ApiError } from '../core/errors';
import { pairValueOf } from '../core/swap/pairValueOf';
import type { PoolState } from '../core/swap/poolState';
import { type CostBasis, costBasis } from '../core/trade/costBasis';
import { type MicroPrice, pairMicroPrice, type UsdRate, usdMicros } from '../core/units/dollarValue';
import type { IndexedTrade } from '../store/indexStore';
import { chainRead } from './chainRead';
import type { TokenFacts } from './tokenRegistry';

/** One token a wallet holds (or held), valued now. Pair amounts are in the token's pair currency, wei. */
export interface Position {
  token: TokenFacts;
  basis: CostBasis;
  /** Pair wei for one whole token at the pool's price now. */
  priceWei: bigint;
  /** The balance at that price (rounded down). */
  value: bigint;
  /** Pair wei paid per whole token held: cost ÷ balance (rounded down); null with nothing held. */
  averageCost: bigint | null;
  /** value − cost: what selling at the pool's price would add to the realized profit (before fees and impact). */
  unrealized: bigint;
  /** What a pair wei is worth in dollars now; null when the pair has no dollar price. */
  pairUsd: MicroPrice | null;
  /** The token's last 24 h (its price change), from its latest indexed trades as the token page reads them. */
  day: DayStats;
  /** The launch's logo as the index keeps it (a /media path or a link); null without one. */
  image: string | null;
}

/** What the positions are read from: the index's trades, the tokens' facts, their pools, dollar rates, balances. */
export interface PositionSources {
  trades(wallet: Address): (IndexedTrade & { token: Address })[];
  /** The token's latest trades of every wallet, newest first, at most `limit`. */
  tokenTrades(token: Address, limit: number): IndexedTrade[];
  /** The launch's logo, as the index keeps it. */
  image(token: Address): string | null;
  tokens: { get(address: Address, field: string): Promise<TokenFacts> };
  pools: { poolOf(token: TokenFacts): Promise<PoolState> };
  prices: { rate(pair: Address, decimals: number): Promise<UsdRate | null> };
  chain: ChainContext;
  /** The clock the 24 h window is measured against (the token pages use the reader's). */
  now(): number;
}

/** Balances read at once; a wallet that traded many tokens is read in rounds of this many. */
const BALANCE_BATCH = 32;

/**
 * A wallet's positions in the tokens launched here: for each token it traded (a launch's first buy counts as its
 * creator's buy), the balance from the chain at one block, valued at the pool's price now, with its average-cost basis
 * and profit from the wallet's indexed trades (see `costBasis`). Tokens it never traded here (received only by
 * transfer) are not found: the index does not follow transfers.
 *
 * @example const held = await new Positions(sources).of(wallet) // [{ token, basis: { balance, cost, realized, … }, value, … }]
 */
export class Positions {
  constructor(private readonly sources: PositionSources) {}

  /** The wallet's positions, those it holds first and the most worth first; `closed` adds those it no longer holds. */
  async of(wallet: Address, { closed = false }: { closed?: boolean } = {}): Promise<Position[]> {
    const byToken = new Map<Address, IndexedTrade[]>();
    for (const trade of this.sources.trades(wallet)) {
      const list = byToken.get(trade.token) ?? [];
      list.push(trade);
      byToken.set(trade.token, list);
    }
    const tokens = [...byToken.keys()];
    const balances = await this.balances(wallet, tokens);
    const positions: Position[] = [];
    await Promise.all(
      tokens.map(async (address, i) => {
        const balance = balances[i] as bigint;
        const basis = costBasis(byToken.get(address) ?? [], balance);
        if (balance === 0n && !closed) return;
        const position = await this.valued(address, basis);
        if (position) positions.push(position);
      }),
    );
    // Held first, then the most worth in dollars (unpriced after priced), then by address: a stable order.
    const worth = (position: Position) => usdMicros(position.value, position.pairUsd) ?? -1n;
    return positions.sort((a, b) => {
      const held = Number(b.basis.balance > 0n) - Number(a.basis.balance > 0n);
      if (held !== 0) return held;
      const [x, y] = [worth(a), worth(b)];
      if (x !== y) return x > y ? -1 : 1;
      return a.token.address < b.token.address ? -1 : 1;
    });
  }

  /** The position valued now; undefined for a token the router traded that was not launched here. */
  private async valued(address: Address, basis: CostBasis): Promise<Position | undefined> {
    const token = await this.sources.tokens.get(address, 'token').catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'UNKNOWN_TOKEN') return undefined;
      throw error;
    });
    if (!token) return undefined;
    const [pool, rate] = await Promise.all([
      this.sources.pools.poolOf(token),
      // A dollar figure is shown beside the pair's, never needed for it: a rate that cannot be read is none.
      this.sources.prices.rate(token.pair.address, token.pair.decimals).catch(() => null),
    ]);
    const value = pairValueOf(basis.balance, pool.sqrtPriceX96, token.tokenIs0);
    const priceWei = pairValueOf(10n ** BigInt(token.decimals), pool.sqrtPriceX96, token.tokenIs0);
    const latest = this.sources.tokenTrades(token.address, DAY_TRADES_READ).map((trade) => ({
      atMs: trade.timestamp * 1000,
      pairWei: trade.pairAmount,
      tokenWei: trade.tokenAmount,
    }));
    return {
      token,
      basis,
      priceWei,
      value,
      averageCost: basis.balance === 0n ? null : (basis.cost * 10n ** BigInt(token.decimals)) / basis.balance,
      unrealized: value - basis.cost,
      pairUsd: pairMicroPrice(rate),
      day: dayStats(latest, priceWei, token.decimals, this.sources.now(), DAY_TRADES_READ),
      image: this.sources.image(token.address),
    };
  }

  /** The wallet's balance of each token, all read at one block. */
  private async balances(wallet: Address, tokens: readonly Address[]): Promise<bigint[]> {
    if (tokens.length === 0) return [];
    const { client } = this.sources.chain;
    return chainRead('the wallet balances', async () => {
      const blockNumber = await client.getBlockNumber({ cacheTime: 0 });
      const read: bigint[] = [];
      for (let start = 0; start < tokens.length; start += BALANCE_BATCH) {
        const batch = tokens.slice(start, start + BALANCE_BATCH);
        read.push(
          ...(await Promise.all(
            batch.map((address) =>
              client.readContract({ address, abi: erc20Abi, functionName: 'balanceOf', args: [wallet], blockNumber }),
            ),
          )),
        );
      }
      return read;
    });
  }
}

/** Millionths of a dollar a signed pair amount is worth (rounded toward zero); null unpriced. */
export function signedUsdMicros(pairWei: bigint, price: MicroPrice | null): bigint | null {
  if (price === null) return null;
  const micros = usdMicros(pairWei < 0n ? -pairWei : pairWei, price) as bigint;
  return pairWei < 0n ? -micros : micros;
}
