import type { Address } from 'viem';
import type { LaunchParams, TxSummary } from '../../../src-shared/inspect/decodeCall';
import { currencyAt } from '../../../src-shared/inspect/humanUnits';
import {
  addressLabel,
  type KnownContracts,
  sameAddress,
  type TokenInfos,
} from '../../../src-shared/inspect/knownContracts';

/** An amount of one currency, with what a whole unit is worth in dollars when the app knows. */
export interface FlowAmount {
  wei: bigint;
  decimals: number;
  symbol: string;
  usdPerUnit: number | null;
}

/** One part of what is paid, when a payment is more than one thing (a launch's first buy and its fee). */
export interface PayPart {
  what: 'first buy' | 'launch fee';
  amount: FlowAmount;
}

/** One wallet a launch's first buy is split to: its share and the fewest tokens it can get. */
export interface FirstBuyShare {
  wallet: Address;
  /** How the app knows the address (the dead address says it burns), or null. */
  name: string | null;
  bps: number;
  /** The signing wallet itself. */
  isSigner: boolean;
  atLeast: FlowAmount;
}

/**
 * What a transaction does to the person's money, read from the decoded call and the BNB the transaction really sends
 * (never from a build's text): what they pay (exact, or at most), what they get (exact, or at least), who else gets a
 * launch's first buy, the most the network may charge, and the contract called. An approval pays and gets nothing;
 * its headline says what it allows.
 */
export interface MoneyFlow {
  pay: { label: 'You pay' | 'You pay at most'; amount: FlowAmount } | null;
  /** What `pay` is made of when it is more than one thing, each in its own currency. */
  payParts: PayPart[];
  /**
   * The BNB the transaction sends when it is not what the call pays with (a tampered or mistaken value): the
   * difference is lost to a revert at best. Null when the value is exactly what the call pays.
   */
  valueMismatch: { sent: FlowAmount; callPays: FlowAmount } | null;
  /** Only what the signing wallet gets: null when all of it goes to other wallets. */
  get: { label: 'You get' | 'You get at least'; amount: FlowAmount } | null;
  /** A launch's first buy split among wallets, each with its share; empty when it all goes to the signer. */
  firstBuyTo: FirstBuyShare[];
  /** gas × max fee per gas of the filled transaction, in BNB wei; null until main has filled it. */
  networkFeeWei: bigint | null;
  /** Dollars per BNB, for the network fee's dollar value. */
  usdPerBnb: number | null;
  to: { address: Address; name: string | null };
}

/** LaunchToken mints with 18 decimals, always. */
const TOKEN_DECIMALS = 18;
const BPS = 10_000n;

type AmountOf = (address: Address, wei: bigint, fallbackSymbol: string) => FlowAmount;

/**
 * @param usdPerUnit dollars per whole unit of a currency by address (BNB for WBNB), or null when it has no price.
 * @param signer the wallet that signs, so a split first buy says what it gets and what goes elsewhere; without it
 *   every recipient is shown as another wallet's.
 */
export function moneyFlowOf(
  summary: TxSummary,
  known: KnownContracts,
  tokens: TokenInfos,
  usdPerUnit: (address: Address) => number | null,
  networkFeeWei: bigint | null,
  signer?: Address,
): MoneyFlow {
  const amountOf: AmountOf = (address, wei, fallbackSymbol) => {
    const currency = currencyAt(address, known, tokens);
    return {
      wei,
      decimals: currency?.decimals ?? TOKEN_DECIMALS,
      symbol: currency?.symbol ?? fallbackSymbol,
      usdPerUnit: usdPerUnit(address),
    };
  };
  const bnb = (wei: bigint) => amountOf(known.wbnb, wei, 'BNB');
  const sent = BigInt(summary.value.wei);
  /** Compares the value sent with what the call pays in BNB; a mismatch is shown beside the payment. */
  const mismatch = (callPays: bigint) => (sent === callPays ? null : { sent: bnb(sent), callPays: bnb(callPays) });
  const base = {
    payParts: [] as PayPart[],
    firstBuyTo: [] as FirstBuyShare[],
    networkFeeWei,
    usdPerBnb: usdPerUnit(known.wbnb),
    to: { address: summary.to, name: addressLabel(summary.to, known, tokens) },
  };
  const { call } = summary;
  if (call.kind === 'trade') {
    const { token, pair, amount, limit } = call.params;
    const buy = call.function.startsWith('buy');
    const exactIn = call.function.endsWith('In');
    const native = buy && sameAddress(pair, known.wbnb);
    const tokenAmount = (wei: bigint) => amountOf(token, wei, 'tokens');
    const pairAmount = (wei: bigint) => amountOf(pair, wei, 'pair');
    // Exact in: `amount` is paid, `limit` the least received; exact out: `amount` received, `limit` the most paid.
    const callPays = exactIn ? amount : limit;
    // A native buy pays with the BNB the transaction sends, whatever its arguments say.
    const paid = native ? bnb(sent) : buy ? pairAmount(callPays) : tokenAmount(callPays);
    const received = buy ? tokenAmount(exactIn ? limit : amount) : pairAmount(exactIn ? limit : amount);
    return {
      ...base,
      pay: { label: exactIn ? 'You pay' : 'You pay at most', amount: paid },
      valueMismatch: mismatch(native ? callPays : 0n),
      get: { label: exactIn ? 'You get at least' : 'You get', amount: received },
    };
  }
  if (call.kind === 'launch') return { ...base, ...launchFlow(call.params, sent, known, amountOf, bnb, signer) };
  return {
    ...base,
    pay: sent > 0n ? { label: 'You pay', amount: bnb(sent) } : null,
    // A claim or an approval pays no BNB at all.
    valueMismatch: mismatch(0n),
    get: null,
  };
}

/**
 * A launch's payment and who gets its first buy. Paid natively, everything the transaction sends is paid (the first
 * buy and, above it, the launch fee); paid in a token, the first buy is that token and the fee is the BNB sent. The
 * factory gives each recipient its share of the tokens rounded down (the last one the rest), so each gets at least
 * its share of the floor, rounded down.
 */
function launchFlow(
  params: LaunchParams,
  sent: bigint,
  known: KnownContracts,
  amountOf: AmountOf,
  bnb: (wei: bigint) => FlowAmount,
  signer: Address | undefined,
): Pick<MoneyFlow, 'pay' | 'payParts' | 'valueMismatch' | 'get' | 'firstBuyTo'> {
  const { pair, firstBuy, minTokens, symbol } = params;
  const native = sameAddress(pair, known.wbnb);
  const buys = firstBuy > 0n;
  const fee = native ? sent - firstBuy : sent;
  const payParts: PayPart[] = [];
  if (buys) payParts.push({ what: 'first buy', amount: native ? bnb(firstBuy) : amountOf(pair, firstBuy, 'pair') });
  if (fee > 0n) payParts.push({ what: 'launch fee', amount: bnb(fee) });
  const total = native ? sent : buys ? firstBuy : sent;
  const pay =
    total > 0n
      ? { label: 'You pay' as const, amount: native || !buys ? bnb(total) : amountOf(pair, firstBuy, 'pair') }
      : null;
  const tokensOf = (wei: bigint): FlowAmount => ({ wei, decimals: TOKEN_DECIMALS, symbol, usdPerUnit: null });
  const firstBuyTo: FirstBuyShare[] = params.firstBuyTo.map((share) => ({
    wallet: share.wallet,
    name: addressLabel(share.wallet, known),
    bps: share.bps,
    isSigner: signer !== undefined && sameAddress(share.wallet, signer),
    atLeast: tokensOf((minTokens * BigInt(share.bps)) / BPS),
  }));
  const mine = firstBuyTo.find((share) => share.isSigner);
  const get = !buys
    ? null
    : firstBuyTo.length === 0
      ? { label: 'You get at least' as const, amount: tokensOf(minTokens) }
      : mine
        ? { label: 'You get at least' as const, amount: mine.atLeast }
        : null;
  return {
    pay,
    // Only a pay of more than one part is broken down.
    payParts: payParts.length > 1 ? payParts : [],
    // Sending less than a native first buy leaves it unpaid: the launch cannot go through as it reads.
    valueMismatch: native && sent < firstBuy ? { sent: bnb(sent), callPays: bnb(firstBuy) } : null,
    get,
    firstBuyTo,
  };
}
