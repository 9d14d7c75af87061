import { type Address, type Hex, pad, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import type { ServiceEvent } from '../chain/serviceEvents';
import { IndexStore } from './indexStore';
import { openDatabase } from './openDatabase';

const address = (n: number) => pad(toHex(n), { size: 20 }) as Address;
const hash = (n: number) => pad(toHex(n), { size: 32 }) as Hex;
const TARGET = { chainId: 31337, factory: address(1), router: address(2), referrals: null, fromBlock: 5 };

function launched(token: number, block: number, logIndex: number): ServiceEvent {
  return {
    kind: 'launched',
    block,
    logIndex,
    txHash: hash(block * 100 + logIndex),
    token: address(token),
    creator: address(900),
    pool: address(token + 1000),
    pair: address(3),
    fee: 10000,
    supply: 10n ** 27n,
    openingTick: -207200,
    salt: hash(token),
    name: `T${token}`,
    symbol: `T${token}`,
    metadataURI: 'ipfs://x',
    royaltyTo: address(0),
    burnBps: 0,
    ranges: [{ tickLower: -207200, tickUpper: 887200, bps: 10000 }],
  };
}

/** A store holding launches at the given blocks, one batch per block. */
function storeWith(blocks: number[]) {
  const store = new IndexStore(openDatabase(':memory:'));
  store.open(TARGET);
  let token = 100;
  const byBlock = new Map<number, number>();
  for (const block of blocks) byBlock.set(block, (byBlock.get(block) ?? 0) + 1);
  for (const [block, n] of [...byBlock].sort((x, y) => x[0] - y[0])) {
    const events = Array.from({ length: n }, (_, i) => launched(token++, block, i * 2));
    store.write({
      events,
      timestamps: new Map([[block, 1_700_000_000 + block]]),
      hashes: new Map([[block, hash(block)]]),
      to: block,
    });
  }
  return store;
}

const blocksOf = (launches: { block: number }[]) => launches.map((l) => l.block);

describe('IndexStore pages', () => {
  it('never splits a block: a page ends at a block boundary, or is one whole block bigger than the limit', () => {
    const store = storeWith([10, 10, 10, 11, 11, 12]);
    expect(blocksOf(store.launchesAfter(0, 2))).toEqual([10, 10, 10]);
    expect(blocksOf(store.launchesAfter(0, 4))).toEqual([10, 10, 10]);
    expect(blocksOf(store.launchesAfter(0, 5))).toEqual([10, 10, 10, 11, 11]);
    expect(blocksOf(store.launchesAfter(10, 2))).toEqual([11, 11]);
    expect(blocksOf(store.launchesAfter(10, 1))).toEqual([11, 11]);
    expect(blocksOf(store.launchesAfter(11, 50))).toEqual([12]);
    expect(store.launchesAfter(12, 50)).toEqual([]);
    expect(blocksOf(store.newestLaunches(4))).toEqual([12, 11, 11, 10]);
  });

  it('walks every launch exactly once when a poller follows next at any page size', () => {
    const blocks = [6, 7, 7, 7, 7, 9, 12, 12, 13, 20, 20, 20];
    const store = storeWith(blocks);
    for (let limit = 1; limit <= 6; limit++) {
      let after = 0;
      const seen: string[] = [];
      for (;;) {
        const page = store.launchesAfter(after, limit);
        if (page.length === 0) break;
        seen.push(...page.map((l) => l.token));
        after = page[page.length - 1]?.block ?? after;
      }
      expect(seen).toEqual(store.launchesAfter(0, 200).map((l) => l.token));
      expect(seen).toHaveLength(blocks.length);
    }
  });
});

describe('IndexStore writes', () => {
  it('stores the first buy with its launch, though the factory logs it first', () => {
    const store = new IndexStore(openDatabase(':memory:'));
    store.open(TARGET);
    const launch = launched(100, 8, 3);
    const firstBuy: ServiceEvent = {
      kind: 'firstBuy',
      block: 8,
      logIndex: 1,
      txHash: launch.txHash,
      token: address(100),
      spent: 5n,
      tokens: 7n,
      siteFee: 1n,
    };
    store.write({ events: [firstBuy, launch], timestamps: new Map([[8, 1]]), hashes: new Map([[8, hash(8)]]), to: 8 });
    expect(store.launch(address(100))?.firstBuy).toEqual({ spent: 5n, tokens: 7n, siteFee: 1n });
  });

  it("lists the launch's first buy among the token's trades, by the creator, at the launch's place", () => {
    const store = new IndexStore(openDatabase(':memory:'));
    store.open(TARGET);
    const launch = launched(100, 8, 3);
    const firstBuy: ServiceEvent = {
      kind: 'firstBuy',
      block: 8,
      logIndex: 1,
      txHash: launch.txHash,
      token: address(100),
      spent: 5n,
      tokens: 7n,
      siteFee: 1n,
    };
    const trade: ServiceEvent = {
      kind: 'trade',
      block: 9,
      logIndex: 0,
      txHash: hash(9),
      trader: address(700),
      token: address(100),
      referrer: address(0),
      pair: address(3),
      isBuy: false,
      pairAmount: 2n,
      tokenAmount: 3n,
      fee: 0n,
      cut: 0n,
    };
    store.write({ events: [firstBuy, launch], timestamps: new Map([[8, 1]]), hashes: new Map([[8, hash(8)]]), to: 8 });
    store.write({ events: [trade], timestamps: new Map([[9, 2]]), hashes: new Map([[9, hash(9)]]), to: 9 });
    const trades = store.tradesOf(address(100), 10);
    expect(trades.map((t) => [t.isBuy, t.firstBuy ?? false])).toEqual([
      [false, false],
      [true, true],
    ]);
    expect(trades[1]).toMatchObject({
      txHash: launch.txHash,
      block: 8,
      trader: address(900),
      referrer: null,
      pairAmount: 5n,
      tokenAmount: 7n,
      fee: 1n,
      timestamp: 1,
    });
    expect(store.tradesOf(address(100), 1)).toHaveLength(1);
    // A launch without a first buy lists none.
    store.write({
      events: [launched(200, 10, 0)],
      timestamps: new Map([[10, 3]]),
      hashes: new Map([[10, hash(10)]]),
      to: 10,
    });
    expect(store.tradesOf(address(200), 10)).toEqual([]);
    // One wallet's trades (addresses as the decoder gives them, checksummed: these have no letters to case).
    const buyer = address(0x700);
    const buy: ServiceEvent = {
      kind: 'trade',
      block: 11,
      logIndex: 0,
      txHash: hash(11),
      trader: buyer,
      token: address(100),
      referrer: address(0),
      pair: address(3),
      isBuy: true,
      pairAmount: 4n,
      tokenAmount: 3n,
      fee: 0n,
      cut: 0n,
    };
    store.write({ events: [buy], timestamps: new Map([[11, 4]]), hashes: new Map([[11, hash(11)]]), to: 11 });
    expect(store.tradesOf(address(100), 10, address(900)).map((t) => t.firstBuy)).toEqual([true]);
    expect(store.tradesOf(address(100), 10, buyer).map((t) => t.txHash)).toEqual([hash(11)]);
    expect(store.tradesOf(address(100), 10, address(0x701))).toEqual([]);
    // Every trade of a wallet, oldest first, with its token; a first buy is its creator's.
    expect(store.walletTrades(address(900)).map((t) => [t.token, t.block, t.firstBuy])).toEqual([
      [address(100), 8, true],
    ]);
    expect(store.walletTrades(buyer).map((t) => [t.token, t.isBuy, t.pairAmount])).toEqual([[address(100), true, 4n]]);
  });

  it('rolls back the rows after a block together with the cursor', () => {
    const store = storeWith([6, 7, 8]);
    expect(store.rollBack(6, hash(6))).toEqual({ block: 6, hash: hash(6) });
    expect(blocksOf(store.launchesAfter(0, 50))).toEqual([6]);
    expect(store.recentHashes().map((h) => h.number)).toEqual([6]);
    expect(store.counts().launches).toBe(1);
  });

  it('keeps a batch out whole when it cannot be written, cursor included', () => {
    const store = storeWith([6]);
    const duplicate = launched(100, 9, 0); // token 100 is already stored: the primary key refuses it
    expect(() =>
      store.write({
        events: [launched(500, 9, 1), duplicate],
        timestamps: new Map([[9, 1]]),
        hashes: new Map([[9, hash(9)]]),
        to: 9,
      }),
    ).toThrow();
    expect(blocksOf(store.launchesAfter(0, 50))).toEqual([6]);
    expect(store.open(TARGET)).toEqual({ block: 6, hash: hash(6) });
  });

  it('starts afresh when the stored index was made for another chain or deployment', () => {
    const store = storeWith([6, 7]);
    expect(store.open(TARGET)).toEqual({ block: 7, hash: hash(7) });
    expect(store.open({ ...TARGET, factory: address(77) })).toEqual({ block: 4, hash: null });
    expect(store.counts().launches).toBe(0);
  });
});

describe('IndexStore holders', () => {
  const TOKEN = address(100);
  const POOL = address(1100);
  const moved = (block: number, logIndex: number, from: Address, to: Address, value: bigint): ServiceEvent => ({
    kind: 'transfer',
    block,
    logIndex,
    txHash: hash(block * 100),
    token: TOKEN,
    from,
    to,
    value,
  });
  const write = (store: IndexStore, to: number, events: ServiceEvent[]) =>
    store.write({
      events,
      timestamps: new Map(events.map((e) => [e.block, 1_700_000_000 + e.block])),
      hashes: new Map([[to, hash(to)]]),
      to,
    });
  const balances = (store: IndexStore) =>
    Object.fromEntries(store.topHolders(TOKEN, 50).map((h) => [h.holder, h.balance]));

  /** Launched at block 10: minted to the factory, laid into the pool, 9 and 10 tokens of first buy out to two wallets. */
  function launchedStore() {
    const store = new IndexStore(openDatabase(':memory:'));
    store.open(TARGET);
    write(store, 10, [
      moved(10, 0, address(0), TARGET.factory, 1000n),
      moved(10, 1, TARGET.factory, POOL, 1000n),
      moved(10, 2, POOL, TARGET.factory, 19n),
      moved(10, 3, TARGET.factory, address(7), 9n),
      moved(10, 4, TARGET.factory, address(8), 10n),
      { ...launched(100, 10, 5), txHash: hash(1000) } as ServiceEvent,
    ]);
    return store;
  }

  it('keeps balances by holder, the largest first by value (not by text), and the first-buy recipients', () => {
    const store = launchedStore();
    expect(store.topHolders(TOKEN, 3)).toEqual([
      { holder: POOL, balance: 981n },
      { holder: address(8), balance: 10n },
      { holder: address(7), balance: 9n },
    ]);
    expect(store.holderCount(TOKEN)).toBe(3);
    expect(store.firstBuyRecipients(TOKEN)).toEqual([address(7), address(8)]);
    expect(store.launchedTokens()).toEqual([TOKEN]);
  });

  it('undoes the dropped blocks of a reorganization, and starts afresh from the deploy block', () => {
    const store = launchedStore();
    const settled = balances(store);
    write(store, 12, [moved(11, 0, address(7), address(9), 9n), moved(12, 0, POOL, address(8), 81n)]);
    expect(balances(store)).toEqual({ [POOL]: 900n, [address(8)]: 91n, [address(9)]: 9n });
    store.rollBack(11, hash(11));
    expect(balances(store)).toEqual({ [POOL]: 981n, [address(8)]: 10n, [address(9)]: 9n });
    store.rollBack(10, hash(10));
    expect(balances(store)).toEqual(settled);
    store.rollBack(TARGET.fromBlock - 1, null);
    expect(store.holderCount(TOKEN)).toBe(0);
    expect(store.firstBuyRecipients(TOKEN)).toEqual([]);
  });

  it('keeps what a rollback needs only for the blocks it can reach, and refuses a balance below zero', () => {
    const store = launchedStore();
    // Block 1000 is deeper than the kept hashes once the batch ends at 2000: no rollback reaches it.
    write(store, 2000, [moved(1000, 0, POOL, address(9), 100n), moved(1900, 0, POOL, address(9), 1n)]);
    store.rollBack(1500, hash(1500));
    expect(balances(store)[address(9)]).toBe(100n);
    expect(() => write(store, 2001, [moved(2001, 0, address(7), address(9), 10n)])).toThrow(/missing/);
    expect(balances(store)[address(7)]).toBe(9n);
  });
});
