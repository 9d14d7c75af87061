import { type Address, decodeEventLog, type Hex, toEventSelector } from 'viem';
import { LaunchFactory, ReferralVault, TradeRouter } from './generated/contracts';

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

export type ServiceEvent = EventPosition &
  (
    | {
        kind: 'launched';
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
    | { kind: 'firstBuy'; token: Address; spent: bigint; tokens: bigint }
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

const asNumber = (value: bigint | Hex | number | null): number => (typeof value === 'number' ? value : Number(value));

/**
 * Decodes one of the service's events. Returns null for a log of another event (the filter is by address and topic,
 * so none should come) and throws on a log whose data does not match its event: a chain that says so is not one to
 * index silently.
 */
export function decodeServiceEvent(log: RawLog): ServiceEvent | null {
  if (!log.topics[0] || !SERVICE_EVENT_TOPICS.includes(log.topics[0])) return null;
  if (log.blockNumber === null || log.logIndex === null || log.transactionHash === null) {
    throw new Error('a pending log has no position; only mined blocks are indexed');
  }
  const at: EventPosition = {
    block: asNumber(log.blockNumber),
    logIndex: asNumber(log.logIndex),
    txHash: log.transactionHash,
  };
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
