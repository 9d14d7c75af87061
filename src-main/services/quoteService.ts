import type { Address } from 'viem';
import { ApiError } from '../core/errors';
import type { PoolState } from '../core/swap/poolState';
import { simulateSwap } from '../core/swap/simulateSwap';
import { grossForNet, maxPayFor, minReceiveFor, siteFeeOn } from '../core/trade/siteFee';
import { type MicroPrice, pairMicroPrice, tokenMicroPrice, type UsdRate } from '../core/units/dollarValue';
import type { PoolBirth, PoolStateService } from './poolStateService';
import type { SettingsService } from './settingsService';
import type { Currency, TokenFacts } from './tokenRegistry';

export type Side = 'buy' | 'sell';
export type Exact = 'in' | 'out';

export interface QuoteRequest {
  token: TokenFacts;
  side: Side;
  exact: Exact;
  /** Wei of the exact side: what is paid (exact in) or received (exact out). */
  amount: bigint;
  slippageBps: number;
}

export interface Quote extends QuoteRequest {
  pay: bigint;
  payCurrency: Currency;
  receive: bigint;
  receiveCurrency: Currency;
  /** The floor (minReceive) or ceiling (maxPay) written into the trade. */
  limit: bigint;
  limitKind: 'minReceive' | 'maxPay';
  /** The site fee in the pair currency, and its rate. */
  siteFee: bigint;
  siteFeeBps: number;
  /** The referrer's share of the fee, in bps of the trade, as read with the fee. */
  referrerBps: number;
  priceImpactPct: number;
  /** The pool's price before the trade: what the token amounts are worth in dollars at. */
  midSqrtPriceX96: bigint;
  /** The pair's dollar rate at the quote's block; null when the pair has none (or it could not be read). */
  pairUsd: UsdRate | null;
}

/**
 * The pair's dollar rate as the quotes take it: `rate` when it must be read, `peekRate` when it can be had in the
 * turn (undefined: not read yet at the latest block).
 */
export interface QuoteDollars {
  rate(pair: Address, decimals: number): Promise<UsdRate | null>;
  peekRate(pair: Address, decimals: number): UsdRate | null | undefined;
}

/**
 * Quotes a trade locally: the pool's own swap math on its cached state, plus the router's site fee, so the figures
 * equal what the router would do in the current block, to the wei.
 *
 * Price impact is how much worse the pool fills than its price before the trade: the execution price of the pool
 * leg (pair per token, the pool's LP fee and the site fee both excluded) against the pool's mid price, in per cent,
 * so a trade small enough to move nothing shows about 0.
 */
export class QuoteService {
  constructor(
    private readonly pools: PoolStateService,
    private readonly settings: SettingsService,
    /** Dollar rates of the pairs; without them every dollar value is null. */
    private readonly dollars?: QuoteDollars,
  ) {}

  /** A currency's dollar rate as quotes take it (null when it has none, or it could not be read). */
  dollarRate(currency: Address, decimals: number): Promise<UsdRate | null> {
    return this.dollars ? this.dollars.rate(currency, decimals).catch(() => null) : Promise.resolve(null);
  }

  /** The token's pool as quotes see it (current to the latest block, cached): for its price without a trade. */
  poolOf(token: TokenFacts): Promise<PoolState> {
    return this.pools.get(token.pool, birthOf(token));
  }

  async quote(request: QuoteRequest): Promise<Quote> {
    const { token } = request;
    const [pool, settings, pairUsd] = await Promise.all([
      this.pools.get(token.pool, birthOf(token)),
      this.settings.get(),
      // A dollar value is shown beside the figures, never needed for them: a rate that cannot be read is none.
      this.dollarRate(token.pair.address, token.pair.decimals),
    ]);
    return quoteOn(request, pool, settings.fees, pairUsd);
  }

  /**
   * The same quote as `quote`, when it can be made without waiting (the pool's state and the fees already read for
   * the latest block); undefined otherwise, and the caller asks `quote`.
   */
  quoteNow(request: QuoteRequest): Quote | undefined {
    const settings = this.settings.peek();
    const pool = settings && this.pools.peek(request.token.pool);
    if (!pool) return undefined;
    const { pair } = request.token;
    const pairUsd = this.dollars ? this.dollars.peekRate(pair.address, pair.decimals) : null;
    return pairUsd === undefined ? undefined : quoteOn(request, pool, settings.fees, pairUsd);
  }
}

/** The trade on `pool` with the router's fees: the pool's own swap math, to the wei (see QuoteService). */
function quoteOn(
  request: QuoteRequest,
  pool: PoolState,
  fees: { siteFeeBps: number; referrerBps: number },
  pairUsd: UsdRate | null,
): Quote {
  const { token, side, exact, amount, slippageBps } = request;
  const { siteFeeBps, referrerBps } = fees;
  const tokenCurrency = currencyOf(token);
  // Buying pays the pair into the pool: the pair is token0 exactly when the token is token1.
  const zeroForOne = side === 'buy' ? !token.tokenIs0 : token.tokenIs0;
  let pay: bigint;
  let receive: bigint;
  let siteFee: bigint;
  let swap: ReturnType<typeof simulateSwap>;
  if (side === 'buy' && exact === 'in') {
    siteFee = siteFeeOn(amount, siteFeeBps);
    const net = amount - siteFee;
    if (net === 0n) throw tooSmall('nothing is left to buy with after the site fee');
    swap = swapOn(pool, zeroForOne, net);
    if (!swap.filled) throw tooThin(token);
    pay = amount;
    receive = swap.amountOut;
  } else if (side === 'buy') {
    swap = swapOn(pool, zeroForOne, -amount);
    if (!swap.filled) throw tooThin(token);
    pay = grossForNet(swap.amountIn, siteFeeBps);
    siteFee = pay - swap.amountIn;
    receive = amount;
  } else if (exact === 'in') {
    swap = swapOn(pool, zeroForOne, amount);
    if (!swap.filled) throw tooThin(token);
    siteFee = siteFeeOn(swap.amountOut, siteFeeBps);
    if (swap.amountOut <= siteFee) throw tooSmall('the sale would not cover the site fee');
    pay = amount;
    receive = swap.amountOut - siteFee;
  } else {
    const gross = grossForNet(amount, siteFeeBps);
    swap = swapOn(pool, zeroForOne, -gross);
    if (!swap.filled) throw tooThin(token);
    siteFee = gross - amount;
    pay = swap.amountIn;
    receive = amount;
  }
  if (receive === 0n) throw tooSmall('the pool would give nothing for this amount');
  const exactIn = exact === 'in';
  // The request's fields one by one, not spread: V8 defines each property after a spread through its slow generic
  // path, which cost more than the swap math itself on every quote.
  return {
    token,
    side,
    exact,
    amount,
    slippageBps,
    pay,
    payCurrency: side === 'buy' ? token.pair : tokenCurrency,
    receive,
    receiveCurrency: side === 'buy' ? tokenCurrency : token.pair,
    limit: exactIn ? minReceiveFor(receive, slippageBps) : maxPayFor(pay, slippageBps),
    limitKind: exactIn ? 'minReceive' : 'maxPay',
    siteFee,
    siteFeeBps,
    referrerBps,
    priceImpactPct: priceImpact(pool, swap, zeroForOne),
    midSqrtPriceX96: pool.sqrtPriceX96,
    pairUsd,
  };
}

/** Each token as a currency, made once: a quote names it as what is paid or received. */
const currencies = new WeakMap<TokenFacts, Currency>();

function currencyOf(token: TokenFacts): Currency {
  let currency = currencies.get(token);
  if (currency === undefined) {
    currency = { address: token.address, decimals: token.decimals, symbol: token.symbol };
    currencies.set(token, currency);
  }
  return currency;
}

function swapOn(pool: PoolState, zeroForOne: boolean, amountSpecified: bigint) {
  try {
    return simulateSwap(pool, zeroForOne, amountSpecified);
  } catch (error) {
    // The price already sits at the end of its range: nothing can be filled this way.
    if (error instanceof RangeError) return { filled: false } as ReturnType<typeof simulateSwap>;
    throw error;
  }
}

function tooThin(token: TokenFacts): ApiError {
  return new ApiError('POOL_TOO_THIN', `the ${token.symbol} pool cannot fill that size in one trade`);
}

function tooSmall(why: string): ApiError {
  return new ApiError('AMOUNT_TOO_SMALL', `the amount is too small: ${why}`);
}

/** Fixed-point scale of the prices compared in priceImpact. */
const SCALE = 10n ** 36n;

/** The mid price priceImpact worked out last, by the price it came from: quote after quote ask the same pool. */
let lastMid = { sqrtPriceX96: 0n, mid: 0n };

/** sqrtPriceX96² / 2^192 scaled by SCALE: the pool's price, token1 per token0. */
function midPrice(sqrtPriceX96: bigint): bigint {
  if (lastMid.sqrtPriceX96 !== sqrtPriceX96)
    lastMid = { sqrtPriceX96, mid: (sqrtPriceX96 * sqrtPriceX96 * SCALE) >> 192n };
  return lastMid.mid;
}

/**
 * Execution price of the pool leg against the mid price before it, in per cent (both in token1 per token0, so
 * decimals cancel). Fees excluded: the pool's fee comes off what went in.
 */
function priceImpact(pool: PoolState, swap: ReturnType<typeof simulateSwap>, zeroForOne: boolean): number {
  const inNet = swap.amountIn - swap.feeAmount;
  if (inNet <= 0n || swap.amountOut <= 0n) return 0;
  // mid = sqrtP² / 2^192 (token1 per token0); execution = out/in (zeroForOne) or in/out.
  const mid = midPrice(pool.sqrtPriceX96);
  const execution = zeroForOne ? (swap.amountOut * SCALE) / inNet : (inNet * SCALE) / swap.amountOut;
  if (mid === 0n) return 0;
  // Selling token0 gets less token1 than mid; buying token0 pays more: both are a loss against mid.
  const ratio = Number((execution * 1_000_000n) / mid) / 1_000_000;
  const impact = zeroForOne ? (1 - ratio) * 100 : (ratio - 1) * 100;
  return Math.max(0, Math.round(impact * 10_000) / 10_000);
}

/** Where the token's pool was priced: in its launch, when the index has it. */
function birthOf(token: TokenFacts): PoolBirth | undefined {
  if (token.launchBlock === undefined) return undefined;
  return { block: token.launchBlock, fee: token.feeTier, tickSpacing: token.tickSpacing };
}

/** The prices quotePrices worked out last, by what they were worked out from: a bot asks the same pool again and again. */
let lastPrices:
  | { rate: UsdRate | null; sqrtPriceX96: bigint; tokenIs0: boolean; buy: Prices; sell: Prices }
  | undefined;

/** What a wei of a quote's pay, receive and site fee is worth (see quotePrices). */
interface Prices {
  pay: MicroPrice | null;
  receive: MicroPrice | null;
  pair: MicroPrice | null;
}

/**
 * What a wei of each amount of a quote is worth in dollars: the pair's at its dollar rate, the token's at the pool's
 * price before the trade in that rate (not the trade's own price, which its size moves). Null where unpriced.
 */
export function quotePrices(quote: Quote): Prices {
  const { pairUsd: rate, midSqrtPriceX96: sqrtPriceX96 } = quote;
  const { tokenIs0 } = quote.token;
  let last = lastPrices;
  if (!last || last.rate !== rate || last.sqrtPriceX96 !== sqrtPriceX96 || last.tokenIs0 !== tokenIs0) {
    const pair = pairMicroPrice(rate);
    const token = pair && tokenMicroPrice(sqrtPriceX96, tokenIs0, rate);
    const buy = { pay: pair, receive: token, pair };
    const sell = { pay: token, receive: pair, pair };
    last = { rate, sqrtPriceX96, tokenIs0, buy, sell };
    lastPrices = last;
  }
  return quote.side === 'buy' ? last.buy : last.sell;
}
