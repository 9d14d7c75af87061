import { type Address, zeroAddress } from 'viem';
import { formatUsd, usdValue } from '../format/numbers';
import { formatDuration } from '../format/times';
import type { DecodeContext, DecodedCall, LaunchParams, TradeParams, TxSummary } from './decodeCall';
import type {
  ClaimExpectation,
  CollectExpectation,
  Expectation,
  LaunchExpectation,
  StepExpectation,
  TradeExpectation,
  UnsignedExpectation,
} from './expectation';
import { currencyAt, formatAddress, formatAmount, formatBps, formatDeadline, formatFeeTier } from './humanUnits';
import { addressLabel, sameAddress, type TokenInfo } from './knownContracts';

/** Stable names of the checks: the review screen, the CLI and the tests key on them, never on the message. */
export type CheckId =
  | 'input-shape'
  | 'chain-id'
  | 'to-known'
  | 'function-known'
  | 'wallet-matches'
  | 'intent-matches'
  | 'step-expected'
  | 'recipient-is-signer'
  | 'recipients-match'
  | 'token-matches'
  | 'pair-matches'
  | 'fee-tier-matches'
  | 'amount-matches'
  | 'amount-within-limit'
  | 'limit-matches-slippage'
  | 'value-matches'
  | 'deadline-future'
  | 'deadline-not-too-far'
  | 'deadline-matches'
  | 'spender-known'
  | 'referrer-matches'
  | 'name-matches'
  | 'symbol-matches'
  | 'supply-matches'
  | 'royalty-matches'
  | 'salt-matches'
  | 'metadata-matches';

/** One check: passed or not, and in human units what was expected and what was found. */
export interface Check {
  id: CheckId;
  ok: boolean;
  message: string;
}

export interface CheckContext extends DecodeContext {
  /** The wallet that will sign, when known: it must be the wallet the build is for. */
  signer?: Address;
  /**
   * Dollars per whole unit of a currency (BNB for WBNB), where the reader has a price: amounts in the messages then
   * carry their dollar value. The inspector CLI has none and words amounts in units only.
   */
  usdPerUnit?: (address: Address) => number | null;
}

/**
 * How far a deadline may run past now plus its allowance: the devnet's block times run a little ahead of the wall
 * clock when blocks come faster than one a second, and the service takes the later of the two.
 */
export const CLOCK_SKEW_SECONDS = 120;
/** ServiceConfig's hard cap on the launch fee (1 BNB): more can never be due. */
const MAX_LAUNCH_FEE_WEI = 10n ** 18n;
/** Approvals at or above 2^255 are read as unlimited, as wallets show them. */
const MAX_UINT256_HALF = 2n ** 255n;

/**
 * Checks a decoded transaction against what the user asked for, so that a transaction that differs from its
 * description (tampered data, another contract or chain, a worse limit, a later deadline, another referrer) shows
 * as a failed check naming what differs, before anything is signed.
 */
export function checkTransaction(summary: TxSummary, expected: Expectation, ctx: CheckContext): Check[] {
  const c = new Checks(summary, ctx);
  c.add(
    'chain-id',
    summary.chainId === ctx.known.chainId,
    `chain ${summary.chainId}`,
    `the transaction is for chain ${summary.chainId}; expected chain ${ctx.known.chainId}`,
  );
  if ('wallet' in expected && ctx.signer !== undefined) {
    c.add(
      'wallet-matches',
      sameAddress(ctx.signer, expected.wallet),
      `built for the signing wallet ${expected.wallet}`,
      `built for ${expected.wallet}, but ${ctx.signer} would sign it`,
    );
  }
  switch (expected.kind) {
    case 'trade':
      checkTrade(c, expected);
      break;
    case 'launch':
      checkLaunch(c, expected);
      break;
    case 'claim':
      checkClaim(c, expected);
      break;
    case 'collect':
      checkCollect(c, expected);
      break;
    case 'step':
      checkStep(c, expected);
      break;
    case 'unsigned':
      checkUnsigned(c, expected);
      break;
  }
  return c.list;
}

/** Collects checks with the summary and context at hand, and words their messages. */
class Checks {
  readonly list: Check[] = [];
  constructor(
    readonly summary: TxSummary,
    readonly ctx: CheckContext,
  ) {}

  add(id: CheckId, ok: boolean, okMessage: string, failMessage: string): void {
    this.list.push({ id, ok, message: ok ? okMessage : failMessage });
  }

  address(address: string): string {
    return formatAddress(address, addressLabel(address, this.ctx.known, this.ctx.tokens));
  }

  /** An amount in whole units with its symbol, and its dollar value where the reader has a price. */
  amount(wei: bigint, currencyAddress: Address): string {
    const currency = currencyAt(currencyAddress, this.ctx.known, this.ctx.tokens);
    const shown = formatAmount(wei, currency);
    if (!currency || wei >= MAX_UINT256_HALF) return shown;
    const usd = usdValue(wei, currency.decimals, this.ctx.usdPerUnit?.(currencyAddress));
    return usd === null ? shown : `${shown} (${formatUsd(usd)})`;
  }

  /** BNB in whole units, with dollars where the reader has BNB's price. */
  bnb(wei: bigint): string {
    return this.amount(wei, this.ctx.known.wbnb);
  }

  /** `to` is the one contract the expectation allows. */
  target(expectedTo: Address | null, what: string): void {
    const { to } = this.summary;
    if (expectedTo === null) {
      this.add('to-known', false, '', `${what} is not known on chain ${this.ctx.known.chainId}; to is ${to}`);
      return;
    }
    this.add(
      'to-known',
      sameAddress(to, expectedTo),
      `sent to ${this.address(to)}`,
      `sent to ${this.address(to)}; expected ${what} at ${expectedTo}`,
    );
  }

  /** The decoded function is the one expected; returns the call when it is of the expected kind. */
  func<K extends DecodedCall['kind']>(
    kind: K,
    name: string,
    contractLabel: string,
  ): Extract<DecodedCall, { kind: K }> | undefined {
    const { call } = this.summary;
    const found = this.summary.function;
    this.add(
      'function-known',
      call.kind === kind && found === name,
      `calls ${contractLabel}.${name}`,
      found === null
        ? `the data is no known call (${call.kind === 'undecoded' ? call.reason : 'not decoded'}); expected ${contractLabel}.${name}`
        : `calls ${this.summary.contractLabel}.${found}; expected ${contractLabel}.${name}`,
    );
    return call.kind === kind ? (call as Extract<DecodedCall, { kind: K }>) : undefined;
  }

  value(expectedWei: bigint, why: string): void {
    const found = BigInt(this.summary.value.wei);
    this.add(
      'value-matches',
      found === expectedWei,
      `sends ${this.bnb(found)}: ${why}`,
      `sends ${this.bnb(found)}; expected ${this.bnb(expectedWei)}: ${why}`,
    );
  }

  /** A deadline or expiry in the future and not beyond `maxSeconds` from now. */
  deadline(seconds: bigint, maxSeconds: number, what: string): void {
    const { now } = this.ctx;
    const shown = formatDeadline(seconds, now);
    this.add('deadline-future', seconds > BigInt(Math.floor(now)), `${what}: ${shown}`, `${what} has passed: ${shown}`);
    const latest = BigInt(Math.floor(now) + maxSeconds + CLOCK_SKEW_SECONDS);
    this.add(
      'deadline-not-too-far',
      seconds <= latest,
      `${what} is at most ${formatDuration(maxSeconds)} away`,
      `${what} is ${shown}; at most ${formatDuration(maxSeconds)} from now is accepted`,
    );
  }
}

function checkTrade(c: Checks, e: TradeExpectation): void {
  const { known } = c.ctx;
  c.target(known.router, 'the trade router');
  const name = `${e.side}Exact${e.exact === 'in' ? 'In' : 'Out'}`;
  const call = c.func('trade', name, 'TradeRouter');
  const paidIn = e.side === 'buy' ? e.pair : e.token;
  const receivedIn = e.side === 'buy' ? e.token : e.pair;
  if (call) tradeParams(c, e, call.params, paidIn, receivedIn);
  const bnbDue = e.nativeBnb && e.side === 'buy' ? (e.exact === 'in' ? e.pay : e.limit.wei) : 0n;
  c.value(
    bnbDue,
    bnbDue === 0n
      ? 'no BNB is paid with this trade'
      : e.exact === 'in'
        ? 'a BNB buy sends what it pays'
        : 'an exact-out BNB buy sends its ceiling; the rest comes back',
  );
}

function tradeParams(c: Checks, e: TradeExpectation, p: TradeParams, paidIn: Address, receivedIn: Address): void {
  c.add(
    'token-matches',
    sameAddress(p.token, e.token),
    `trades ${c.address(p.token)}`,
    `trades ${c.address(p.token)}; expected ${c.address(e.token)}`,
  );
  c.add(
    'pair-matches',
    sameAddress(p.pair, e.pair),
    `against ${c.address(p.pair)}`,
    `against ${c.address(p.pair)}; expected ${c.address(e.pair)}`,
  );
  if (e.feeTier !== undefined) {
    c.add(
      'fee-tier-matches',
      p.fee === e.feeTier,
      `in the ${formatFeeTier(p.fee)} pool`,
      `in the ${formatFeeTier(p.fee)} pool; expected the ${formatFeeTier(e.feeTier)} pool`,
    );
  }
  const exactIn = e.exact === 'in';
  const amount = exactIn ? e.pay : e.receive;
  const amountIn = exactIn ? paidIn : receivedIn;
  const role = exactIn ? 'pays exactly' : 'receives exactly';
  c.add(
    'amount-matches',
    p.amount === amount,
    `${role} ${c.amount(p.amount, amountIn)}`,
    `${role} ${c.amount(p.amount, amountIn)}; expected ${c.amount(amount, amountIn)}`,
  );
  const limitIn = exactIn ? receivedIn : paidIn;
  if (exactIn) {
    c.add(
      'amount-within-limit',
      p.limit >= e.limit.wei,
      `receives at least ${c.amount(p.limit, limitIn)}`,
      `receives at least ${c.amount(p.limit, limitIn)}, less than the ${c.amount(e.limit.wei, limitIn)} accepted`,
    );
  } else {
    c.add(
      'amount-within-limit',
      p.limit <= e.limit.wei,
      `pays at most ${c.amount(p.limit, limitIn)}`,
      `pays at most ${c.amount(p.limit, limitIn)}, more than the ${c.amount(e.limit.wei, limitIn)} accepted`,
    );
  }
  const referrer = p.referrer === zeroAddress ? null : p.referrer;
  c.add(
    'referrer-matches',
    referrer === null ? e.referrer === null : sameAddress(referrer, e.referrer),
    referrer === null ? 'names no referrer' : `names referrer ${c.address(referrer)}`,
    `names ${referrer === null ? 'no referrer' : `referrer ${c.address(referrer)}`}; expected ${e.referrer === null ? 'none' : c.address(e.referrer)}`,
  );
  c.deadline(p.deadline, e.deadlineMaxSeconds, 'the deadline');
  if (e.deadline !== undefined) {
    c.add(
      'deadline-matches',
      p.deadline === BigInt(e.deadline),
      'the deadline is the one announced',
      `the deadline is ${formatDeadline(p.deadline, c.ctx.now)}; the build announced ${formatDeadline(BigInt(e.deadline), c.ctx.now)}`,
    );
  }
}

function checkLaunch(c: Checks, e: LaunchExpectation): void {
  c.target(c.ctx.known.factory, 'the launch factory');
  const call = c.func('launch', 'launch', 'LaunchFactory');
  if (call) launchParams(c, e, call.params);
  const firstBuy = e.nativeBnb ? (e.firstBuy ?? 0n) : 0n;
  c.value(
    e.launchFeeWei + firstBuy,
    firstBuy > 0n
      ? `the ${c.bnb(e.launchFeeWei)} launch fee plus the first buy`
      : `the ${c.bnb(e.launchFeeWei)} launch fee`,
  );
}

function launchParams(c: Checks, e: LaunchExpectation, p: LaunchParams): void {
  const same = (id: CheckId, field: string, found: string, wanted: string) =>
    c.add(
      id,
      found === wanted,
      `${field} ${JSON.stringify(found)}`,
      `${field} ${JSON.stringify(found)}; expected ${JSON.stringify(wanted)}`,
    );
  same('name-matches', 'name', p.name, e.name);
  same('symbol-matches', 'symbol', p.symbol, e.symbol);
  const launched: TokenInfo = { symbol: e.symbol, decimals: 18 };
  c.add(
    'supply-matches',
    p.supply === e.supply,
    `supply ${formatAmount(p.supply, launched)}`,
    `supply ${formatAmount(p.supply, launched)}; expected ${formatAmount(e.supply, launched)}`,
  );
  c.add(
    'pair-matches',
    sameAddress(p.pair, e.pair),
    `paired with ${c.address(p.pair)}`,
    `paired with ${c.address(p.pair)}; expected ${c.address(e.pair)}`,
  );
  if (e.feeTier !== undefined) {
    c.add(
      'fee-tier-matches',
      p.fee === e.feeTier,
      `a ${formatFeeTier(p.fee)} pool`,
      `a ${formatFeeTier(p.fee)} pool; expected ${formatFeeTier(e.feeTier)}`,
    );
  }
  const firstBuy = e.firstBuy ?? 0n;
  c.add(
    'amount-matches',
    p.firstBuy === firstBuy,
    p.firstBuy === 0n ? 'no first buy' : `first buy of ${c.amount(p.firstBuy, e.pair)}`,
    `first buy of ${c.amount(p.firstBuy, e.pair)}; expected ${firstBuy === 0n ? 'none' : c.amount(firstBuy, e.pair)}`,
  );
  if (firstBuy > 0n && e.minTokens !== undefined && e.minTokens !== null) {
    c.add(
      'amount-within-limit',
      p.minTokens >= e.minTokens,
      `the first buy gets at least ${formatAmount(p.minTokens, launched)}`,
      `the first buy accepts ${formatAmount(p.minTokens, launched)}, fewer than the ${formatAmount(e.minTokens, launched)} accepted`,
    );
  }
  const split = e.firstBuyTo ?? null;
  if (split === null) {
    c.add(
      'recipient-is-signer',
      p.firstBuyTo.length === 0,
      'the first buy, if any, goes to the sending wallet',
      `the first buy goes to ${p.firstBuyTo.map((r) => `${c.address(r.wallet)} ${formatBps(r.bps)}`).join(', ')}; expected the sending wallet`,
    );
  } else {
    const matches =
      p.firstBuyTo.length === split.length &&
      split.every((r, i) => sameAddress(p.firstBuyTo[i]?.wallet, r.wallet) && p.firstBuyTo[i]?.bps === r.bps);
    const list = (rs: readonly { wallet: Address; bps: number }[]) =>
      rs.map((r) => `${c.address(r.wallet)} ${formatBps(r.bps)}`).join(', ') || 'the sending wallet';
    c.add(
      'recipients-match',
      matches,
      `the first buy goes to ${list(p.firstBuyTo)}`,
      `the first buy goes to ${list(p.firstBuyTo)}; expected ${list(split)}`,
    );
  }
  const royaltyTo = p.royaltyTo === zeroAddress ? e.wallet : p.royaltyTo;
  const royalty = e.royalty ?? { to: e.wallet, burnBps: p.burnBps };
  c.add(
    'royalty-matches',
    sameAddress(royaltyTo, royalty.to) && p.burnBps === royalty.burnBps,
    `royalty to ${c.address(royaltyTo)}, ${formatBps(p.burnBps)} burned`,
    `royalty to ${c.address(royaltyTo)}, ${formatBps(p.burnBps)} burned; expected ${c.address(royalty.to)}, ${formatBps(royalty.burnBps)} burned`,
  );
  if (e.salt !== undefined) {
    c.add(
      'salt-matches',
      p.salt.toLowerCase() === e.salt.toLowerCase(),
      'the salt fixing the token address is the one announced',
      `salt ${p.salt}; the build announced ${e.salt}, so the token would not land at the address shown`,
    );
  }
  if (e.metadataURI !== undefined) same('metadata-matches', 'metadata', p.metadataURI, e.metadataURI);
}

function checkClaim(c: Checks, e: ClaimExpectation): void {
  c.target(c.ctx.known.referrals, 'the referral vault');
  const call = c.func('claim', 'claim', 'ReferralVault');
  if (call) {
    c.add(
      'referrer-matches',
      sameAddress(call.referrer, e.referrer),
      `pays referrer ${c.address(call.referrer)}`,
      `pays ${c.address(call.referrer)}; expected referrer ${c.address(e.referrer)}`,
    );
    if (sameAddress(e.referrer, e.wallet)) {
      c.add(
        'recipient-is-signer',
        sameAddress(call.referrer, e.wallet),
        'the claim is paid to the sending wallet',
        `the claim is paid to ${c.address(call.referrer)}, not to the sending wallet ${e.wallet}`,
      );
    }
    if (e.weeks) {
      const total = call.claims.reduce((sum, claim) => sum + claim.amount, 0n);
      const wanted = e.weeks.reduce((sum, week) => sum + week.amount, 0n);
      const matches =
        call.claims.length === e.weeks.length &&
        e.weeks.every((w, i) => call.claims[i]?.week === BigInt(w.week) && call.claims[i]?.amount === w.amount);
      c.add(
        'amount-matches',
        matches,
        `claims ${c.bnb(total)} for weeks ${call.claims.map((w) => w.week).join(', ')}`,
        `claims ${c.bnb(total)} for weeks ${call.claims.map((w) => w.week).join(', ') || 'none'}; expected ${c.bnb(wanted)} for weeks ${e.weeks.map((w) => w.week).join(', ')}`,
      );
    }
  }
  c.value(0n, 'a claim sends no BNB');
}

/** A collect goes to our factory, for the token asked about, and sends no BNB. */
function checkCollect(c: Checks, e: CollectExpectation): void {
  c.target(c.ctx.known.factory, 'the launch factory');
  const call = c.func('collect', 'collect', 'LaunchFactory');
  if (call) {
    c.add(
      'token-matches',
      sameAddress(call.token, e.token),
      `collects the fees of ${c.address(call.token)}`,
      `collects the fees of ${c.address(call.token)}; expected ${c.address(e.token)}`,
    );
  }
  c.value(0n, 'a collect sends no BNB');
}

function checkStep(c: Checks, e: StepExpectation): void {
  const { known } = c.ctx;
  if (e.step === 'approve-router') {
    c.target(known.permit2, 'Permit2');
    const call = c.func('permit2-approve', 'approve', 'Permit2');
    if (call) {
      c.add(
        'token-matches',
        sameAddress(call.token, e.token),
        `approves ${c.address(call.token)}`,
        `approves ${c.address(call.token)}; expected ${c.address(e.token)}`,
      );
      spender(c, call.spender, known.router, 'the trade router');
      c.deadline(BigInt(call.expiration), e.permitMaxSeconds, "the approval's expiry");
    }
  } else {
    const spenderIs = e.step === 'approve-permit2' ? known.permit2 : known.factory;
    c.target(e.token, `the token approved, ${c.address(e.token)}`);
    const call = c.func(
      'erc20-approve',
      'approve',
      `ERC-20 ${currencyAt(e.token, known, c.ctx.tokens)?.symbol ?? 'token'}`,
    );
    if (call) {
      spender(c, call.spender, spenderIs, e.step === 'approve-permit2' ? 'Permit2' : 'the launch factory');
      if (e.step === 'approve-factory') factoryAmount(c, call.amount, e.amount, e.token);
    }
  }
  c.value(0n, 'an approval sends no BNB');
}

/** The factory pulls the first buy once: its approval is for exactly that amount, and is never unlimited. */
function factoryAmount(c: Checks, found: bigint, wanted: bigint | undefined, token: Address): void {
  const shown = (amount: bigint) => (amount >= MAX_UINT256_HALF ? 'an unlimited amount' : c.amount(amount, token));
  if (wanted === undefined) {
    c.add(
      'amount-matches',
      found < MAX_UINT256_HALF,
      `approves ${shown(found)}`,
      `approves ${shown(found)} to the launch factory, which only ever needs the first buy`,
    );
    return;
  }
  c.add(
    'amount-matches',
    found === wanted,
    `approves exactly the first buy, ${shown(found)}`,
    `approves ${shown(found)}; the first buy needs exactly ${shown(wanted)}`,
  );
}

function spender(c: Checks, found: Address, wanted: Address, what: string): void {
  c.add(
    'spender-known',
    sameAddress(found, wanted),
    `lets ${c.address(found)} spend`,
    `lets ${c.address(found)} spend; expected ${what} at ${wanted}`,
  );
}

/** With no claims beside the call, only what the call implies: our contracts, our functions, BNB and times. */
function checkUnsigned(c: Checks, e: UnsignedExpectation): void {
  const { summary } = c;
  const { known } = c.ctx;
  const { call } = summary;
  const ours = summary.contract !== 'unknown' && summary.contract !== 'ERC-20';
  c.add(
    'to-known',
    ours || call.kind === 'erc20-approve',
    ours ? `sent to ${c.address(summary.to)}` : `sent to ${c.address(summary.to)}, the token it approves`,
    `sent to ${c.address(summary.to)}, none of the service's contracts`,
  );
  const built = ['trade', 'launch', 'claim', 'collect', 'permit2-approve', 'erc20-approve'].includes(call.kind);
  c.add(
    'function-known',
    built,
    `calls ${summary.contractLabel}.${summary.function}`,
    summary.function === null
      ? `the data is no known call${call.kind === 'undecoded' ? `: ${call.reason}` : ''}`
      : `calls ${summary.contractLabel}.${summary.function}, which the service never builds`,
  );
  const value = BigInt(summary.value.wei);
  switch (call.kind) {
    case 'trade': {
      const p = call.params;
      const native = sameAddress(p.pair, known.wbnb) && call.function.startsWith('buy');
      const due = native ? (call.function === 'buyExactIn' ? p.amount : p.limit) : 0n;
      c.value(due, native ? 'a BNB buy sends what it pays, or its ceiling when exact out' : 'no BNB is paid');
      c.deadline(p.deadline, e.deadlineMaxSeconds, 'the deadline');
      break;
    }
    case 'launch': {
      const firstBuy = sameAddress(call.params.pair, known.wbnb) ? call.params.firstBuy : 0n;
      const fee = value - firstBuy;
      c.add(
        'value-matches',
        fee >= 0n && fee <= MAX_LAUNCH_FEE_WEI,
        `sends ${c.bnb(value)}: a ${c.bnb(fee)} launch fee${firstBuy > 0n ? ' plus the first buy' : ''}`,
        `sends ${c.bnb(value)}; the first buy takes ${c.bnb(firstBuy)} and the launch fee is at most ${c.bnb(MAX_LAUNCH_FEE_WEI)}`,
      );
      break;
    }
    case 'permit2-approve':
      spender(c, call.spender, known.router, 'the trade router');
      c.deadline(BigInt(call.expiration), e.permitMaxSeconds, "the approval's expiry");
      c.value(0n, 'an approval sends no BNB');
      break;
    case 'erc20-approve': {
      const toFactory = sameAddress(call.spender, known.factory);
      const wanted = toFactory ? known.factory : known.permit2;
      spender(c, call.spender, wanted, 'Permit2 or the launch factory');
      if (toFactory) factoryAmount(c, call.amount, undefined, call.token);
      c.value(0n, 'an approval sends no BNB');
      break;
    }
    case 'claim':
      c.value(0n, 'a claim sends no BNB');
      break;
    case 'collect':
      c.value(0n, 'a collect sends no BNB');
      break;
    default:
      break;
  }
}
