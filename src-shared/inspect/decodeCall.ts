import {
  type Abi,
  type AbiFunction,
  type AbiParameter,
  type Address,
  decodeFunctionData,
  type Hex,
  isAddress,
  toFunctionSelector,
  zeroAddress,
} from 'viem';
import {
  allowanceTransferAbi,
  launchFactoryAbi,
  launchTokenAbi,
  referralVaultAbi,
  tradeRouterAbi,
} from '../generated/abis';
import type { UnsignedTx } from '../schema/unsignedTx';
import { BNB, currencyAt, formatAddress, formatAmount, formatBps, formatDeadline, formatFeeTier } from './humanUnits';
import {
  addressLabel,
  type KnownContractName,
  type KnownContracts,
  knownContractAt,
  sameAddress,
  type TokenInfo,
  type TokenInfos,
} from './knownContracts';

/** What a summary is read against: the chain's contracts, the time, and what is known of tokens and fee rates. */
export interface DecodeContext {
  known: KnownContracts;
  /** Unix seconds: deadlines are shown and checked against it. */
  now: number;
  tokens?: TokenInfos;
  /** Fee rates from the settings or the build; the call itself names only the referrer and the pool tier. */
  rates?: { siteFeeBps: number | null; referrerBps: number | null };
}

export type ContractKind = KnownContractName | 'ERC-20' | 'unknown';
export type TradeFunction = 'buyExactIn' | 'buyExactOut' | 'sellExactIn' | 'sellExactOut';

/** ITradeRouter.TradeParams: `amount` is the exact side, `limit` the other side's floor (exact in) or ceiling. */
export interface TradeParams {
  token: Address;
  pair: Address;
  fee: number;
  amount: bigint;
  limit: bigint;
  referrer: Address;
  deadline: bigint;
}

/** ILaunchFactory.LaunchParams. */
export interface LaunchParams {
  name: string;
  symbol: string;
  supply: bigint;
  salt: Hex;
  pair: Address;
  fee: number;
  openingTick: number;
  ranges: readonly { tickLower: number; tickUpper: number; bps: number }[];
  firstBuy: bigint;
  minTokens: bigint;
  firstBuyTo: readonly { wallet: Address; bps: number }[];
  royaltyTo: Address;
  burnBps: number;
  metadataURI: string;
}

/** The call, typed, for the checks; `other` is a function of ours the service never builds, `undecoded` no call. */
export type DecodedCall =
  | { kind: 'trade'; function: TradeFunction; params: TradeParams }
  | { kind: 'launch'; params: LaunchParams }
  | { kind: 'claim'; referrer: Address; claims: readonly { week: bigint; amount: bigint; proof: readonly Hex[] }[] }
  | { kind: 'collect'; token: Address }
  | { kind: 'permit2-approve'; token: Address; spender: Address; amount: bigint; expiration: number }
  | { kind: 'erc20-approve'; token: Address; spender: Address; amount: bigint }
  | { kind: 'other'; function: string }
  | { kind: 'undecoded'; reason: string };

/** One argument, structs flattened to their fields (`ranges[0].tickLower`). */
export interface SummaryArg {
  name: string;
  /** In whole units with symbols, times as ISO with how far off they are, bps as per cent. */
  display: string;
  /** The decoded value as text: decimal for numbers, hex for addresses and bytes. */
  raw: string;
}

/** What the call says about fees: the pool tier and burn share are in it; site and referrer rates come from context. */
export interface FeeSummary {
  /** The pool's fee tier as PancakeSwap counts it: millionths, 10000 = 1%. */
  poolFeeTier: number | null;
  siteFeeBps: number | null;
  /** 0 when the trade names no referrer. */
  referrerBps: number | null;
  burnBps: number | null;
  /** Launch: the BNB sent beyond a native first buy, which the factory takes as the launch fee. */
  launchFeeWei: string | null;
}

/** A transaction as a reviewer reads it. */
export interface TxSummary {
  chainId: number;
  to: Address;
  contract: ContractKind;
  /** The contract as shown: `TradeRouter`, `ERC-20 MCAT`, `unknown contract`. */
  contractLabel: string;
  /** Null when the data matches no function of the contract. */
  function: string | null;
  args: SummaryArg[];
  value: { wei: string; display: string };
  gas: string | null;
  /** A trade's deadline, Unix seconds. */
  deadline: number | null;
  /** Who the call pays a referral cut (trade) or a claim (claim) to; null for none. */
  referrer: Address | null;
  fees: FeeSummary;
  call: DecodedCall;
  /** What a reviewer should know that no argument says. */
  notes: string[];
}

const TRADE_FUNCTIONS: readonly string[] = ['buyExactIn', 'buyExactOut', 'sellExactIn', 'sellExactOut'];
const ABIS: Record<KnownContractName | 'ERC-20', Abi> = {
  TradeRouter: tradeRouterAbi,
  LaunchFactory: launchFactoryAbi,
  ReferralVault: referralVaultAbi,
  Permit2: allowanceTransferAbi,
  'ERC-20': launchTokenAbi,
};
/** LaunchToken mints with 18 decimals, always. */
const LAUNCH_TOKEN_DECIMALS = 18;

/**
 * Names the contract a transaction goes to, decodes its function and every argument, and shows each in human units,
 * so a built transaction can be read before signing without trusting the text that came with it. Data that matches
 * nothing does not throw: it gives a summary whose `function` is null and whose `call` says why.
 */
export function decodeCall(tx: UnsignedTx, ctx: DecodeContext): TxSummary {
  const tokens = ctx.tokens ?? {};
  const value = BigInt(tx.value);
  const known = knownContractAt(ctx.known, tx.to);
  const contract: ContractKind = known ?? (looksLikeErc20Call(tx.data) ? 'ERC-20' : 'unknown');
  const summary: TxSummary = {
    chainId: tx.chainId,
    to: tx.to,
    contract,
    contractLabel:
      contract === 'ERC-20'
        ? `ERC-20 ${currencyAt(tx.to, ctx.known, tokens)?.symbol ?? 'token'}`
        : contract === 'unknown'
          ? 'unknown contract'
          : contract,
    function: null,
    args: [],
    value: { wei: value.toString(), display: formatAmount(value, BNB) },
    gas: tx.gas ?? null,
    deadline: null,
    referrer: null,
    fees: { poolFeeTier: null, siteFeeBps: null, referrerBps: null, burnBps: null, launchFeeWei: null },
    call: { kind: 'undecoded', reason: '' },
    notes: [],
  };
  if (contract === 'unknown') {
    summary.call = {
      kind: 'undecoded',
      reason: `${tx.to} is none of the service's contracts, and the data is no ERC-20 call`,
    };
    return summary;
  }
  const abi = ABIS[contract];
  const item = functionOf(abi, tx.data);
  let args: readonly unknown[];
  try {
    if (!item) throw new Error('no function has this selector');
    args = (decodeFunctionData({ abi: [item], data: tx.data }).args ?? []) as readonly unknown[];
  } catch (error) {
    const selector = tx.data.slice(0, 10);
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    summary.call = { kind: 'undecoded', reason: `the data (selector ${selector}) is no call of ${contract}: ${why}` };
    return summary;
  }
  summary.function = item.name;
  summary.call = typedCall(contract, item.name, args, tx);
  const render = renderers(summary.call, tx, ctx, tokens);
  const flat: { name: string; type: string; value: unknown }[] = [];
  const single = item.inputs.length === 1 && item.inputs[0]?.type === 'tuple';
  item.inputs.forEach((input, i) => {
    flatten(input, args[i], single ? '' : (input.name ?? `arg${i}`), flat);
  });
  summary.args = flat.map(({ name, type, value: v }) => {
    const pattern = name.replace(/\[\d+\]/g, '[]');
    const custom = render[pattern];
    return { name, display: custom ? custom(v) : genericDisplay(type, v, ctx.known, tokens), raw: rawText(v) };
  });
  describe(summary, ctx, tokens, value);
  return summary;
}

/** An ERC-20 call (approve, transfer, transferFrom): how a call to a token's own address is recognised. */
function looksLikeErc20Call(data: Hex): boolean {
  return functionOf(launchTokenAbi, data) !== undefined;
}

function functionOf(abi: Abi, data: Hex): AbiFunction | undefined {
  const selector = data.slice(0, 10).toLowerCase();
  return abi.find(
    (item): item is AbiFunction =>
      item.type === 'function' &&
      item.stateMutability !== 'view' &&
      item.stateMutability !== 'pure' &&
      toFunctionSelector(item) === selector,
  );
}

function typedCall(contract: ContractKind, name: string, args: readonly unknown[], tx: UnsignedTx): DecodedCall {
  if (contract === 'TradeRouter' && TRADE_FUNCTIONS.includes(name)) {
    return { kind: 'trade', function: name as TradeFunction, params: args[0] as TradeParams };
  }
  if (contract === 'LaunchFactory' && name === 'launch') return { kind: 'launch', params: args[0] as LaunchParams };
  if (contract === 'LaunchFactory' && name === 'collect') return { kind: 'collect', token: args[0] as Address };
  if (contract === 'ReferralVault' && name === 'claim') {
    return {
      kind: 'claim',
      referrer: args[0] as Address,
      claims: args[1] as readonly { week: bigint; amount: bigint; proof: readonly Hex[] }[],
    };
  }
  if (contract === 'Permit2' && name === 'approve' && args.length === 4) {
    return {
      kind: 'permit2-approve',
      token: args[0] as Address,
      spender: args[1] as Address,
      amount: args[2] as bigint,
      expiration: args[3] as number,
    };
  }
  if (contract === 'ERC-20' && name === 'approve') {
    return { kind: 'erc20-approve', token: tx.to, spender: args[0] as Address, amount: args[1] as bigint };
  }
  return { kind: 'other', function: name };
}

/** Structs become their fields, arrays of structs one entry per field per element; other arrays stay one argument. */
function flatten(
  param: AbiParameter,
  value: unknown,
  name: string,
  out: { name: string; type: string; value: unknown }[],
): void {
  const components = 'components' in param ? (param.components as readonly AbiParameter[]) : undefined;
  const join = (field: string | undefined) => (name ? `${name}.${field}` : (field ?? ''));
  if (param.type === 'tuple' && components) {
    const record = value as Record<string, unknown>;
    for (const component of components) flatten(component, record[component.name ?? ''], join(component.name), out);
    return;
  }
  if (param.type === 'tuple[]' && components && Array.isArray(value)) {
    value.forEach((element, i) => {
      for (const component of components) {
        flatten(
          component,
          (element as Record<string, unknown>)[component.name ?? ''],
          `${name}[${i}].${component.name}`,
          out,
        );
      }
    });
    if (value.length === 0) out.push({ name, type: param.type, value: [] });
    return;
  }
  out.push({ name, type: param.type, value });
}

type Render = (value: unknown) => string;

/** How each argument of the functions we build is shown: amounts in the currency that argument is counted in. */
function renderers(call: DecodedCall, tx: UnsignedTx, ctx: DecodeContext, tokens: TokenInfos): Record<string, Render> {
  const { known, now } = ctx;
  const address: Render = (v) => formatAddress(String(v), addressLabel(String(v), known, tokens));
  const amountIn =
    (currency: TokenInfo | undefined, prefix = ''): Render =>
    (v) =>
      `${prefix}${formatAmount(v as bigint, currency)}`;
  const deadline: Render = (v) => formatDeadline(BigInt(v as bigint | number), now);
  const tier: Render = (v) => `${formatFeeTier(v as number)} pool fee tier`;
  switch (call.kind) {
    case 'trade': {
      const { params } = call;
      const pair = currencyAt(params.pair, known, tokens);
      const token = currencyAt(params.token, known, tokens);
      const exactIn = call.function.endsWith('In');
      const buy = call.function.startsWith('buy');
      // Exact in: `amount` is paid and `limit` the least received; exact out: `amount` received, `limit` most paid.
      const paid = buy ? pair : token;
      const received = buy ? token : pair;
      return {
        token: address,
        pair: (v) => (sameAddress(String(v), known.wbnb) ? `${v} (BNB, paid natively as WBNB)` : address(v)),
        fee: tier,
        amount: exactIn ? amountIn(paid, 'pays exactly ') : amountIn(received, 'receives exactly '),
        limit: exactIn ? amountIn(received, 'receives at least ') : amountIn(paid, 'pays at most '),
        referrer: (v) => (v === zeroAddress ? 'none' : address(v)),
        deadline,
      };
    }
    case 'launch': {
      const { params } = call;
      const pair = currencyAt(params.pair, known, tokens);
      const launched = { symbol: params.symbol, decimals: LAUNCH_TOKEN_DECIMALS };
      return {
        name: (v) => JSON.stringify(v),
        symbol: (v) => JSON.stringify(v),
        supply: amountIn(launched),
        pair: (v) => (sameAddress(String(v), known.wbnb) ? `${v} (BNB, paid natively as WBNB)` : address(v)),
        fee: tier,
        'ranges[].bps': (v) => `${formatBps(v as number)} of the supply`,
        firstBuy: (v) => ((v as bigint) === 0n ? 'none' : formatAmount(v as bigint, pair)),
        minTokens: (v) =>
          params.firstBuy === 0n
            ? formatAmount(v as bigint, launched)
            : `at least ${formatAmount(v as bigint, launched)}`,
        'firstBuyTo[].wallet': address,
        'firstBuyTo[].bps': (v) => `${formatBps(v as number)} of the first buy`,
        firstBuyTo: () => 'none: the first buy goes to the sending wallet',
        royaltyTo: (v) => (v === zeroAddress ? 'the creator (the sending wallet)' : address(v)),
        burnBps: (v) => `${formatBps(v as number)} of the royalty bought back and burned`,
        metadataURI: (v) => JSON.stringify(v),
      };
    }
    case 'claim':
      return { referrer: address, 'claims[].amount': amountIn(BNB), 'claims[].week': (v) => `week ${v}` };
    case 'collect':
      return { token: (v) => `${address(v)}, whose fees are collected` };
    case 'permit2-approve':
      return {
        token: address,
        spender: address,
        amount: amountIn(currencyAt(call.token, known, tokens)),
        expiration: deadline,
      };
    case 'erc20-approve':
      return { spender: address, amount: amountIn(currencyAt(tx.to, known, tokens)) };
    default:
      return {};
  }
}

function genericDisplay(type: string, value: unknown, known: KnownContracts, tokens: TokenInfos): string {
  if (type === 'address' && typeof value === 'string' && isAddress(value, { strict: false })) {
    return formatAddress(value, addressLabel(value, known, tokens));
  }
  if (Array.isArray(value)) {
    return value.length === 0 ? 'none' : `${value.length} item${value.length === 1 ? '' : 's'}: ${rawText(value)}`;
  }
  if (typeof value === 'string' && type === 'string') return JSON.stringify(value);
  return rawText(value);
}

function rawText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(rawText).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}: ${rawText(v)}`)
      .join(', ')}}`;
  }
  return String(value);
}

/** Fills what the call means beyond its arguments: deadline, referrer, fees, and notes for the reviewer. */
function describe(summary: TxSummary, ctx: DecodeContext, tokens: TokenInfos, value: bigint): void {
  const { call } = summary;
  const { known } = ctx;
  const unknownToken = (address: Address) => {
    if (!currencyAt(address, known, tokens)) {
      summary.notes.push(`${address} is a token of unknown decimals: its amounts are shown in raw units`);
    }
  };
  if (call.kind === 'trade') {
    const { params } = call;
    summary.deadline = Number(params.deadline);
    summary.referrer = params.referrer === zeroAddress ? null : params.referrer;
    summary.fees.poolFeeTier = params.fee;
    summary.fees.siteFeeBps = ctx.rates?.siteFeeBps ?? null;
    summary.fees.referrerBps = summary.referrer === null ? 0 : (ctx.rates?.referrerBps ?? null);
    unknownToken(params.token);
    unknownToken(params.pair);
    summary.notes.push(
      'the router pays what the trade returns to the wallet that sends it: the call names no recipient',
    );
  } else if (call.kind === 'launch') {
    const { params } = call;
    const native = sameAddress(params.pair, known.wbnb);
    const fee = value - (native ? params.firstBuy : 0n);
    summary.fees.poolFeeTier = params.fee;
    summary.fees.burnBps = params.burnBps;
    summary.fees.launchFeeWei = fee >= 0n ? fee.toString() : null;
    if (params.firstBuy > 0n) {
      // The first buy is a trade: the factory takes the site fee from it before it buys.
      summary.fees.siteFeeBps = ctx.rates?.siteFeeBps ?? null;
      summary.notes.push('the first buy pays the site fee out of its amount, as a router buy does');
    }
    unknownToken(params.pair);
    summary.notes.push('the launched token has 18 decimals, and the factory creates it for the sending wallet');
  } else if (call.kind === 'collect') {
    summary.notes.push(
      "anyone may send a collect: the factory pays the royalty to the launch's royalty recipient or creator, " +
        'never to the sender, and buys back and burns the burn share; the sender pays only the gas',
    );
  } else if (call.kind === 'claim') {
    summary.referrer = call.referrer;
    summary.notes.push('the vault pays the claimed BNB to the referrer named in the call, whoever sends it');
  } else if (call.kind === 'permit2-approve') {
    unknownToken(call.token);
  } else if (call.kind === 'erc20-approve') {
    unknownToken(call.token);
  }
}
