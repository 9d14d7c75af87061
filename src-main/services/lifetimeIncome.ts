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
 * pays in: BNB income as it is, USDT income at the BNB price of its trade's block; income in a currency with no
 * dollar price cannot be valued and earns no share.
 */
export class LifetimeIncome {
  constructor(
    private readonly chain: ChainContext,
    private readonly tokens: TokenRegistry,
    private readonly prices: DollarPrices,
  ) {}

  async inBnb(trades: readonly IncomeTrade[]): Promise<bigint> {
    const { wbnb } = this.chain.addresses;
    let income = 0n;
    for (const trade of trades) {
      const net = BigInt(trade.fee) - BigInt(trade.cut);
      if (trade.pair === wbnb) {
        income += net;
        continue;
      }
      const currency = await this.tokens.currency(trade.pair);
      const [pairRate, bnbRate] = await Promise.all([
        this.prices.rate(trade.pair, currency.decimals, BigInt(trade.block)),
        this.prices.rate(wbnb, 18, BigInt(trade.block)),
      ]);
      if (!pairRate || !bnbRate) continue;
      // pair -> dollars -> BNB, exactly, rounded down.
      income += (net * pairRate.usdWeiPer * bnbRate.pairWeiPer) / (pairRate.pairWeiPer * bnbRate.usdWeiPer);
    }
    return income;
  }

  /** The lifetime share of an income: `bps` of it, rounded down. */
  static share(incomeWei: bigint, bps: number): bigint {
    return (incomeWei * BigInt(bps)) / 10_000n;
  }
}
