import { type Address, encodeFunctionData, erc20Abi, maxUint160, maxUint256 } from 'viem';
import type { Step, UnsignedTx } from '../../src-shared/schema/unsignedTx';
import { chainNow } from '../chain/chainClock';
import type { ChainContext } from '../chain/connectChain';
import { IAllowanceTransfer, TradeRouter } from '../chain/generated/contracts';
import { ApiError } from '../core/errors';
import { LIMITS } from '../core/limits';
import { MAX_INT256 } from '../core/swap/fullMath';
import { referrerCutOf } from '../core/trade/siteFee';
import { formatWithSymbol } from '../core/units/decimalAmount';
import type { UsdRate } from '../core/units/dollarValue';
import { BuiltApprovals } from './builtApprovals';
import { chainRead } from './chainRead';
import { HeadReads } from './headReads';
import type { Quote, QuoteRequest, QuoteService } from './quoteService';
import { boundReferrerOf } from './referrerBinding';
import type { ReferrerEligibility } from './referrerEligibility';
import { type DecodedRevert, GasHints, revertOf, simulateFrom, withMargin } from './simulation';

export interface TradeBuild {
  quote: Quote;
  wallet: Address;
  referrer: { address: Address; bps: number } | null;
  /** Why the API key's wallet is not the referrer, when it was offered and could not be used. */
  referrerNote?: string;
  referrerCut: bigint;
  requires: Step[];
  tx: UnsignedTx;
  simulation: { ran: boolean; ok: boolean; afterSteps?: { ran: boolean; ok: boolean; revert?: DecodedRevert } };
  cost: { gasPriceWei: bigint; maxWei: bigint };
  /** BNB's dollar rate, for the cost's dollar value; null when BNB has none. */
  bnbUsd: UsdRate | null;
  expiresAt: Date;
  explain: string;
}

export interface TradeBuildRequest extends QuoteRequest {
  wallet: Address;
  referrer: Address | null;
  /** The API key's wallet, offered as the referrer when the request names none (not even null). */
  keyReferrer?: Address;
}

/** Gas assumed for the check of a wallet's BNB before the trade can be simulated (steps still needed). */
const GAS_BEFORE_SIMULATION = 300_000n;

/**
 * Builds an unsigned trade for a wallet: the router call, the one-time approvals it still lacks, a simulation from
 * the wallet at the latest block, a gas limit and cost ceiling, and one sentence to read before signing.
 */
export class BuildService {
  /** What the router's trades needed lately: a build is then run once at that gas instead of estimated (GasHints). */
  private readonly gasHints = new GasHints();
  /** The latest block and the fees, read once a block for all the builds asking at it. */
  private readonly head: HeadReads;

  constructor(
    private readonly chain: ChainContext,
    private readonly quotes: QuoteService,
    private readonly referrers: ReferrerEligibility,
    /** Where the approval steps it builds are remembered for main's last guard. */
    private readonly builtApprovals: BuiltApprovals = new BuiltApprovals(),
  ) {
    this.head = new HeadReads(chain);
  }

  async buildTrade(request: TradeBuildRequest): Promise<TradeBuild> {
    const { wallet } = request;
    let referrer = request.referrer;
    let referrerNote: string | undefined;
    const offered = request.keyReferrer;
    const bound = referrer !== null || offered ? await boundReferrerOf(this.chain, wallet) : null;
    if (offered) {
      if (offered.toLowerCase() === wallet.toLowerCase()) {
        referrerNote = `the API key's wallet ${offered} is the trading wallet, and a wallet cannot be its own referrer`;
      } else if (bound && bound.toLowerCase() !== offered.toLowerCase()) {
        referrerNote = `${wallet} is bound to referrer ${bound} for life, so the API key's wallet ${offered} cannot be its referrer`;
      } else if (!(await this.referrers.isEligible(offered))) {
        referrerNote =
          `the API key's wallet ${offered} is neither a registered referrer nor a token creator; ` +
          'register it (GET /referrals/challenge) to earn the referral cut';
      } else {
        referrer = offered;
      }
    }
    if (request.amount > MAX_INT256) {
      throw new ApiError('CANNOT_BUILD', 'amount is too large to encode in a trade (above 2^255 wei)', {
        field: 'amount',
      });
    }
    if (referrer !== null) {
      if (referrer.toLowerCase() === wallet.toLowerCase()) {
        throw new ApiError('SELF_REFERRAL', 'the wallet cannot be its own referrer', { field: 'referrer' });
      }
      if (bound && bound.toLowerCase() !== referrer.toLowerCase()) {
        throw new ApiError('ALREADY_BOUND', `${wallet} is bound to referrer ${bound} for life`, {
          field: 'referrer',
          fix: `Name ${bound} as the referrer, or send referrer null.`,
          detail: { boundTo: bound },
        });
      }
      if (!(await this.referrers.isEligible(referrer))) {
        throw new ApiError(
          'REFERRER_NOT_REGISTERED',
          `${referrer} is neither a registered referrer nor a token creator`,
          {
            field: 'referrer',
          },
        );
      }
    }
    const router = this.chain.addresses.router;
    if (!router) throw new ApiError('NOT_DEPLOYED', `the trade router is not deployed on ${this.chain.network}`);
    const { client } = this.chain;
    // The wallet's BNB is read beside the quote: every build needs it (value or gas), and a bot's build at a busy
    // block should wait for one round of reads, not two.
    const balance = chainRead('the wallet balance', () => client.getBalance({ address: wallet }));
    balance.catch(() => {});
    const [quote, head] = await Promise.all([
      this.quotes.quote(request),
      chainRead('the latest block and the gas price', () => this.head.read()),
    ]);
    const { block } = head;
    const gasPriceWei = head.fees.maxFeePerGas;
    const { token, side, exact } = quote;
    const native = token.quoteIsBnb;
    const exactIn = exact === 'in';
    // Deadlines and permit expiries on the chain's clock, which a rehearsal may have moved (evm_increaseTime).
    const now = chainNow(this.chain.devnet, block.timestamp);
    const deadline = now + BigInt(LIMITS.tradeDeadlineSeconds);
    // The router's `amount` is the exact side; `limit` the other side's floor or ceiling.
    const params = {
      token: token.address,
      pair: token.pair.address,
      fee: token.feeTier,
      amount: request.amount,
      limit: quote.limit,
      referrer: referrer ?? '0x0000000000000000000000000000000000000000',
      deadline,
    } as const;
    const functionName = `${side}Exact${exactIn ? 'In' : 'Out'}` as const;
    // BNB goes in as value: the amount for an exact-in buy, the ceiling for an exact-out one (the rest comes back).
    const value = side === 'buy' && native ? (exactIn ? quote.pay : quote.limit) : 0n;
    const tx: UnsignedTx = {
      chainId: this.chain.chainId,
      to: router,
      data: encodeFunctionData({ abi: TradeRouter.abi, functionName, args: [params] }),
      value: value.toString(),
    };

    // What the wallet pays, at most, and in what: BNB natively, or a token pulled through Permit2.
    const payMax = exactIn ? quote.pay : quote.limit;
    const payToken = side === 'buy' ? (native ? null : token.pair.address) : token.address;
    const requires = payToken ? await this.approvals(wallet, payToken, quote, payMax, deadline, now) : [];
    const bnb = await balance;
    if (payToken) {
      const held = await chainRead('the wallet balance', () =>
        client.readContract({ address: payToken, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] }),
      );
      if (held < payMax)
        throw short(
          `the wallet holds ${formatWithSymbol(held, quote.payCurrency)}; the trade needs ${formatWithSymbol(payMax, quote.payCurrency)}`,
        );
    } else if (bnb < value) {
      throw short(
        `the wallet holds ${formatWithSymbol(bnb, quote.payCurrency)}; the trade needs ${formatWithSymbol(value, quote.payCurrency)} plus gas`,
      );
    }

    let simulation: TradeBuild['simulation'] = { ran: false, ok: false };
    let gas = GAS_BEFORE_SIMULATION;
    if (requires.length === 0) {
      // The most gas the wallet's BNB pays for besides the value: a hint above it is not used (an estimate may fit).
      const affordable = gasPriceWei === 0n ? maxUint256 : bnb > value ? (bnb - value) / gasPriceWei : 0n;
      gas = await simulateFrom(this.chain, wallet, tx, value, 'the trade', { hints: this.gasHints, affordable });
      tx.gas = gas.toString();
      simulation = { ran: true, ok: true };
    } else {
      simulation.afterSteps = await this.simulateAfterSteps(wallet, requires, tx, value);
    }
    const stepsGas = requires.reduce((sum, step) => sum + BigInt(step.tx.gas ?? 0), 0n);
    const maxWei = gas * gasPriceWei;
    const gasNeeded = maxWei + stepsGas * gasPriceWei;
    if (bnb < value + gasNeeded) {
      const bnbCurrency = { decimals: 18, symbol: 'BNB' };
      throw short(
        `the wallet holds ${formatWithSymbol(bnb, bnbCurrency)}; it needs ${value > 0n ? `${formatWithSymbol(value, bnbCurrency)} plus ` : ''}up to ${formatWithSymbol(gasNeeded, bnbCurrency)} of gas`,
      );
    }

    const referrerCut = referrer
      ? referrerCutOf(side === 'buy' ? quote.pay : quote.receive + quote.siteFee, quote.referrerBps, quote.siteFee)
      : 0n;
    const expiresAt = new Date(Number(deadline) * 1000);
    const bnbUsd = native ? quote.pairUsd : await this.quotes.dollarRate(this.chain.addresses.wbnb, 18);
    return {
      quote,
      wallet,
      referrer: referrer ? { address: referrer, bps: quote.referrerBps } : null,
      ...(referrerNote ? { referrerNote } : {}),
      referrerCut,
      requires,
      tx,
      simulation,
      cost: { gasPriceWei, maxWei },
      bnbUsd,
      expiresAt,
      explain: explainTrade(quote, referrer, referrerCut, expiresAt),
    };
  }

  /**
   * The approvals a wallet still lacks for the router to pull `payMax` of `payToken` until after the deadline; a new
   * Permit2 approval runs `permitDays` from `now`, the chain's time.
   */
  private async approvals(
    wallet: Address,
    payToken: Address,
    quote: Quote,
    payMax: bigint,
    deadline: bigint,
    now: bigint,
  ): Promise<Step[]> {
    const { client, addresses, chainId } = this.chain;
    const { permit2, router } = addresses;
    if (!router) return [];
    const [erc20Allowance, [permitAmount, permitExpiry]] = await chainRead('the approvals', () =>
      Promise.all([
        client.readContract({
          address: payToken,
          abi: erc20Abi,
          functionName: 'allowance',
          args: [wallet, permit2],
        }),
        client.readContract({
          address: permit2,
          abi: IAllowanceTransfer.abi,
          functionName: 'allowance',
          args: [wallet, payToken, router],
        }),
      ]),
    );
    const symbol = quote.payCurrency.symbol;
    const steps: Step[] = [];
    if (erc20Allowance < payMax) {
      steps.push({
        step: 'approve-permit2',
        explain: `Let Permit2 (${permit2}) move any amount of your ${symbol}, with no end date (once per token; the router can still take nothing until the next step).`,
        tx: {
          chainId,
          to: payToken,
          data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [permit2, maxUint256] }),
          value: '0',
        },
      });
    }
    if (permitAmount < payMax || BigInt(permitExpiry) < deadline) {
      const expiry = Number(now) + LIMITS.permitDays * 86_400;
      steps.push({
        step: 'approve-router',
        explain: `Let the trade router (${router}) spend any amount of your ${symbol} through Permit2 for ${LIMITS.permitDays} days, until ${new Date(expiry * 1000).toISOString()}.`,
        tx: {
          chainId,
          to: permit2,
          data: encodeFunctionData({
            abi: IAllowanceTransfer.abi,
            functionName: 'approve',
            args: [payToken, router, maxUint160, expiry],
          }),
          value: '0',
        },
      });
    }
    for (const step of steps) {
      this.builtApprovals.remember(wallet, step.tx);
      const estimate = await chainRead('the gas of an approval', () =>
        client.estimateGas({ account: wallet, to: step.tx.to, data: step.tx.data }),
      );
      step.tx.gas = withMargin(estimate).toString();
    }
    return steps;
  }

  /**
   * Beyond the spec: whether the trade would succeed once the steps are done, by sending the steps and calling the
   * trade on a throw-away copy of the chain. Only the embedded devnet can make such a copy; elsewhere `ran` is false.
   */
  private async simulateAfterSteps(
    wallet: Address,
    steps: Step[],
    tx: UnsignedTx,
    value: bigint,
  ): Promise<{ ran: boolean; ok: boolean; revert?: DecodedRevert }> {
    const devnet = this.chain.devnet;
    if (!devnet) return { ran: false, ok: false };
    return devnet.onCopy(async (send) => {
      for (const step of steps) await send({ from: wallet, to: step.tx.to, data: step.tx.data });
      try {
        await this.chain.client.call({ account: wallet, to: tx.to, data: tx.data, value });
        return { ran: true, ok: true };
      } catch (cause) {
        const revert = revertOf(cause);
        if (revert === undefined)
          throw new ApiError('CHAIN_UNREACHABLE', 'the simulation could not reach the chain', { cause });
        return { ran: true, ok: false, revert };
      }
    });
  }
}

function short(message: string): ApiError {
  return new ApiError('INSUFFICIENT_BALANCE', message);
}

function explainTrade(quote: Quote, referrer: Address | null, cut: bigint, expiresAt: Date): string {
  const pay = formatWithSymbol(quote.pay, quote.payCurrency);
  const receive = formatWithSymbol(quote.receive, quote.receiveCurrency);
  const limit = formatWithSymbol(
    quote.limit,
    quote.limitKind === 'minReceive' ? quote.receiveCurrency : quote.payCurrency,
  );
  const fee = formatWithSymbol(quote.siteFee, quote.token.pair);
  const bound = quote.limitKind === 'minReceive' ? `at least ${limit}` : `at most ${limit}`;
  const what =
    quote.side === 'buy'
      ? quote.exact === 'in'
        ? `Pay ${pay} for about ${receive} (${bound})`
        : `Buy ${receive} for about ${pay} (${bound})`
      : quote.exact === 'in'
        ? `Sell ${pay} for about ${receive} (${bound})`
        : `Receive ${receive} for about ${pay} (${bound})`;
  const referral = referrer ? `, of which ${formatWithSymbol(cut, quote.token.pair)} goes to referrer ${referrer}` : '';
  return `${what}, site fee ${fee}${referral}; it fails rather than fill worse, and expires at ${expiresAt.toISOString()}.`;
}
