import type { Address, Hex } from 'viem';
import { AddressSchema, WeiSchema } from '../schema/common';
import { INTENT_KINDS } from '../schema/intents';
import type { UnsignedTx } from '../schema/unsignedTx';
import type { Check } from './checkTransaction';
import type { Expectation, StepName, TradeExpectation } from './expectation';
import { formatAmount } from './humanUnits';
import { type KnownContracts, sameAddress, type TokenInfos } from './knownContracts';
import { readUnsignedTx } from './unsignedTx';

export type BuildKind = 'trade' | 'launch' | 'claim' | 'collect' | 'unsigned';

/** A transaction of a build with what it should do, or why it cannot be checked. */
export interface ReadTx {
  tx: UnsignedTx | null;
  expectation: Expectation | null;
  /** Failed checks found in reading it (a malformed tx, a step no such build needs). */
  problems: Check[];
  /** What the answer says the transaction does beyond its call (a collect's simulated outcome), for the reviewer. */
  notes?: string[];
}

/** A build answer read into the transactions it holds and what each should do, by the answer's own claims. */
export interface ReadBuild {
  kind: BuildKind;
  /** The wallet the build says it is for; null for a bare transaction. */
  wallet: Address | null;
  /** The prepared request (intent) the build came in, if it came in one. */
  intentId: string | null;
  steps: (ReadTx & { step: string })[];
  main: ReadTx & { tx: UnsignedTx; expectation: Expectation };
  /** Tokens the answer describes (its token and pair), to show amounts in. */
  tokens: TokenInfos;
  rates: { siteFeeBps: number | null; referrerBps: number | null };
  /** Checks of the answer's claims against each other: the limit against its slippage, an intent against its build. */
  checks: Check[];
}

export interface ReadContext {
  known: KnownContracts;
  limits: { tradeDeadlineSeconds: number; permitDays: number };
}

const BPS = 10_000n;

/**
 * Reads any answer the inspector takes (a trade, launch, claim or collect build, a prepared request holding one, or a
 * bare Unsigned transaction) and derives from its own claims what each of its transactions must do. Answers the first
 * field that does not fit; never throws.
 */
export function readBuild(json: unknown, ctx: ReadContext): ReadBuild | { error: string } {
  try {
    return readAny(new Reader(json), ctx);
  } catch (error) {
    if (error instanceof ShapeError) return { error: error.message };
    return { error: `the answer could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/**
 * The first transaction an answer holds (its `tx`, its intent's build's `tx`, or itself), to tell which chain it is
 * for before anything else is known; null when there is none.
 */
export function mainTxOf(json: unknown): UnsignedTx | null {
  if (typeof json !== 'object' || json === null) return null;
  const v = json as Record<string, unknown>;
  const candidate = 'build' in v && typeof v.build === 'object' ? mainTxOf(v.build) : null;
  if (candidate) return candidate;
  const read = readUnsignedTx('tx' in v ? v.tx : v);
  return 'tx' in read ? read.tx : null;
}

class ShapeError extends Error {}

/** Reads fields by dotted path, failing with the path of the first one that does not fit. */
class Reader {
  constructor(readonly root: unknown) {}

  get(path: string): unknown {
    let value: unknown = this.root;
    for (const key of path.split('.')) {
      if (typeof value !== 'object' || value === null) return undefined;
      value = (value as Record<string, unknown>)[key];
    }
    return value;
  }

  has(path: string): boolean {
    return this.get(path) !== undefined;
  }

  fail(path: string, what: string): never {
    throw new ShapeError(`${path || 'the answer'} is not ${what}`);
  }

  address(path: string): Address {
    const value = this.get(path);
    if (!AddressSchema.safeParse(value).success) this.fail(path, 'an address');
    return value as Address;
  }

  string(path: string): string {
    const value = this.get(path);
    if (typeof value !== 'string') this.fail(path, 'a string');
    return value;
  }

  number(path: string): number {
    const value = this.get(path);
    if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(path, 'a number');
    return value;
  }

  int(path: string): number {
    const value = this.number(path);
    if (!Number.isSafeInteger(value)) this.fail(path, 'an integer');
    return value;
  }

  wei(path: string): bigint {
    const value = this.get(path);
    const wei = WeiSchema.safeParse(value);
    if (!wei.success) this.fail(path, 'a wei string');
    return BigInt(wei.data);
  }

  oneOf<T extends string>(path: string, options: readonly T[]): T {
    const value = this.get(path);
    if (typeof value !== 'string' || !options.includes(value as T)) this.fail(path, `one of ${options.join(', ')}`);
    return value as T;
  }

  array(path: string): unknown[] {
    const value = this.get(path);
    if (!Array.isArray(value)) this.fail(path, 'an array');
    return value;
  }

  tx(path: string): UnsignedTx {
    const read = readUnsignedTx(path ? this.get(path) : this.root, path || 'the transaction');
    if ('error' in read) throw new ShapeError(read.error);
    return read.tx;
  }

  /** Unix seconds of an ISO 8601 time. */
  time(path: string): number {
    const ms = Date.parse(this.string(path));
    if (Number.isNaN(ms)) this.fail(path, 'an ISO 8601 time');
    return Math.floor(ms / 1000);
  }
}

function readAny(r: Reader, ctx: ReadContext): ReadBuild {
  if (typeof r.root !== 'object' || r.root === null || Array.isArray(r.root)) r.fail('', 'a JSON object');
  if (
    typeof r.get('id') === 'string' &&
    (INTENT_KINDS as readonly unknown[]).includes(r.get('kind')) &&
    r.has('build')
  ) {
    return readIntent(r, ctx);
  }
  if (r.has('side') && r.has('exact') && r.has('tx')) return readTrade(r, ctx);
  if (r.has('name') && r.has('symbol') && r.has('supply') && r.has('tx')) return readLaunch(r, ctx);
  if (r.has('weeks') && r.has('referrer') && r.has('tx')) return readClaim(r);
  if (r.has('recipient') && r.has('outcome') && r.has('tx')) return readCollect(r);
  if (r.has('to') && r.has('data') && r.has('chainId')) {
    return {
      kind: 'unsigned',
      wallet: null,
      intentId: null,
      steps: [],
      main: {
        tx: r.tx(''),
        expectation: {
          kind: 'unsigned',
          deadlineMaxSeconds: ctx.limits.tradeDeadlineSeconds,
          permitMaxSeconds: ctx.limits.permitDays * 86_400,
        },
        problems: [],
      },
      tokens: {},
      rates: { siteFeeBps: null, referrerBps: null },
      checks: [],
    };
  }
  return r.fail(
    '',
    'a trade, launch, claim or collect build, a prepared request or an unsigned transaction (no tx, side, name, weeks or outcome)',
  );
}

function readIntent(r: Reader, ctx: ReadContext): ReadBuild {
  const id = r.string('id');
  const kind = r.oneOf('kind', INTENT_KINDS);
  const wallet = r.address('wallet');
  const build = r.get('build');
  if (build === null) throw new ShapeError(`prepared request ${id} is not built yet: build it for review first`);
  const inner = readAny(new Reader(build), ctx);
  const b = new Reader(build);
  const buildWallet = b.address('wallet');
  const checks: Check[] = [
    {
      id: 'wallet-matches',
      ok: sameAddress(wallet, buildWallet),
      message: sameAddress(wallet, buildWallet)
        ? `the prepared request and its build are for ${wallet}`
        : `the prepared request is for ${wallet}, its build for ${buildWallet}`,
    },
  ];
  const request = new Reader(r.get('request') ?? {});
  const differences: string[] = [];
  if (kind === 'prepare_launch') {
    if (inner.kind !== 'launch') differences.push(`a ${kind} request holds a ${inner.kind} build`);
    for (const field of ['name', 'symbol'] as const) {
      if (request.has(field) && request.get(field) !== b.get(field)) {
        differences.push(`${field} ${JSON.stringify(b.get(field))}, asked ${JSON.stringify(request.get(field))}`);
      }
    }
  } else {
    const side = kind === 'prepare_buy' ? 'buy' : 'sell';
    if (inner.kind !== 'trade' || b.get('side') !== side) differences.push(`a ${kind} request holds a different build`);
    if (request.has('token') && !sameAddress(String(request.get('token')), String(b.get('token.address')))) {
      differences.push(`token ${b.get('token.address')}, asked ${request.get('token')}`);
    }
    if ((request.get('exact') ?? 'in') !== b.get('exact')) {
      differences.push(`exact ${b.get('exact')}, asked ${request.get('exact') ?? 'in'}`);
    }
    const asked = request.get('referrer');
    const got = b.get('referrer.address') ?? null;
    if (asked !== undefined && !(asked === null ? got === null : sameAddress(String(asked), String(got)))) {
      differences.push(`referrer ${got ?? 'none'}, asked ${asked ?? 'none'}`);
    }
  }
  checks.push({
    id: 'intent-matches',
    ok: differences.length === 0,
    message:
      differences.length === 0
        ? `the build is what prepared request ${id} asked for`
        : `the build differs from prepared request ${id}: ${differences.join('; ')}`,
  });
  return { ...inner, intentId: id, checks: [...checks, ...inner.checks] };
}

function readTrade(r: Reader, ctx: ReadContext): ReadBuild {
  const wallet = r.address('wallet');
  const token = r.address('token.address');
  const pair = r.address('token.pair.address');
  const side = r.oneOf('side', ['buy', 'sell'] as const);
  const exact = r.oneOf('exact', ['in', 'out'] as const);
  const limitKind = r.oneOf('limit.kind', ['minReceive', 'maxPay'] as const);
  if ((exact === 'in') !== (limitKind === 'minReceive')) {
    r.fail('limit.kind', `${exact === 'in' ? 'minReceive' : 'maxPay'}, as an exact-${exact} trade's limit is`);
  }
  const referrer = r.get('referrer') === null ? null : r.address('referrer.address');
  const expectation: TradeExpectation = {
    kind: 'trade',
    side,
    exact,
    wallet,
    token,
    pair,
    feeTier: r.int('token.feeTier'),
    pay: r.wei('pay.wei'),
    receive: r.wei('receive.wei'),
    limit: { kind: limitKind, wei: r.wei('limit.wei') },
    referrer,
    nativeBnb: sameAddress(pair, ctx.known.wbnb),
    deadline: r.time('expiresAt'),
    deadlineMaxSeconds: ctx.limits.tradeDeadlineSeconds,
  };
  // A trade is only paid for with approvals when its pay token is not BNB sent as value.
  const payToken = side === 'buy' ? pair : token;
  const approvals = side === 'buy' && expectation.nativeBnb ? [] : (['approve-permit2', 'approve-router'] as const);
  return {
    kind: 'trade',
    wallet,
    intentId: null,
    steps: readSteps(r, wallet, payToken, approvals, ctx, 'this trade pays in BNB, which needs no approval'),
    main: { tx: r.tx('tx'), expectation, problems: [] },
    tokens: {
      [token]: { symbol: r.string('token.symbol'), decimals: 18 },
      [pair]: { symbol: r.string('token.pair.symbol'), decimals: r.int('token.pair.decimals') },
    },
    rates: {
      siteFeeBps: typeof r.get('siteFee.bps') === 'number' ? r.int('siteFee.bps') : null,
      referrerBps: referrer === null ? 0 : typeof r.get('referrer.bps') === 'number' ? r.int('referrer.bps') : null,
    },
    checks: [slippageCheck(expectation, r.int('slippageBps'))],
  };
}

/**
 * The limit an answer shows must be no looser than its own slippage makes it (the service rounds in the trader's
 * favour), so a limit loosened in the claims and the call alike still shows.
 */
function slippageCheck(e: TradeExpectation, slippageBps: number): Check {
  const s = BigInt(slippageBps);
  if (e.exact === 'in') {
    const floor = (e.receive * (BPS - s)) / BPS;
    const ok = e.limit.wei >= floor;
    return {
      id: 'limit-matches-slippage',
      ok,
      message: ok
        ? `the limit is within the ${slippageBps} bps slippage of the quote`
        : `the limit ${e.limit.wei} wei is below ${floor} wei, the quote less its ${slippageBps} bps slippage`,
    };
  }
  const ceiling = (e.pay * (BPS + s) + BPS - 1n) / BPS;
  const ok = e.limit.wei <= ceiling;
  return {
    id: 'limit-matches-slippage',
    ok,
    message: ok
      ? `the limit is within the ${slippageBps} bps slippage of the quote`
      : `the limit ${e.limit.wei} wei is above ${ceiling} wei, the quote plus its ${slippageBps} bps slippage`,
  };
}

function readLaunch(r: Reader, ctx: ReadContext): ReadBuild {
  const wallet = r.address('wallet');
  const pair = r.address('pair.address');
  const symbol = r.string('symbol');
  const firstBuy = r.get('firstBuy') === null ? null : r.wei('firstBuy.spend.wei');
  const split =
    r.get('firstBuyTo') === null || r.get('firstBuyTo') === undefined
      ? null
      : r.array('firstBuyTo').map((_, i) => ({
          wallet: r.address(`firstBuyTo.${i}.wallet`),
          bps: Math.round(r.number(`firstBuyTo.${i}.pct`) * 100),
        }));
  const nativeBnb = sameAddress(pair, ctx.known.wbnb);
  const metadataURI = typeof r.get('metadata.uri') === 'string' ? r.string('metadata.uri') : undefined;
  const salt = r.string('salt');
  if (!/^0x[0-9a-fA-F]{64}$/.test(salt)) r.fail('salt', '32 bytes of hex');
  const approvals = !nativeBnb && firstBuy !== null && firstBuy > 0n ? (['approve-factory'] as const) : [];
  return {
    kind: 'launch',
    wallet,
    intentId: null,
    steps: readSteps(
      r,
      wallet,
      pair,
      approvals,
      ctx,
      'this launch takes no token from the wallet',
      firstBuy ?? undefined,
    ),
    main: {
      tx: r.tx('tx'),
      expectation: {
        kind: 'launch',
        wallet,
        name: r.string('name'),
        symbol,
        supply: r.wei('supply.wei'),
        pair,
        nativeBnb,
        firstBuy,
        minTokens: firstBuy === null ? null : r.wei('firstBuy.minTokens.wei'),
        launchFeeWei: r.wei('launchFee.wei'),
        feeTier: r.int('feeTier'),
        firstBuyTo: split,
        royalty: { to: r.address('creatorFeeRecipient'), burnBps: Math.round(r.number('royalty.burnPct') * 100) },
        salt: salt as Hex,
        ...(metadataURI !== undefined ? { metadataURI } : {}),
      },
      problems: [],
    },
    tokens: {
      [pair]: { symbol: r.string('pair.symbol'), decimals: r.int('pair.decimals') },
      [r.address('token')]: { symbol, decimals: 18 },
    },
    rates: { siteFeeBps: null, referrerBps: null },
    checks: [],
  };
}

function readClaim(r: Reader): ReadBuild {
  const wallet = r.address('wallet');
  const weeks = r
    .array('weeks')
    .map((_, i) => ({ week: r.int(`weeks.${i}.week`), amount: r.wei(`weeks.${i}.amount`) }));
  return {
    kind: 'claim',
    wallet,
    intentId: null,
    steps: [],
    main: {
      tx: r.tx('tx'),
      expectation: { kind: 'claim', wallet, referrer: r.address('referrer'), weeks },
      problems: [],
    },
    tokens: {},
    rates: { siteFeeBps: null, referrerBps: null },
    checks: [],
  };
}

/**
 * A collect build: the call must collect the answer's token on our factory, and its outcome (who gains what, from the
 * build's simulation) is shown as the build's own word, since only the chain can confirm it.
 */
function readCollect(r: Reader): ReadBuild {
  const wallet = r.address('wallet');
  const token = r.address('token.address');
  const pair = r.address('token.pair.address');
  const tokens: TokenInfos = {
    [token]: { symbol: r.string('token.symbol'), decimals: r.int('token.decimals') },
    [pair]: { symbol: r.string('token.pair.symbol'), decimals: r.int('token.pair.decimals') },
  };
  const inPair = (path: string) => formatAmount(r.wei(`${path}.wei`), tokens[pair]);
  const inTokens = (path: string) => formatAmount(r.wei(`${path}.wei`), tokens[token]);
  const recipient = r.address('recipient');
  const pending = r.get('outcome.buyback.pendingAfter') === null ? null : inPair('outcome.buyback.pendingAfter');
  const source = r.get('outcome.simulated') === true ? 'by its simulation' : 'from the positions, not simulated';
  const notes = [
    `the build says (${source}): it takes ${inPair('outcome.pairFees')} and ${inTokens('outcome.tokenFees')} of fees`,
    `the build says: ${recipient} receives ${inPair('outcome.royalty.pair')} and ${inTokens('outcome.royalty.tokens')}`,
    `the build says: ${inTokens('outcome.burned')} are burned` +
      (pending === null
        ? `, the buy-back spending up to ${inPair('outcome.buyback.budget')}`
        : `, and ${pending} stays pending for a later buy-back`),
  ];
  return {
    kind: 'collect',
    wallet,
    intentId: null,
    steps: [],
    main: { tx: r.tx('tx'), expectation: { kind: 'collect', wallet, token }, problems: [], notes },
    tokens,
    rates: { siteFeeBps: null, referrerBps: null },
    checks: [],
  };
}

/**
 * The answer's `requires`: each step an approval of `token` this kind of build may need. A step of another name, or
 * any step where none is needed, is still read and shown, with a failed `step-expected` check.
 */
function readSteps(
  r: Reader,
  wallet: Address,
  token: Address,
  allowed: readonly StepName[],
  ctx: ReadContext,
  noneNeeded: string,
  /** The exact amount an approval of the factory must be for (the launch's first buy). */
  factoryAmount?: bigint,
): (ReadTx & { step: string })[] {
  if (r.get('requires') === undefined) return [];
  return r.array('requires').map((_, i) => {
    const path = `requires.${i}`;
    const step = typeof r.get(`${path}.step`) === 'string' ? r.string(`${path}.step`) : '(unnamed)';
    const read = readUnsignedTx(r.get(`${path}.tx`), `${path}.tx`);
    const problems: Check[] = [];
    if ('error' in read) problems.push({ id: 'input-shape', ok: false, message: read.error });
    const known = (allowed as readonly string[]).includes(step);
    if (!known) {
      problems.push({
        id: 'step-expected',
        ok: false,
        message:
          allowed.length === 0
            ? `step ${step} is not needed: ${noneNeeded}`
            : `step ${step} is none of ${allowed.join(', ')}, the steps this build may need`,
      });
    }
    const limits = {
      deadlineMaxSeconds: ctx.limits.tradeDeadlineSeconds,
      permitMaxSeconds: ctx.limits.permitDays * 86_400,
    };
    const expectation: Expectation = known
      ? {
          kind: 'step',
          step: step as StepName,
          wallet,
          token,
          permitMaxSeconds: limits.permitMaxSeconds,
          ...(step === 'approve-factory' && factoryAmount !== undefined ? { amount: factoryAmount } : {}),
        }
      : { kind: 'unsigned', ...limits };
    return { step, tx: 'tx' in read ? read.tx : null, expectation, problems };
  });
}
