import { type Address, type Hex, pad, toHex, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import type { ServiceEvent } from '../../chain/serviceEvents';
import { endOfBlock } from '../../core/events/streamPosition';
import { IndexStore } from '../../store/indexStore';
import { openDatabase } from '../../store/openDatabase';
import { streamEntriesOf } from './streamEntriesOf';

const address = (n: number) => pad(toHex(n), { size: 20 }) as Address;
const hash = (n: number) => pad(toHex(n), { size: 32 }) as Hex;

function launched(token: number, block: number, logIndex: number): ServiceEvent {
  return {
    kind: 'launched',
    block,
    logIndex,
    txHash: hash(block * 100 + logIndex),
    token: address(token),
    creator: address(900 + token),
    pool: address(token + 1000),
    pair: address(3),
    fee: 10000,
    supply: 10n ** 27n,
    openingTick: -207200,
    salt: hash(token),
    name: `Token ${token}`,
    symbol: `T${token}`,
    metadataURI: 'ipfs://x',
    royaltyTo: address(0),
    burnBps: 0,
    ranges: [{ tickLower: -207200, tickUpper: 887200, bps: 10000 }],
  };
}

function trade(token: number, block: number, logIndex: number, referrer: Address): ServiceEvent {
  return {
    kind: 'trade',
    block,
    logIndex,
    txHash: hash(block * 100 + logIndex),
    trader: address(700 + logIndex),
    token: address(token),
    referrer,
    pair: address(3),
    isBuy: logIndex % 2 === 0,
    pairAmount: 10n ** 17n + BigInt(logIndex),
    tokenAmount: 10n ** 24n + BigInt(block),
    fee: 10n ** 15n,
    cut: 2n * 10n ** 14n,
  };
}

/** Two blocks as the chain would give them: launches with and without a first buy, trades, and events not streamed. */
const EVENTS: ServiceEvent[] = [
  {
    kind: 'firstBuy',
    block: 20,
    logIndex: 0,
    txHash: hash(2000),
    token: address(100),
    spent: 3n * 10n ** 17n,
    tokens: 5n * 10n ** 25n,
    siteFee: 3n * 10n ** 15n,
  },
  launched(100, 20, 1),
  trade(100, 20, 2, zeroAddress),
  { kind: 'bound', block: 20, logIndex: 3, txHash: hash(2003), wallet: address(703), referrer: address(55) },
  trade(100, 20, 4, address(55)),
  launched(101, 21, 0),
  trade(101, 21, 1, zeroAddress),
];
const TIMES = new Map([
  [20, 1_700_000_020],
  [21, 1_700_000_021],
]);

describe('streamEntriesOf', () => {
  it('gives the entries the index would stream for the same events, in chain order', () => {
    const store = new IndexStore(openDatabase(':memory:'));
    store.open({ chainId: 31337, factory: address(1), router: address(2), referrals: null, fromBlock: 19 });
    store.write({ events: EVENTS, timestamps: TIMES, hashes: new Map([[21, hash(21)]]), to: 21 });
    const stored = store.streamAfter(endOfBlock(19), 21, 100);
    const entries = streamEntriesOf(EVENTS, (block) => TIMES.get(block));
    expect(entries).toEqual(stored);
    expect(
      entries.map((entry) => `${entry.kind} ${entry.position.block}-${entry.position.logIndex}-${entry.position.part}`),
    ).toEqual(['launch 20-1-0', 'trade 20-1-1', 'trade 20-2-0', 'trade 20-4-0', 'launch 21-0-0', 'trade 21-1-0']);
  });

  it('refuses an event whose block has no time, rather than inventing one', () => {
    expect(() => streamEntriesOf(EVENTS, (block) => (block === 20 ? 1 : undefined))).toThrow(/block 21/);
  });
});
