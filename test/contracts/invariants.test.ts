import {
  type Address,
  createPublicClient,
  custom,
  encodePacked,
  keccak256,
  type PublicClient,
  parseEther,
  zeroAddress,
} from 'viem';
import { beforeAll, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src-main/chain/devnet/startDevnet';
import { DevStablecoin, LaunchFactory } from '../../src-main/chain/generated/contracts';
import { PancakeV3Factory, PancakeV3Pool } from '../../src-main/chain/generated/vendor';
import { devnetChain } from '../../src-main/chain/networks';
import { getSqrtRatioAtTick } from '../../src-main/core/math/tickMath';
import { getAmount0Delta, getAmount1Delta } from '../../src-main/core/swap/sqrtPriceMath';
import { launcher } from '../support/launcher';
import { routerDriver, type Side } from '../support/routerDriver';
import type { TokenPool } from '../support/tokenPool';

/** A small deterministic generator, so a failing run names a reproducible seed. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return {
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
  };
}

const SEED = 20261122;
const LAUNCHES = 6;
const TRADES = 80;
const TRADERS = [5, 6, 7, 8, 9, 10];
const RECIPIENTS = [11, 12, 13];
const DEAD = '0x000000000000000000000000000000000000dEaD';
const REFERRERS = [16, 17, 18];
const BPS = 10000n;

let devnet: Devnet;
let client: PublicClient;

beforeAll(async () => {
  devnet = await startDevnet();
  client = createPublicClient({ chain: devnetChain, transport: custom(devnet.provider) }) as PublicClient;
});

it(`keeps every balance invariant over ${LAUNCHES} random launches and ${TRADES} random trades (seed ${SEED})`, async () => {
  const rnd = prng(SEED);
  const l = launcher(devnet, client);
  const d = routerDriver(devnet, client);
  const { wbnb, usdt, router, factory, siteFeeRecipient } = devnet.contracts;
  const native = (pair: Address) => pair === wbnb;
  const balance = (token: Address, who: Address) =>
    native(token) ? client.getBalance({ address: who }) : d.balanceOf(token, who);

  // Launch tokens of every kind: both pairs, both sort orders, 1 to 4 ranges, with and without a first buy.
  const pools: (TokenPool & { ranges: { tickLower: number; tickUpper: number }[] })[] = [];
  for (let i = 0; i < LAUNCHES; i++) {
    const pair = rnd.pick([wbnb, usdt]);
    const parts = 1 + rnd.int(4);
    // 1,000 bps for each range but the last, which takes the rest.
    const shape = Array.from({ length: parts }, (_, k) => ({
      width: 2000 * (1 + rnd.int(10)),
      bps: k === parts - 1 ? 10000 - 1000 * (parts - 1) : 1000,
    }));
    const creator = 2 + (i % 3);
    const tokenIs0 = rnd.chance(0.5);
    const saltSeed = `inv-${i}`;
    // Someone may create the pool before the launch; pricing it first is refused (the attack tests cover that).
    if (rnd.chance(0.3)) {
      const planned = await l.plan({ creator, saltSeed, pair, tokenIs0 });
      await d.wallet(TRADERS[0] ?? 5).writeContract({
        address: devnet.contracts.pancakeFactory,
        abi: PancakeV3Factory.abi,
        functionName: 'createPool',
        args: [planned.token, pair, 10000],
      });
    }
    // A first buy in half of them, split in two among random recipients (the creator when none).
    const firstBuy = rnd.chance(0.5)
      ? (native(pair) ? parseEther('0.001') : parseEther('1')) * BigInt(1 + rnd.int(500))
      : 0n;
    const split = firstBuy > 0n && rnd.chance(0.5);
    const firstBuyTo = split
      ? [
          { wallet: d.account(RECIPIENTS[0] ?? 11).address, bps: 4000 },
          { wallet: d.account(rnd.pick(RECIPIENTS.slice(1))).address, bps: 6000 },
        ]
      : [];
    if (firstBuy > 0n && !native(pair)) {
      await d.wallet(creator).writeContract({
        address: usdt,
        abi: DevStablecoin.abi,
        functionName: 'approve',
        args: [factory, firstBuy],
      });
    }
    const launched = await l.launch({
      creator,
      saltSeed,
      pair,
      tokenIs0,
      openingTick: native(pair) ? -207200 : -150000,
      shape,
      firstBuy,
      minTokens: firstBuy > 0n ? 1n : 0n,
      firstBuyTo,
    });
    expect(launched.result, `launch ${i}`).toBe('ok');
    if (!launched.pool) throw new Error('no pool');
    // Right after a launch the supply sits only in the creator's ranges, with the first buy's recipients, and dust at
    // the dead address: no one else holds any, and the pool holds nothing but what those ranges hold.
    const supply = launched.params.supply;
    const holders = split ? firstBuyTo.map((r) => r.wallet) : firstBuy > 0n ? [launched.creator.address] : [];
    let held = 0n;
    for (const holder of holders) held += await d.balanceOf(launched.token, holder);
    const inPool = await d.balanceOf(launched.token, launched.pool);
    const dead = await d.balanceOf(launched.token, DEAD);
    expect(inPool + held + dead, `launch ${i}`).toBe(supply);
    expect(dead < 10n ** 12n, `launch ${i}: ${dead} burned`).toBe(true);
    expect(await d.balanceOf(launched.token, factory)).toBe(0n);
    const [sqrtPrice] = await client.readContract({
      address: launched.pool,
      abi: PancakeV3Pool.abi,
      functionName: 'slot0',
    });
    let inRanges = 0n;
    for (const range of launched.params.ranges) {
      const key = keccak256(encodePacked(['address', 'int24', 'int24'], [factory, range.tickLower, range.tickUpper]));
      const [liquidity] = await client.readContract({
        address: launched.pool,
        abi: PancakeV3Pool.abi,
        functionName: 'positions',
        args: [key],
      });
      const a = getSqrtRatioAtTick(range.tickLower);
      const b = getSqrtRatioAtTick(range.tickUpper);
      if (launched.tokenIs0) {
        if (sqrtPrice < b) inRanges += getAmount0Delta(sqrtPrice > a ? sqrtPrice : a, b, liquidity, false);
      } else if (sqrtPrice > a) {
        inRanges += getAmount1Delta(a, sqrtPrice < b ? sqrtPrice : b, liquidity, false);
      }
    }
    // The pool rounds every mint and swap in its own favour: a few wei over, never under.
    expect(inPool >= inRanges && inPool - inRanges <= 16n, `launch ${i}: pool ${inPool}, ranges ${inRanges}`).toBe(
      true,
    );
    pools.push({ token: launched.token, pair, pool: launched.pool, ranges: launched.params.ranges });
  }
  const liquidityOf = async (pool: (typeof pools)[number]) =>
    Promise.all(
      pool.ranges.map(async (range) => {
        const key = keccak256(encodePacked(['address', 'int24', 'int24'], [factory, range.tickLower, range.tickUpper]));
        const [liquidity] = await client.readContract({
          address: pool.pool,
          abi: PancakeV3Pool.abi,
          functionName: 'positions',
          args: [key],
        });
        return liquidity;
      }),
    );
  const liquidityAtLaunch = await Promise.all(pools.map(liquidityOf));

  for (const trader of TRADERS) {
    await d.allowRouter(trader, usdt);
    for (const pool of pools) await d.allowRouter(trader, pool.token);
  }

  // Expected fee income, from the events, per currency and per referrer.
  const recipientBefore = { bnb: await balance(wbnb, siteFeeRecipient), usdt: await balance(usdt, siteFeeRecipient) };
  const referrerBefore = new Map<string, bigint>();
  for (const r of REFERRERS) {
    for (const token of [wbnb, usdt]) referrerBefore.set(`${r}:${token}`, await balance(token, d.account(r).address));
  }
  const expectedToRecipient = new Map<Address, bigint>([
    [wbnb, 0n],
    [usdt, 0n],
  ]);
  const expectedToReferrer = new Map<string, bigint>();
  // The referrer each trader is bound to on the router: its first trade through a referrer decides, for ever.
  const boundTo = new Map<number, number>();
  let done = 0;
  let refusedRebinds = 0;

  for (let i = 0; i < TRADES; i++) {
    const pool = rnd.pick(pools);
    const trader = rnd.pick(TRADERS);
    const referrerIndex = rnd.chance(0.6) ? rnd.pick(REFERRERS) : undefined;
    const referrer = referrerIndex === undefined ? zeroAddress : d.account(referrerIndex).address;
    const held = await d.balanceOf(pool.token, d.account(trader).address);
    const sell = held > 0n && rnd.chance(0.45);
    const exactOut = rnd.chance(0.3);
    const side: Side = sell ? (exactOut ? 'sellExactOut' : 'sellExactIn') : exactOut ? 'buyExactOut' : 'buyExactIn';
    const unit = native(pool.pair) ? parseEther('0.001') : parseEther('1');
    let amount: bigint;
    let limit: bigint;
    let value = 0n;
    if (side === 'buyExactIn') {
      amount = unit * BigInt(1 + rnd.int(3000));
      limit = 0n;
      value = native(pool.pair) ? amount : 0n;
    } else if (side === 'buyExactOut') {
      amount = held > 0n ? held / BigInt(2 + rnd.int(5)) + 1n : parseEther('1000');
      limit = unit * 5000n;
      value = native(pool.pair) ? limit : 0n;
    } else if (side === 'sellExactIn') {
      amount = held / BigInt(1 + rnd.int(4));
      limit = 0n;
    } else {
      amount = unit * BigInt(1 + rnd.int(50));
      limit = held;
    }
    if (amount === 0n) continue;
    const { result, hash } = await d.trade(trader, side, d.params(pool, amount, limit, referrer), value);
    const bound = boundTo.get(trader);
    if (referrerIndex !== undefined && bound !== undefined && bound !== referrerIndex) {
      // A bound wallet naming another referrer never pays it: the router refuses the trade.
      expect(result, `trade ${i}`).toBe('AlreadyBound');
      refusedRebinds++;
      continue;
    }
    // Random sizes may ask for more than the pool or the wallet can do; those must fail cleanly, with a reason.
    if (result !== 'ok' || !hash) {
      expect(['LimitNotMet', 'PoolTooThin', 'AmountTooSmall', 'reverted'], `${side} ${amount}: ${result}`).toContain(
        result,
      );
      continue;
    }
    done++;
    if (referrerIndex !== undefined && bound === undefined) boundTo.set(trader, referrerIndex);
    const event = await d.tradeEvent(hash);
    // The instant cut only ever reaches the wallet's bound referrer.
    if (event.referrerCut > 0n) expect(event.referrer, `trade ${i}`).toBe(d.account(boundTo.get(trader) ?? -1).address);
    const { pairAmount, siteFee, referrerCut } = event;
    if (side === 'buyExactIn' || side === 'sellExactIn') {
      expect(siteFee, `trade ${i}`).toBe((pairAmount * 100n + BPS - 1n) / BPS);
    } else {
      const net = pairAmount - siteFee;
      expect(pairAmount, `trade ${i}`).toBe((net * BPS + (BPS - 100n) - 1n) / (BPS - 100n));
    }
    expect(referrerCut, `trade ${i}`).toBe(referrerIndex === undefined ? 0n : (pairAmount * 20n) / BPS);
    expectedToRecipient.set(pool.pair, (expectedToRecipient.get(pool.pair) ?? 0n) + siteFee - referrerCut);
    if (referrerIndex !== undefined) {
      const key = `${referrerIndex}:${pool.pair}`;
      expectedToReferrer.set(key, (expectedToReferrer.get(key) ?? 0n) + referrerCut);
    }
  }
  expect(done).toBeGreaterThan(TRADES / 3);
  expect(refusedRebinds).toBeGreaterThan(0);

  // Fees paid equal what the events say, to the wei, per currency and per referrer.
  expect((await balance(wbnb, siteFeeRecipient)) - recipientBefore.bnb).toBe(expectedToRecipient.get(wbnb));
  expect((await balance(usdt, siteFeeRecipient)) - recipientBefore.usdt).toBe(expectedToRecipient.get(usdt));
  for (const r of REFERRERS) {
    for (const token of [wbnb, usdt]) {
      const key = `${r}:${token}`;
      const gained = (await balance(token, d.account(r).address)) - (referrerBefore.get(key) ?? 0n);
      expect(gained, key).toBe(expectedToReferrer.get(key) ?? 0n);
    }
  }
  // The router and the factory keep nothing.
  for (const holder of [router, factory]) {
    expect(await client.getBalance({ address: holder })).toBe(0n);
    for (const token of [wbnb, usdt, ...pools.map((p) => p.token)]) expect(await d.balanceOf(token, holder)).toBe(0n);
  }
  // The launch liquidity is still all there: trading moves prices, never the positions.
  expect(await Promise.all(pools.map(liquidityOf))).toEqual(liquidityAtLaunch);
  // And no one but the pool may ask the factory to pay.
  expect(
    LaunchFactory.abi.some((item) => item.type === 'function' && /remove|withdraw|decrease|burn/i.test(item.name)),
  ).toBe(false);
});
