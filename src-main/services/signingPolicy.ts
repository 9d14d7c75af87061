import type { Address } from 'viem';
import { chainClockMs } from '../chain/chainClock';
import type { ChainContext } from '../chain/connectChain';
import { recentMedianGasPrice } from '../chain/readFees';
import { LIMITS } from '../core/limits';
import { pairMicroPrice } from '../core/units/dollarValue';
import type { BuiltApprovals } from './builtApprovals';
import type { DollarPrices } from './dollarPrices';
import { knownContractsOf } from './ourContracts';
import type { Quote, QuoteService } from './quoteService';
import { boundReferrerOf } from './referrerBinding';
import { challengeGuard, knownContractsGuard } from './sendGuard';
import type { SigningConfirmer } from './signingConfirmer';
import { judgeTransaction, type TradeAsk } from './signingWarnings';
import type { TokenRegistry } from './tokenRegistry';
import type { SigningPolicy } from './transactionSender';

/**
 * The most per gas the app signs for unless the person sets another cap: 10 gwei, 200 times BSC's floor of 0.05 gwei
 * (what its blocks take); a 300,000-gas trade at the cap costs 0.003 BNB. A node asking more is lying or broken.
 */
export const DEFAULT_MAX_GAS_PRICE_WEI = 10_000_000_000n;

/** What main reads from the service to judge a transaction: the same quotes and referrer bindings its builds use. */
export interface SigningReads {
  /** A trade quoted now (null when the token is not one of ours). */
  quoteTrade: (trade: TradeAsk) => Promise<Quote | null>;
  boundReferrer: (wallet: Address) => Promise<Address | null>;
}

/** The signing reads from the service's own quotes and tokens, and the router's referrer bindings. */
export function serviceSigningReads(chain: ChainContext, quotes: QuoteService, tokens: TokenRegistry): SigningReads {
  return {
    // A token the service does not know is not ours to quote: the warning then says the limit is unchecked.
    quoteTrade: async (trade) =>
      quotes.quote({ ...trade, token: await tokens.get(trade.token), slippageBps: LIMITS.defaultSlippageBps }),
    boundReferrer: (wallet) => boundReferrerOf(chain, wallet),
  };
}

export interface SigningPolicyOptions {
  builtApprovals: BuiltApprovals;
  prices: DollarPrices;
  reads: SigningReads;
  confirmer: SigningConfirmer;
  maxGasPriceWei?: bigint;
  /** The RPC URL, to name it (by host) in a refusal; none on the devnet. */
  rpcUrl?: string | null;
  now?: () => number;
}

/** Main's whole signing policy on this chain: its guards, its judgement of each transaction, and its fee cap. */
export function signingPolicy(chain: ChainContext, options: SigningPolicyOptions): SigningPolicy {
  const { addresses } = chain;
  // A trade's deadline is judged on the chain's clock, which a rehearsal may have moved forward.
  const chainNow = () => chainClockMs(chain.devnet);
  const known = knownContractsOf(chain.chainId, addresses);
  return {
    guard: knownContractsGuard(chain.chainId, addresses, options.builtApprovals, chainNow),
    messageGuard: challengeGuard(chain.chainId, options.now),
    judge: (tx, fees, wallet) => {
      // The guard, which runs first, refuses every call on a network without our contracts.
      if (!known) throw new Error('judged a call on a network without our contracts');
      return judgeTransaction(tx, fees, wallet, {
        known,
        now: chainNow,
        tradeDeadlineSeconds: LIMITS.tradeDeadlineSeconds,
        boundReferrer: options.reads.boundReferrer,
        quote: options.reads.quoteTrade,
        medianGasPrice: () => recentMedianGasPrice(chain.client),
        bnbRate: async () => pairMicroPrice(await options.prices.rate(addresses.wbnb, 18)),
      });
    },
    confirmer: options.confirmer,
    maxGasPriceWei: options.maxGasPriceWei ?? DEFAULT_MAX_GAS_PRICE_WEI,
    rpcName: rpcNameOf(chain, options.rpcUrl),
  };
}

/** The RPC by its host only: a provider's key often sits in the URL's path or query. */
function rpcNameOf(chain: ChainContext, rpcUrl: string | null | undefined): string {
  if (chain.devnet && !chain.fork) return 'the embedded devnet';
  if (!rpcUrl) return 'the RPC';
  try {
    return new URL(rpcUrl).host;
  } catch {
    return 'the RPC';
  }
}
