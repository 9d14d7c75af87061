import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  formatEther,
  http,
  maxUint256,
  parseEther,
  parseEventLogs,
  parseGwei,
  type TransactionReceipt,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chainTime,
  type RehearsalNode,
  type RehearsalSettings,
  RpcWallet,
  readSettings,
  rehearsalNode,
  testKey,
} from '../../scripts/rehearsal/rpcWallet';
import { LaunchFactory, Sandwicher } from '../../src-main/chain/generated/contracts';
import { PancakeV3Pool, SwapRouter, WETH9 } from '../../src-main/chain/generated/vendor';
import { devnetChain } from '../../src-main/chain/networks';
import { getSqrtRatioAtTick, MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../../src-main/core/math/tickMath';
import { PERSON_OPTIONS, rehearsalPerson, uploadLogo } from '../support/rehearsalPerson';
import { type RehearsalProcess, startRehearsalProcess } from '../support/rehearsalProcess';
import { startTestService, type TestService } from '../support/startTestService';

/**
 * The burn buy-back on a token that trades in every block at BSC's cadence: the devnet at 750 ms blocks with BSC's fee
 * rules, the rehearsal's background traffic (random buys and sells, and an arbitrageur pulling a pushed price back)
 * on a token whose creator chose to burn the whole royalty. Each `collect` must buy back and burn, and the attackers
 * of the buy-back, a one-transaction sandwich and a price pushed and held, must end at or below zero.
 */
let service: TestService;
let node: RehearsalNode;
let settings: RehearsalSettings;
let traffic: RehearsalProcess;
let token: Address;
let pool: Address;
let tokenIs0: boolean;
let collector: RpcWallet;
let attacker: RpcWallet;

const COLLECTOR = 9;
const ATTACKER = 8;
const FAR = 2n ** 40n;

const url = () => service.origin;
const headNumber = () => node.client.getBlockNumber({ cacheTime: 0 });
const nextBlocks = async (count: number) => {
  const target = (await headNumber()) + BigInt(count);
  while ((await headNumber()) < target) await new Promise((r) => setTimeout(r, 100));
};
const balanceOf = (of: Address, wallet: Address) =>
  node.client.readContract({ address: of, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] });
const tickNow = async () =>
  (await node.client.readContract({ address: pool, abi: PancakeV3Pool.abi, functionName: 'slot0' }))[1];
/** The token's price in ticks, rising with its price whichever side of the pool it sits on. */
const tokenTick = async () => (tokenIs0 ? 1 : -1) * (await tickNow());

async function collect(): Promise<{ receipt: TransactionReceipt; event: ReturnType<typeof collectedOf> }> {
  const receipt = await collector.sendAndWait({
    to: settings.contracts.factory,
    data: encodeFunctionData({ abi: LaunchFactory.abi, functionName: 'collect', args: [token] }),
    gas: 900_000n,
    tipWei: parseGwei('0.1'),
  });
  expect(receipt.status).toBe('success');
  return { receipt, event: collectedOf(receipt) };
}

function collectedOf(receipt: TransactionReceipt) {
  const [event] = parseEventLogs({ abi: LaunchFactory.abi, logs: receipt.logs, eventName: 'Collected' });
  if (!event) throw new Error('collect emitted no Collected event');
  return event.args;
}

/** A swap straight on the pool through PancakeSwap's router, as a searcher trades: no site fee. */
function swap(tokenIn: Address, tokenOut: Address, amountIn: bigint, limit: bigint) {
  return attacker.sendAndWait({
    to: settings.contracts.swapRouter,
    data: encodeFunctionData({
      abi: SwapRouter.abi,
      functionName: 'exactInputSingle',
      args: [
        {
          tokenIn,
          tokenOut,
          fee: 10000,
          recipient: attacker.address,
          deadline: FAR,
          amountIn,
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: limit,
        },
      ],
    }),
    gas: 800_000n,
    tipWei: parseGwei('1'),
  });
}

beforeAll(async () => {
  service = await startTestService(undefined, {
    ...PERSON_OPTIONS,
    blockTimeMs: 750,
    bscFees: true,
    rateLimits: false,
  });
  node = await rehearsalNode(`${url()}/rpc`);
  settings = await readSettings(`${url()}/api/v1`);
  const person = await rehearsalPerson(service, 7);
  const image = await uploadLogo(service);
  const launched = await person.buildAndSend(
    '/build/launch',
    { name: 'Burning Market', symbol: 'BURN', marketCapPair: '40', image, firstBuy: '1', burnPct: 100 },
    'launch',
  );
  expect(launched.main.settled.status).toBe('confirmed');
  token = launched.build.token;
  const record = await node.client.readContract({
    address: settings.contracts.factory,
    abi: LaunchFactory.abi,
    functionName: 'launchOf',
    args: [token],
  });
  pool = record.pool;
  tokenIs0 = BigInt(token) < BigInt(settings.contracts.wbnb);
  collector = new RpcWallet(node, testKey(COLLECTOR));
  attacker = new RpcWallet(node, testKey(ATTACKER));
  traffic = await startRehearsalProcess('traffic', ['--tps', '4', '--tokens', token, '--url', url(), '--seed', '11']);
});
afterAll(async () => {
  const summary = await traffic?.stop().catch(() => undefined);
  if (summary) console.log('traffic:', JSON.stringify(summary));
  await service?.dispose();
});

describe('the burn buy-back on a token that trades in every block', () => {
  it('buys back and burns on the collects that earn fees, and keeps what waits bounded', {
    timeout: 180_000,
  }, async () => {
    // The pool needs 30 seconds of history before the buy-back trusts its average.
    const launchedAt = await chainTime(node);
    while ((await chainTime(node)) < launchedAt + 32n) await nextBlocks(4);
    const from = await headNumber();
    const calls: { pairFees: bigint; bought: bigint; pending: bigint }[] = [];
    for (let i = 0; i < 10; i++) {
      await nextBlocks(4);
      const { event } = await collect();
      // The whole royalty burns: every token fee is burned, and what the buy-back bought comes on top.
      calls.push({
        pairFees: event.pairFees,
        bought: event.tokensBurned - event.tokenFees,
        pending: event.buybackPending,
      });
    }
    const to = await headNumber();
    const swaps = await node.client.getLogs({
      address: pool,
      event: PancakeV3Pool.abi.find((item) => item.type === 'event' && item.name === 'Swap') as never,
      fromBlock: from,
      toBlock: to,
    });
    const busyBlocks = new Set(swaps.map((log) => (log as { blockNumber: bigint }).blockNumber)).size;
    console.log(
      `buy-back on a busy token: the pool traded in ${busyBlocks} of ${to - from + 1n} blocks; collects:`,
      JSON.stringify(
        calls.map((c) => ({
          fees: formatEther(c.pairFees),
          bought: formatEther(c.bought),
          pending: formatEther(c.pending),
        })),
      ),
    );
    // Busy as BSC: the pool traded in most blocks while the collects ran.
    expect(busyBlocks / Number(to - from + 1n)).toBeGreaterThan(0.6);
    const earning = calls.filter((c) => c.pairFees > 0n);
    expect(earning.length).toBeGreaterThan(5);
    // A collect made while the price sits more than half a spacing above the pool's average waits (the bound that
    // keeps the sandwich below zero): most buy, and one that waited is followed within two collects by one that buys.
    const bought = earning.filter((c) => c.bought > 0n).length;
    expect(bought / earning.length, JSON.stringify(calls.map((c) => c.bought.toString()))).toBeGreaterThanOrEqual(0.7);
    calls.forEach((call, i) => {
      if (call.pairFees > 0n && call.bought === 0n && i + 2 < calls.length) {
        expect((calls[i + 1]?.bought ?? 0n) + (calls[i + 2]?.bought ?? 0n)).toBeGreaterThan(0n);
      }
    });
    // What waits never grows past a few collects' worth of fees.
    const most = earning.reduce((max, c) => (c.pairFees > max ? c.pairFees : max), 0n);
    for (const call of calls) expect(call.pending).toBeLessThanOrEqual(3n * most);
  });

  it('leaves a one-transaction sandwich of collect at or below zero, at its best push', {
    timeout: 180_000,
  }, async () => {
    const deployer = createWalletClient({
      account: privateKeyToAccount(testKey(ATTACKER)),
      chain: { ...devnetChain, id: node.chainId },
      transport: http(`${url()}/rpc`),
    });
    const deployed = await deployer.deployContract({
      abi: Sandwicher.abi,
      bytecode: Sandwicher.bytecode,
      maxPriorityFeePerGas: parseGwei('1'),
      maxFeePerGas: parseGwei('2'),
    });
    attacker.resync();
    const sandwicher = (await attacker.receipt(deployed))?.contractAddress as Address;
    const stake = parseEther('60');
    const { wbnb } = settings.contracts;
    await attacker.sendAndWait({
      to: wbnb,
      data: encodeFunctionData({ abi: WETH9.abi, functionName: 'deposit' }),
      value: stake,
      gas: 100_000n,
    });
    await attacker.sendAndWait({
      to: wbnb,
      data: encodeFunctionData({ abi: WETH9.abi, functionName: 'transfer', args: [sandwicher, stake] }),
      gas: 100_000n,
    });
    const results: { push: string; profit: bigint; bought: bigint }[] = [];
    for (const push of ['0.01', '0.1', '0.5', '2', '10']) {
      await nextBlocks(3);
      const before = await balanceOf(wbnb, sandwicher);
      const receipt = await attacker.sendAndWait({
        to: sandwicher,
        data: encodeFunctionData({
          abi: Sandwicher.abi,
          functionName: 'attack',
          args: [pool, settings.contracts.factory, token, wbnb, parseEther(push)],
        }),
        gas: 2_000_000n,
        tipWei: parseGwei('1'),
      });
      expect(receipt.status).toBe('success');
      const event = collectedOf(receipt);
      results.push({
        push,
        profit: (await balanceOf(wbnb, sandwicher)) - before,
        bought: event.tokensBurned - event.tokenFees,
      });
    }
    console.log(
      'sandwich of collect at 750 ms blocks:',
      JSON.stringify(
        results.map((r) => ({ push: r.push, profitBnb: formatEther(r.profit), boughtBack: formatEther(r.bought) })),
      ),
    );
    const best = results.reduce((a, b) => (b.profit > a.profit ? b : a));
    expect(best.profit, `pushing ${best.push} BNB earned ${best.profit} wei`).toBeLessThanOrEqual(0n);
  });

  // The hold: the attacker pushes the token's price up, keeps it there against the traffic and the arbitrageur until
  // the pool's average has caught up, calls collect so the buy-back buys at the held price, and sells everything.
  for (const ticks of [150, 400]) {
    it(`leaves an attacker who pushes the price ${ticks} ticks up and holds it 45 seconds at or below zero`, {
      timeout: 180_000,
    }, async () => {
      const { wbnb } = settings.contracts;
      const float = parseEther('40');
      // What it holds before, counting the BNB it wraps now as WBNB.
      const wbnbBefore = (await balanceOf(wbnb, attacker.address)) + float;
      await attacker.sendAndWait({
        to: wbnb,
        data: encodeFunctionData({ abi: WETH9.abi, functionName: 'deposit' }),
        value: float,
        gas: 100_000n,
      });
      for (const asset of [wbnb, token]) {
        await attacker.sendAndWait({
          to: asset,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'approve',
            args: [settings.contracts.swapRouter, maxUint256],
          }),
          gas: 100_000n,
        });
      }
      const tokensBefore = await balanceOf(token, attacker.address);
      const target = (await tokenTick()) + ticks;
      const limit = getSqrtRatioAtTick(tokenIs0 ? target : -target);
      // Longer than the 31 seconds or more a busy pool's observations reach back: the average is the held price.
      const heldUntil = (await chainTime(node)) + 45n;
      let pushes = 0;
      let gasWei = 0n;
      while ((await chainTime(node)) < heldUntil) {
        if ((await tokenTick()) < target - 5) {
          const receipt = await swap(wbnb, token, parseEther('5'), limit);
          gasWei += receipt.gasUsed * receipt.effectiveGasPrice;
          pushes++;
        } else {
          await nextBlocks(1);
        }
      }
      const held = await tokenTick();
      const { event } = await collect();
      const sold = (await balanceOf(token, attacker.address)) - tokensBefore;
      const unwind = await swap(token, wbnb, sold, tokenIs0 ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n);
      gasWei += unwind.gasUsed * unwind.effectiveGasPrice;
      const profit = (await balanceOf(wbnb, attacker.address)) - wbnbBefore;
      console.log(
        `hold ${ticks} ticks for 45 s: ${pushes} pushes, the price ${held} against a target of ${target}; the buy-back bought ${formatEther(event.tokensBurned - event.tokenFees)} tokens with pending ${formatEther(event.buybackPending)} left; the attacker ends ${formatEther(profit)} WBNB before ${formatEther(gasWei)} BNB of gas`,
      );
      expect(pushes).toBeGreaterThan(0);
      expect(profit).toBeLessThanOrEqual(0n);
    });
  }
});
