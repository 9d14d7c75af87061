import type { Address } from 'viem';
import type { ChainContext } from '../chain/connectChain';
import type { DollarPrices } from './dollarPrices';
import type { TokenRegistry } from './tokenRegistry';

/** A trade as the lifetime share reads it: its pair, site fee and referrer cut (wei strings), and block. */
export interface IncomeTrade {
  pair: Address;
  fee: string;
  cut: string;
  block: number;
}

/**
 * The service's income from trades (site fees net of the instant cut), in BNB wei, which is what the referral vault
 * pays in: BNB income as it is, dollar-stablecoin income at the BNB price of its trade's block. Nothing else is
 * valued: a trade in any other pair, or one whose price or decimals cannot be read, earns no share. The weekly job
 * closes weeks from this, so nothing a stranger deploys (a pair whose `decimals()` reverts) may make it throw.
 */
export class LifetimeIncome {
  constructor(
    private readonly chain: ChainContext,
    private readonly tokens: TokenRegistry,
    private readonly prices: DollarPrices,
  ) {}

  /**
   * The BNB worth of the trades' net site fees, rounded down per trade; unvalued trades count for nothing.
   *
   * @example await income.inBnb([{ pair: wbnb, fee: '1000', cut: '200', block: 12 }]) // 800n
   */
  async inBnb(trades: readonly IncomeTrade[]): Promise<bigint> {
    let income = 0n;
    for (const trade of trades) income += (await this.valued(trade)) ?? 0n;
    return income;
  }

  /** One trade's net site fee in BNB wei, or null when it cannot be valued. */
  private async valued(trade: IncomeTrade): Promise<bigint | null> {
    const { wbnb, usdt } = this.chain.addresses;
    const net = BigInt(trade.fee) - BigInt(trade.cut);
    if (trade.pair === wbnb) return net;
    // Only the dollar stablecoin is read: any other pair is a token anyone could have written.
    if (trade.pair !== usdt) return null;
    try {
      const { decimals } = await this.tokens.currency(usdt);
      const [pairRate, bnbRate] = await Promise.all([
        this.prices.rate(usdt, decimals, BigInt(trade.block)),
        this.prices.rate(wbnb, 18, BigInt(trade.block)),
      ]);
      if (!pairRate || !bnbRate) return null;
      // pair -> dollars -> BNB, exactly, rounded down.
      return (net * pairRate.usdWeiPer * bnbRate.pairWeiPer) / (pairRate.pairWeiPer * bnbRate.usdWeiPer);
    } catch {
      // A price a node cannot give (no archive, a failed read) leaves the trade unvalued rather than holding every
      // later week shut.
      return null;
    }
  }

  /** The lifetime share of an income: `bps` of it, rounded down. */
  static share(incomeWei: bigint, bps: number): bigint {
    return (incomeWei * BigInt(bps)) / 10_000n;
  }
}
