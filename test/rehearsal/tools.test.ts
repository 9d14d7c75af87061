import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import {
  type Address,
  encodeFunctionData,
  getAbiItem,
  type Hex,
  http,
  parseEther,
  parseEventLogs,
  parseGwei,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RehearsalNode,
  type RehearsalSettings,
  RpcWallet,
  readSettings,
  rehearsalNode,
  testKey,
} from '../../scripts/rehearsal/rpcWallet';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { LaunchFactory, TradeRouter } from '../../src-main/chain/generated/contracts';
import { PancakeV3Pool } from '../../src-main/chain/generated/vendor';
import { launcher } from '../support/launcher';
import { startTestService, type TestService } from '../support/startTestService';

/**
 * The rehearsal's tools, each run as its own process against the real service at BSC's cadence: background traffic,
 * and the three adversaries (frontrun, sandwich, snipe), each judged from its printed balance sheet and the chain.
 */

const ROOT = join(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
/** A launch opening at a cap of about 10 BNB for its billion tokens: a thin, fresh pool, as searchers like them. */
const OPENING = -184200;

let service: TestService;
let node: RehearsalNode;
let settings: RehearsalSettings;
let tokenA: Address;
let poolA: Address;
const children = new Set<ChildProcessWithoutNullStreams>();

/** A tool running as a child process, its stdout read as JSON lines. */
interface Tool {
  lines: Record<string, any>[];
  /** Resolves with the first line that has `key`. */
  line(key: string, timeoutMs?: number): Promise<any>;
  exited: Promise<number | null>;
  child: ChildProcessWithoutNullStreams;
}

function runTool(script: string, args: string[]): Tool {
  const child = spawn(TSX, [join(ROOT, 'scripts/rehearsal', script), '--url', service.origin, '--json', ...args], {
    cwd: ROOT,
  });
  children.add(child);
  const lines: Record<string, any>[] = [];
  const waiters: (() => void)[] = [];
  let stderr = '';
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts.filter(Boolean)) lines.push(JSON.parse(part));
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      children.delete(child);
      for (const wake of waiters.splice(0)) wake();
      resolve(code);
    }),
  );
  let done = false;
  void exited.then(() => {
    done = true;
  });
  return {
    lines,
    child,
    exited,
    async line(key, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.find((l) => key in l);
        if (found) return found[key];
        if (done || Date.now() > until) {
          throw new Error(`${script} printed no "${key}" line: ${JSON.stringify(lines)} ${stderr}`);
        }
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
  };
}

const nextBlock = async () => {
  const start = await node.client.getBlockNumber();
  while ((await node.client.getBlockNumber()) === start) await new Promise((resolve) => setTimeout(resolve, 20));
};
const receipt = (hash: Hex) => node.client.getTransactionReceipt({ hash });

/** A launch from a test account through the factory, as a wallet sends it: gas from a simulation, a 1 gwei tip. */
async function sendLaunch(creatorIndex: number, saltSeed: string) {
  const l = launcher(
    { accounts: testAccounts(), contracts: settings.contracts, transport: http(`${service.origin}/rpc`) },
    node.client,
  );
  const firstBuy = parseEther('0.5');
  const planned = await l.plan({ creator: creatorIndex, saltSeed, openingTick: OPENING, firstBuy, minTokens: 1n });
  const creator = new RpcWallet(node, testKey(creatorIndex));
  const data = encodeFunctionData({ abi: LaunchFactory.abi, functionName: 'launch', args: [planned.params] });
  const gas = await node.client.estimateGas({
    account: creator.address,
    to: settings.contracts.factory,
    data,
    value: firstBuy,
  });
  // Sent just after a block, so a searcher has the block time to answer, as on BSC.
  await nextBlock();
  const sent = await creator.send({
    to: settings.contracts.factory,
    data,
    value: firstBuy,
    gas: (gas * 12n) / 10n,
    tipWei: parseGwei('1'),
  });
  return { ...planned, hash: sent.hash, creator };
}

beforeAll(async () => {
  service = await startTestService(undefined, { blockTimeMs: 750, rateLimits: false });
  node = await rehearsalNode(`${service.origin}/rpc`);
  settings = await readSettings(service.url);
  const launched = await sendLaunch(2, 'tools-a');
  const landed = await launched.creator.receipt(launched.hash);
  expect(landed?.status).toBe('success');
  const [event] = parseEventLogs({ abi: LaunchFactory.abi, logs: landed?.logs ?? [], eventName: 'Launched' });
  tokenA = launched.token;
  poolA = event?.args.pool as Address;
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await service?.dispose();
});

describe('npm run traffic', () => {
  it('trades the chosen pool in most blocks, and prints its report on SIGINT', async () => {
    const traffic = runTool('traffic.ts', ['--tps', '4', '--tokens', tokenA, '--seed', '7']);
    await traffic.line('ready');
    const from = (await node.client.getBlockNumber()) + 1n;
    while ((await node.client.getBlockNumber()) < from + 10n) await new Promise((resolve) => setTimeout(resolve, 100));
    traffic.child.kill('SIGINT');
    const report = await traffic.line('trafficReport');
    expect(await traffic.exited).toBe(0);
    const to = await node.client.getBlockNumber();

    expect(report.blocksSeen).toBeGreaterThanOrEqual(8);
    expect(report.blocksWithTrades / report.blocksSeen, JSON.stringify(report)).toBeGreaterThanOrEqual(0.6);
    expect(report.mined, JSON.stringify(report)).toBeGreaterThanOrEqual(report.sent * 0.6);
    // The chain agrees: the pool swapped in most blocks of the run, several swaps in some.
    const logs = await node.client.getLogs({
      address: poolA,
      fromBlock: from,
      toBlock: to,
      event: getAbiItem({ abi: PancakeV3Pool.abi, name: 'Swap' }),
    });
    const perBlock = new Map<bigint, number>();
    for (const log of logs) perBlock.set(log.blockNumber, (perBlock.get(log.blockNumber) ?? 0) + 1);
    expect(perBlock.size / Number(to - from + 1n)).toBeGreaterThanOrEqual(0.6);
    expect(Math.max(...perBlock.values())).toBeGreaterThanOrEqual(2);
  });
});

describe('npm run adversary', () => {
  // With 1 BNB of bids in the way, beyond the dust the factory sells into when it takes a pool over (with none, or
  // dust, the launch lands: test/rehearsal/adversaries.test.ts).
  it('frontrun: prices a pending launch pool first, in the same block, with bids in the way, and the launch reverts', async () => {
    const adversary = runTool('adversary.ts', ['--kind', 'frontrun', '--bids', '1', '--max-actions', '1']);
    await adversary.line('ready');
    const launch = await sendLaunch(3, 'tools-frontrun');
    const action = await adversary.line('action');
    const sheet = await adversary.line('balanceSheet');
    expect(await adversary.exited).toBe(0);

    const launched = await receipt(launch.hash);
    expect(launched.status).toBe('reverted');
    const created = await receipt(action.txs.find((t: any) => t.role === 'createPool').hash);
    expect(created.status).toBe('success');
    expect(created.blockNumber).toBe(launched.blockNumber);
    expect(created.transactionIndex).toBeLessThan(launched.transactionIndex);
    expect(action.landedFirstInSameBlock).toBe(true);
    expect(action.launch.token).toBe(launch.token);
    expect(action.launchRevertReason).toMatch(/^PoolOccupied/);
    expect(BigInt(action.dustWei)).toBeGreaterThan(0n);
    expect(sheet.launchesBlocked).toBe(1);
    expect(BigInt(sheet.creatorGasLostWei)).toBe(launched.gasUsed * launched.effectiveGasPrice);
    // Blocking the launch cost the attacker far more gas than it cost the creator.
    expect(BigInt(sheet.gasSpentWei)).toBeGreaterThan(BigInt(sheet.creatorGasLostWei) * 4n);
    expect(BigInt(sheet.netWei)).toBeLessThan(0n);
  });

  it('snipe: buys a launch seen in the mempool right after it, in its block', async () => {
    const adversary = runTool('adversary.ts', ['--kind', 'snipe', '--max-actions', '1', '--amount', '0.5']);
    await adversary.line('ready');
    const launch = await sendLaunch(4, 'tools-snipe');
    const action = await adversary.line('action');
    const sheet = await adversary.line('balanceSheet');
    expect(await adversary.exited).toBe(0);

    const launched = await receipt(launch.hash);
    expect(launched.status).toBe('success');
    const bought = await receipt(action.txs.find((t: any) => t.role === 'buy').hash);
    expect(bought.status).toBe('success');
    const blocksAfter = Number(bought.blockNumber - launched.blockNumber);
    expect(blocksAfter === 0 || blocksAfter === 1, `bought ${blocksAfter} blocks after the launch`).toBe(true);
    if (blocksAfter === 0) expect(bought.transactionIndex).toBeGreaterThan(launched.transactionIndex);
    expect(action.blocksAfterLaunch).toBe(blocksAfter);
    expect(sheet.buys).toBe(1);
    expect(sheet.bnbSpentOnTradesWei).toBe(parseEther('0.5').toString());
    expect(BigInt(sheet.tokensHeld[0].amountWei)).toBeGreaterThan(0n);
    expect(sheet.tokensHeld[0].token).toBe(launch.token);
  });

  it('sandwich: front-runs a default-slippage buy, the victim gets its limit, and it backs out in the same block', async () => {
    const adversary = runTool('adversary.ts', ['--kind', 'sandwich', '--max-actions', '1']);
    await adversary.line('ready');
    const victim = new RpcWallet(node, testKey(5));
    const response = await fetch(`${service.url}/build/buy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wallet: victim.address, token: tokenA, amount: '1', referrer: null }),
    });
    const build = await response.json();
    expect(response.status, JSON.stringify(build)).toBe(200);
    expect(build.slippageBps).toBe(50);
    await nextBlock();
    const sent = await victim.send({
      to: build.tx.to,
      data: build.tx.data,
      value: BigInt(build.tx.value),
      gas: BigInt(build.tx.gas),
      tipWei: parseGwei('1'),
    });
    const action = await adversary.line('action');
    const sheet = await adversary.line('balanceSheet');
    expect(await adversary.exited).toBe(0);

    const [front, victimReceipt, back] = await Promise.all([
      receipt(action.txs.find((t: any) => t.role === 'front').hash),
      receipt(sent.hash),
      receipt(action.txs.find((t: any) => t.role === 'back').hash),
    ]);
    expect([front.status, victimReceipt.status, back.status]).toEqual(['success', 'success', 'success']);
    expect(new Set([front.blockNumber, victimReceipt.blockNumber, back.blockNumber]).size).toBe(1);
    expect(front.transactionIndex).toBeLessThan(victimReceipt.transactionIndex);
    expect(victimReceipt.transactionIndex).toBeLessThan(back.transactionIndex);
    const [trade] = parseEventLogs({ abi: TradeRouter.abi, logs: victimReceipt.logs, eventName: 'Trade' });
    expect(trade?.args.tokenAmount).toBeGreaterThanOrEqual(BigInt(build.limit.wei));
    // It took what the limit allowed: the victim got less than its quote.
    expect(trade?.args.tokenAmount).toBeLessThan(BigInt(build.receive.wei));
    expect(action.victim.hash).toBe(sent.hash);
    expect(action.frontVictimBackInOneBlock).toBe(true);
    expect(sheet.sandwiches).toBe(1);
    expect(BigInt(sheet.netWei), JSON.stringify(sheet)).toBeGreaterThan(0n);
  });
});
