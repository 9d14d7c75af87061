import { type Address, decodeEventLog, getAddress, type Hex, toEventSelector } from 'viem';
import { LaunchFactory, LaunchToken, ReferralVault, TradeRouter } from './generated/contracts';

/** Where an event happened. Block numbers fit a JS number for any chain this service will meet. */
export interface EventPosition {
  block: number;
  logIndex: number;
  txHash: Hex;
}

export interface LaunchRange {
  tickLower: number;
  tickUpper: number;
  bps: number;
}

/** What the factory's Launched event tells of a launch. */
export interface LaunchFacts {
  token: Address;
  creator: Address;
  pool: Address;
  pair: Address;
  fee: number;
  supply: bigint;
  openingTick: number;
  salt: Hex;
  name: string;
  symbol: string;
  metadataURI: string;
  royaltyTo: Address;
  burnBps: number;
  ranges: LaunchRange[];
}

export type ServiceEvent = EventPosition &
  (
    | ({ kind: 'launched' } & LaunchFacts)
    | { kind: 'firstBuy'; token: Address; spent: bigint; tokens: bigint; siteFee: bigint }
    | {
        kind: 'collected';
        token: Address;
        recipient: Address;
        pairFees: bigint;
        tokenFees: bigint;
        pairToRoyalty: bigint;
        tokenToRoyalty: bigint;
        tokensBurned: bigint;
      }
    | {
        kind: 'trade';
        trader: Address;
        token: Address;
        referrer: Address;
        pair: Address;
        isBuy: boolean;
        pairAmount: bigint;
        tokenAmount: bigint;
        fee: bigint;
        cut: bigint;
      }
    | { kind: 'bound'; wallet: Address; referrer: Address }
    | { kind: 'rootPosted'; week: bigint; root: Hex; total: bigint }
    | { kind: 'claimed'; referrer: Address; week: bigint; amount: bigint }
    /** A launched token's ERC-20 Transfer (`from` is the zero address for the mint at its creation). */
    | { kind: 'transfer'; token: Address; from: Address; to: Address; value: bigint }
  );

/** A log as eth_getLogs returns it (the fields read here). */
export interface RawLog {
  address: Address;
  topics: readonly Hex[];
  data: Hex;
  blockNumber: bigint | Hex | null;
  blockHash: Hex | null;
  logIndex: number | Hex | null;
  transactionHash: Hex | null;
  removed?: boolean;
}

const KEPT_EVENTS = ['Launched', 'FirstBuy', 'Collected', 'Trade', 'Bound', 'RootPosted', 'Claimed'] as const;

/** The events the indexer keeps, from the three contracts' ABIs. */
const EVENTS_ABI = [...LaunchFactory.abi, ...TradeRouter.abi, ...ReferralVault.abi].filter(
  (item) => item.type === 'event' && (KEPT_EVENTS as readonly string[]).includes(item.name),
) as Extract<
  (typeof LaunchFactory.abi | typeof TradeRouter.abi | typeof ReferralVault.abi)[number],
  { type: 'event'; name: (typeof KEPT_EVENTS)[number] }
>[];

/** Topic 0 of every event the indexer keeps, for the eth_getLogs filter. No two of them share one. */
export const SERVICE_EVENT_TOPICS: readonly Hex[] = EVENTS_ABI.map((item) => toEventSelector(item));

const TRADE_TOPIC = toEventSelector(EVENTS_ABI.find((e) => e.name === 'Trade') as (typeof EVENTS_ABI)[number]);
const BOUND_TOPIC = toEventSelector(EVENTS_ABI.find((e) => e.name === 'Bound') as (typeof EVENTS_ABI)[number]);
const FIRST_BUY_TOPIC = toEventSelector(EVENTS_ABI.find((e) => e.name === 'FirstBuy') as (typeof EVENTS_ABI)[number]);
/** The factory's Launched: its first topic after the selector is the new token's address. */
export const LAUNCHED_TOPIC = toEventSelector(
  EVENTS_ABI.find((e) => e.name === 'Launched') as (typeof EVENTS_ABI)[number],
);
/**
 * ERC-20 Transfer, followed for the tokens launched here only: every token on a chain emits it, so the filter that asks
 * for it names the launched tokens' addresses.
 */
export const TRANSFER_TOPIC = toEventSelector(
  LaunchToken.abi.find((e) => e.type === 'event' && e.name === 'Transfer') as Extract<
    (typeof LaunchToken.abi)[number],
    { type: 'event' }
  >,
);

/** Checksummed addresses by their 40 lower-case hex digits: the same few wallets, tokens and pairs recur. */
const checksummed = new Map<string, Address>();
const MAX_CHECKSUMMED = 100_000;

/** The i-th 32-byte word of ABI data as 64 hex digits, or a throw when the data is too short for it. */
function word(data: Hex, i: number): string {
  const w = data.slice(2 + i * 64, 66 + i * 64);
  if (w.length !== 64) throw new Error(`event data too short: no word ${i}`);
  return w;
}
const uintWord = (data: Hex, i: number) => BigInt(`0x${word(data, i)}`);
function addressOf(hex64: string): Address {
  if (!hex64.startsWith('000000000000000000000000')) throw new Error('event data: an address word has bits above 160');
  const digits = hex64.slice(24).toLowerCase();
  let address = checksummed.get(digits);
  if (!address) {
    address = getAddress(`0x${digits}`);
    if (checksummed.size >= MAX_CHECKSUMMED) checksummed.clear();
    checksummed.set(digits, address);
  }
  return address;
}
/** A signed integer of `bits` bits, sign-extended to the word as the ABI encodes it. */
function intWord(data: Hex, i: number, bits: number): number {
  const value = BigInt.asIntN(256, uintWord(data, i));
  if (BigInt.asIntN(bits, value) !== value) throw new Error(`event data: an int${bits} word is out of range`);
  return Number(value);
}
function smallUintWord(data: Hex, i: number, bits: number): number {
  const value = uintWord(data, i);
  if (value >> BigInt(bits) !== 0n) throw new Error(`event data: a uint${bits} word is out of range`);
  return Number(value);
}
/** The byte offset held in word `i`, checked to point inside the data. */
function offsetWord(data: Hex, i: number): number {
  const offset = uintWord(data, i);
  if (offset % 32n !== 0n || offset * 2n + 2n >= BigInt(data.length)) throw new Error('event data: a bad offset');
  return Number(offset) / 32;
}
const utf8 = new TextDecoder('utf-8', { fatal: true });
/** A dynamic `string` whose head is word `i`. */
function stringWord(data: Hex, i: number): string {
  const at = offsetWord(data, i);
  const length = uintWord(data, at);
  const start = 2 + (at + 1) * 64;
  if (BigInt(start) + length * 2n > BigInt(data.length)) throw new Error('event data: a string runs past the end');
  return utf8.decode(Buffer.from(data.slice(start, start + Number(length) * 2), 'hex'));
}
/** The launch's ranges: a dynamic array of (int24 tickLower, int24 tickUpper, uint16 bps) whose head is word `i`. */
function rangesWord(data: Hex, i: number): LaunchRange[] {
  const at = offsetWord(data, i);
  const count = smallUintWord(data, at, 8);
  const ranges: LaunchRange[] = [];
  for (let r = 0; r < count; r++) {
    const first = at + 1 + r * 3;
    ranges.push({
      tickLower: intWord(data, first, 24),
      tickUpper: intWord(data, first + 1, 24),
      bps: smallUintWord(data, first + 2, 16),
    });
  }
  return ranges;
}
function boolWord(data: Hex, i: number): boolean {
  const w = word(data, i);
  if (!/^0{63}[01]$/.test(w)) throw new Error('event data: a bool word is neither 0 nor 1');
  return w.endsWith('1');
}
function topicAt(log: RawLog, i: number): string {
  const topic = log.topics[i];
  if (topic?.length !== 66) throw new Error(`event topic ${i} is missing`);
  return topic.slice(2);
}
function exactWords(data: Hex, words: number): void {
  if (data.length !== 2 + words * 64)
    throw new Error(`event data is ${(data.length - 2) / 2} bytes, not ${words * 32}`);
}

/**
 * Hand decoders of the events that come by the thousand (launches, trades, bindings, first buys), read word by word:
 * several times faster than the generic ABI decoder, which keeps the rarer events. Tested against it. The position is
 * copied field by field: an object spread in a literal this size takes V8's slow path, 15 µs a call.
 */
function decodeFrequent(log: RawLog, at: EventPosition): ServiceEvent | null {
  const { data } = log;
  switch (log.topics[0]) {
    case TRADE_TOPIC:
      exactWords(data, 6);
      return {
        block: at.block,
        logIndex: at.logIndex,
        txHash: at.txHash,
        kind: 'trade',
        trader: addressOf(topicAt(log, 1)),
        token: addressOf(topicAt(log, 2)),
        referrer: addressOf(topicAt(log, 3)),
        pair: addressOf(word(data, 0)),
        isBuy: boolWord(data, 1),
        pairAmount: uintWord(data, 2),
        tokenAmount: uintWord(data, 3),
        fee: uintWord(data, 4),
        cut: uintWord(data, 5),
      };
    case BOUND_TOPIC:
      exactWords(data, 0);
      return {
        block: at.block,
        logIndex: at.logIndex,
        txHash: at.txHash,
        kind: 'bound',
        wallet: addressOf(topicAt(log, 1)),
        referrer: addressOf(topicAt(log, 2)),
      };
    case FIRST_BUY_TOPIC:
      exactWords(data, 3);
      return {
        block: at.block,
        logIndex: at.logIndex,
        txHash: at.txHash,
        kind: 'firstBuy',
        token: addressOf(topicAt(log, 1)),
        spent: uintWord(data, 0),
        tokens: uintWord(data, 1),
        siteFee: uintWord(data, 2),
      };
    case LAUNCHED_TOPIC:
      if (data.length < 2 + 11 * 64) throw new Error('event data too short for Launched');
      return {
        block: at.block,
        logIndex: at.logIndex,
        txHash: at.txHash,
        kind: 'launched',
        token: addressOf(topicAt(log, 1)),
        creator: addressOf(topicAt(log, 2)),
        pool: addressOf(topicAt(log, 3)),
        pair: addressOf(word(data, 0)),
        fee: smallUintWord(data, 1, 24),
        supply: uintWord(data, 2),
        openingTick: intWord(data, 3, 24),
        salt: `0x${word(data, 4)}`,
        name: stringWord(data, 5),
        symbol: stringWord(data, 6),
        metadataURI: stringWord(data, 7),
        royaltyTo: addressOf(word(data, 8)),
        burnBps: smallUintWord(data, 9, 16),
        ranges: rangesWord(data, 10),
      };
    case TRANSFER_TOPIC:
      exactWords(data, 1);
      return {
        block: at.block,
        logIndex: at.logIndex,
        txHash: at.txHash,
        kind: 'transfer',
        token: addressOf(log.address.slice(2).padStart(64, '0')),
        from: addressOf(topicAt(log, 1)),
        to: addressOf(topicAt(log, 2)),
        value: uintWord(data, 0),
      };
    default:
      return null;
  }
}

const asNumber = (value: bigint | Hex | number | null): number => (typeof value === 'number' ? value : Number(value));

/**
 * Decodes one of the service's events, or a launched token's Transfer. Returns null for a log of another event (the
 * filter is by address and topic, so none should come) and throws on a log whose data does not match its event: a chain that says so is not one to
 * index silently.
 */
export function decodeServiceEvent(log: RawLog): ServiceEvent | null {
  const topic = log.topics[0];
  if (!topic || (topic !== TRANSFER_TOPIC && !SERVICE_EVENT_TOPICS.includes(topic))) return null;
  if (log.blockNumber === null || log.logIndex === null || log.transactionHash === null) {
    throw new Error('a pending log has no position; only mined blocks are indexed');
  }
  const at: EventPosition = {
    block: asNumber(log.blockNumber),
    logIndex: asNumber(log.logIndex),
    txHash: log.transactionHash,
  };
  const frequent = decodeFrequent(log, at);
  if (frequent) return frequent;
  const event = decodeEventLog({ abi: EVENTS_ABI, topics: log.topics as [Hex, ...Hex[]], data: log.data });
  switch (event.eventName) {
    case 'Launched': {
      const { ranges, ...rest } = event.args;
      return {
        ...at,
        kind: 'launched',
        ...rest,
        ranges: ranges.map((r) => ({ tickLower: r.tickLower, tickUpper: r.tickUpper, bps: r.bps })),
      };
    }
    case 'FirstBuy':
      return { ...at, kind: 'firstBuy', ...event.args };
    case 'Collected': {
      const { royaltyRecipient, ...rest } = event.args;
      return { ...at, kind: 'collected', recipient: royaltyRecipient, ...rest };
    }
    case 'Trade': {
      const { wallet, siteFee, referrerCut, ...rest } = event.args;
      return { ...at, kind: 'trade', trader: wallet, fee: siteFee, cut: referrerCut, ...rest };
    }
    case 'Bound':
      return { ...at, kind: 'bound', ...event.args };
    case 'RootPosted':
      return { ...at, kind: 'rootPosted', ...event.args };
    case 'Claimed':
      return { ...at, kind: 'claimed', ...event.args };
  }
}
