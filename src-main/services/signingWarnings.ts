import type { Address } from 'viem';
import { formatAmount, formatUsd } from '../../src-shared/format/numbers';
import { formatDuration, formatFromNow } from '../../src-shared/format/times';
import { CLOCK_SKEW_SECONDS } from '../../src-shared/inspect/checkTransaction';
import { decodeCall, type TradeParams } from '../../src-shared/inspect/decodeCall';
import { addressLabel, type KnownContracts } from '../../src-shared/inspect/knownContracts';
import { headlineOf, type InterestWarning, interestWarnings } from '../../src-shared/inspect/signingView';
import type { UnsignedTxWei } from '../../src-shared/schema/unsignedTx';
import { type MicroPrice, usdMicros } from '../core/units/dollarValue';
import { type Quote, quotePrices } from './quoteService';

/** A warning main itself raised about a transaction it is asked to sign: the person must confirm it to main. */
export type SigningWarning = InterestWarning;

/**
 * How far a trade's limit may allow the price to move against the person from the current quote before main warns:
 * the same 5% above which the trade panel warns about the slippage set. Main cannot know the slippage the person set
 * on the page (whatever can drive the page can claim any), so it judges the limit against the chain's own quote.
 */
export const LIMIT_WARNING_BPS = 500n;
/** A price per gas more than this many times the recent median is a warning (with its cost in dollars). */
export const FEE_WARNING_MULTIPLE = 3n;

/** A trade as main asks the service to quote it: the same side, exactness and amount as the call. */
export interface TradeAsk {
  token: Address;
  side: 'buy' | 'sell';
  exact: 'in' | 'out';
  amount: bigint;
}

/** What main reads to judge a transaction, from the chain and the service (never from the page). */
export interface WarningSources {
  known: KnownContracts;
  /** The chain's clock in ms: deadlines are judged on it (a rehearsal may have moved it forward). */
  now: () => number;
  /** The service's longest trade deadline, in seconds from now. */
  tradeDeadlineSeconds: number;
  /** The referrer the wallet is bound to on chain, or null (unbound, or no referral contract). */
  boundReferrer: (wallet: Address) => Promise<Address | null>;
  /** The trade quoted now at the latest block; null when it cannot be quoted (the warning then says so). */
  quote: (trade: TradeAsk) => Promise<Quote | null>;
  /** The median price per gas paid in recent blocks; null where no recent block had a transaction. */
  medianGasPrice: () => Promise<bigint | null>;
  /** Dollars per BNB as an exact rate, for a fee's cost; null without a price. */
  bnbRate: () => Promise<MicroPrice | null>;
}

/** The fees main filled in, which the warnings judge with the call. */
export interface FilledFees {
  gas: bigint;
  maxFeePerGas: bigint;
}

/** A transaction as main judged it: what it does in one sentence, and what main warns about. */
export interface Judged {
  headline: string;
  warnings: SigningWarning[];
}

/**
 * Every warning main raises about a transaction before it signs it: the review's own interest checks (money, tokens
 * or royalties to another wallet, an unlimited approval, a claim paying someone else), judged against what the chain
 * says rather than what the page claims (the wallet's bound referrer); a trade's limit far from the current quote, or
 * zero; a deadline beyond the service's; and a price per gas far above what recent blocks paid.
 */
export async function judgeTransaction(
  tx: UnsignedTxWei,
  fees: FilledFees,
  wallet: Address,
  sources: WarningSources,
): Promise<Judged> {
  const { known } = sources;
  const summary = decodeCall(
    { chainId: tx.chainId, to: tx.to, data: tx.data, value: tx.value.toString() },
    { known, now: Math.floor(sources.now() / 1000) },
  );
  const { call } = summary;
  const trade = call.kind === 'trade' ? call : null;
  // The chain is read for the three at once: each is a round trip to the node while the review waits.
  const [bound, limit, fee] = await Promise.all([
    // Unreadable, the binding counts as none: a referrer in the call is then warned about, never waved through.
    trade ? sources.boundReferrer(wallet).catch(() => null) : null,
    trade ? limitWarning(trade.function, trade.params, sources) : null,
    feeWarning(fees, sources),
  ]);
  const warnings = interestWarnings(summary, { signer: wallet, referrer: bound, slippageBps: 10_000 }, {}, known)
    // Main's guard lets through only approvals a build of this service made for this wallet (Permit2's own flow:
    // unlimited to Permit2, which lets only the wallet's own signed trades pull); the review still asks for a tick.
    .filter((warning) => warning.id !== 'unlimited-approval')
    .map((warning) =>
      warning.id === 'referrer-not-chosen' ? referrerWarning(summary.referrer as Address, bound, known) : warning,
    );
  if (limit) warnings.push(limit);
  const deadline = trade ? deadlineWarning(Number(trade.params.deadline), sources) : null;
  if (deadline) warnings.push(deadline);
  if (fee) warnings.push(fee);
  return { headline: headlineOf(summary, known), warnings };
}

/** The referrer as main can judge it: a cut to a referrer the chain has not bound this wallet to, for life. */
function referrerWarning(referrer: Address, bound: Address | null, known: KnownContracts): SigningWarning {
  const label = addressLabel(referrer, known);
  const named = label ? `${referrer} (${label})` : referrer;
  return {
    id: 'referrer-not-chosen',
    message: bound
      ? `The trade names ${named} as referrer, but your wallet is bound to ${bound}.`
      : `The trade pays a referral cut to ${named} and binds your wallet to it for life: your wallet has no referrer yet.`,
  };
}

/**
 * A limit that lets the price move more than LIMIT_WARNING_BPS against the person from the current quote (less
 * received, or more paid), or a limit of zero (no protection at all), with its worst case in units and dollars.
 */
async function limitWarning(fn: string, params: TradeParams, sources: WarningSources): Promise<SigningWarning | null> {
  const side = fn.startsWith('buy') ? 'buy' : 'sell';
  const exact = fn.endsWith('In') ? 'in' : 'out';
  if (params.limit === 0n && exact === 'in') {
    return {
      id: 'limit-zero',
      message:
        'The trade accepts receiving nothing at all (its limit is 0): anyone who trades just before it in the block can take the whole trade.',
    };
  }
  const quote = await sources.quote({ token: params.token, side, exact, amount: params.amount }).catch(() => null);
  if (!quote) {
    return {
      id: 'limit-unchecked',
      message: `The app could not quote this ${side} now, so it cannot say how far its limit is from the current price.`,
    };
  }
  const prices = quotePrices(quote);
  if (exact === 'in') {
    const floor = (quote.receive * (10_000n - LIMIT_WARNING_BPS)) / 10_000n;
    if (params.limit >= floor) return null;
    const currency = quote.receiveCurrency;
    const loss = quote.receive - params.limit;
    return {
      id: 'limit-far-from-quote',
      message: `The trade accepts receiving as little as ${units(params.limit, currency)}, ${percentOf(loss, quote.receive)} less than the ${units(quote.receive, currency)} it gets at the current price: up to ${units(loss, currency)}${dollars(loss, prices.receive)} can be taken from you.`,
    };
  }
  const ceiling = (quote.pay * (10_000n + LIMIT_WARNING_BPS)) / 10_000n;
  if (params.limit <= ceiling) return null;
  const currency = quote.payCurrency;
  const extra = params.limit - quote.pay;
  return {
    id: 'limit-far-from-quote',
    message: `The trade may pay as much as ${units(params.limit, currency)}, ${percentOf(extra, quote.pay)} more than the ${units(quote.pay, currency)} it costs at the current price: up to ${units(extra, currency)}${dollars(extra, prices.pay)} more can be taken from you.`,
  };
}

/** A deadline further away than the service ever builds: a signed trade that can be held and mined much later. */
function deadlineWarning(deadline: number, sources: WarningSources): SigningWarning | null {
  const now = Math.floor(sources.now() / 1000);
  const allowed = sources.tradeDeadlineSeconds + CLOCK_SKEW_SECONDS;
  if (deadline - now <= allowed) return null;
  const until = formatFromNow(deadline * 1000, now * 1000);
  return {
    id: 'deadline-too-far',
    message: `The trade's deadline is ${until}, far beyond the app's ${formatDuration(sources.tradeDeadlineSeconds)}: whoever holds it signed can have it mined much later, at whatever the price is then.`,
  };
}

/** A price per gas over FEE_WARNING_MULTIPLE times what recent blocks paid, with what it may cost. */
async function feeWarning(fees: FilledFees, sources: WarningSources): Promise<SigningWarning | null> {
  const median = await sources.medianGasPrice().catch(() => null);
  if (median === null || median === 0n || fees.maxFeePerGas <= median * FEE_WARNING_MULTIPLE) return null;
  const cost = fees.gas * fees.maxFeePerGas;
  const rate = await sources.bnbRate().catch(() => null);
  const gwei = (wei: bigint) => formatAmount(wei, 9, { significant: 3 });
  return {
    id: 'fee-above-median',
    message: `The fee is up to ${gwei(fees.maxFeePerGas)} gwei per gas, ${(fees.maxFeePerGas / median).toString()} times the ${gwei(median)} gwei recent blocks paid: up to ${units(cost, { symbol: 'BNB', decimals: 18 })}${dollars(cost, rate)} for this transaction.`,
  };
}

function units(wei: bigint, currency: { symbol: string; decimals: number }): string {
  return `${formatAmount(wei, currency.decimals)} ${currency.symbol}`;
}

function dollars(wei: bigint, price: MicroPrice | null): string {
  const micros = usdMicros(wei, price);
  return micros === null ? '' : ` (${formatUsd(Number(micros) / 1e6)})`;
}

function percentOf(part: bigint, whole: bigint): string {
  if (whole === 0n) return 'all';
  const tenths = (part * 1000n) / whole;
  return `${tenths / 10n}.${tenths % 10n}%`;
}

/** Whether the warnings main raised are exactly those the person confirmed (by id, in any order). */
export function confirmsExactly(warnings: readonly SigningWarning[], confirmed: readonly string[]): boolean {
  const ids = new Set(warnings.map((warning) => warning.id));
  return ids.size === new Set(confirmed).size && confirmed.every((id) => ids.has(id));
}
