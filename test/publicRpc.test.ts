import { createWalletClient, http, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { devnetChain } from '../src-main/chain/networks';
import { type PublicRpc, publicRpc } from './support/publicRpc';
import { startTestService, type TestService } from './support/startTestService';

/* The public-RPC stand-in itself: each behaviour of a free public endpoint, as a client sees it. */
let service: TestService;
let rpc: PublicRpc;

interface Answer {
  result?: unknown;
  error?: { code: number; message: string };
}

async function call(
  method: string,
  params: unknown[] = [],
): Promise<{ status: number; retryAfter: string | null } & Answer> {
  const answer = await fetch(rpc.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: answer.status, retryAfter: answer.headers.get('retry-after'), ...((await answer.json()) as Answer) };
}
const hex = (n: number) => `0x${n.toString(16)}`;
const realHead = async () => {
  rpc.set({});
  return Number((await call('eth_blockNumber')).result);
};
const logsOf = (from: number, to: number) => call('eth_getLogs', [{ fromBlock: hex(from), toBlock: hex(to) }]);

beforeAll(async () => {
  service = await startTestService();
  rpc = await publicRpc(`${service.origin}/rpc`);
  // Enough blocks that some are older than a 128-block state window.
  for (let i = 0; i < 140; i++) await call('evm_mine');
});
afterAll(async () => {
  await rpc?.close();
  await service?.dispose();
});

describe('the public-RPC stand-in', () => {
  it('caps eth_getLogs by block range and by result count, with the public nodes’ errors', async () => {
    const head = await realHead();
    const all = (await logsOf(0, head)).result as unknown[];
    expect(all.length).toBeGreaterThan(2);
    rpc.set({ maxLogRange: 100 });
    expect((await logsOf(0, 100)).error).toEqual({ code: -32000, message: 'exceed maximum block range: 100' });
    expect((await logsOf(0, 99)).error).toBeUndefined();
    rpc.set({ maxLogResults: 2 });
    expect((await logsOf(0, head)).error).toEqual({ code: -32005, message: 'query returned more than 2 results' });
  });

  it('refuses eth_getLogs outright where the endpoint has none', async () => {
    rpc.set({ refuseLogs: 'not-found' });
    expect((await logsOf(0, 1)).error?.code).toBe(-32601);
    rpc.set({ refuseLogs: 'disabled' });
    expect((await logsOf(0, 1)).error).toEqual({ code: -32000, message: 'eth_getLogs is disabled' });
  });

  it('keeps no state older than its window', async () => {
    const head = await realHead();
    const wallet = testAccounts()[1]?.address;
    rpc.set({ stateWindow: 128 });
    const old = await call('eth_getBalance', [wallet, hex(head - 129)]);
    expect(old.error?.message).toMatch(/^missing trie node/);
    expect((await call('eth_getCode', [wallet, hex(head - 129)])).error?.message).toMatch(/^missing trie node/);
    expect((await call('eth_getBalance', [wallet, hex(head - 128)])).error).toBeUndefined();
    expect((await call('eth_getBalance', [wallet, 'latest'])).error).toBeUndefined();
    // Headers of old blocks are still served: only state is pruned.
    expect((await call('eth_getBlockByNumber', [hex(1), false])).result).not.toBeNull();
  });

  it('answers 429 with Retry-After beyond its requests per second', async () => {
    rpc.set({ requestsPerSecond: 3, retryAfterSeconds: 2 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => call('eth_chainId')));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(3);
    expect(limited.every((a) => a.retryAfter === '2')).toBe(true);
  });

  it('lands requests on nodes whose heads lag, which know nothing above their head', async () => {
    const head = await realHead();
    rpc.set({ lag: 2 });
    const heads = [];
    for (let i = 0; i < 6; i++) heads.push(Number((await call('eth_blockNumber')).result));
    expect(new Set(heads)).toEqual(new Set([head, head - 1, head - 2]));
    const wallet = testAccounts()[1]?.address;
    const reads = [];
    for (let i = 0; i < 3; i++) reads.push(await call('eth_getBalance', [wallet, hex(head)]));
    expect(reads.filter((r) => r.error?.message === 'header not found')).toHaveLength(2);
    const blocks = [];
    for (let i = 0; i < 3; i++) blocks.push((await call('eth_getBlockByNumber', [hex(head), false])).result);
    expect(blocks.filter((b) => b === null)).toHaveLength(2);
  });

  it('lands requests on nodes at random where asked, each still knowing nothing above its head', async () => {
    const head = await realHead();
    rpc.set({ lag: 2, assign: 'random' });
    const heads: number[] = [];
    for (let i = 0; i < 60; i++) heads.push(Number((await call('eth_blockNumber')).result));
    // Every node answers, in no fixed turn: the same node twice in a row happens (never in strict rotation).
    expect(new Set(heads)).toEqual(new Set([head, head - 1, head - 2]));
    expect(heads.some((h, i) => i >= 1 && h === heads[i - 1])).toBe(true);
    const blocks = [];
    for (let i = 0; i < 30; i++) blocks.push((await call('eth_getBlockByNumber', [hex(head), false])).result);
    expect(blocks.some((b) => b === null)).toBe(true);
    expect(blocks.some((b) => b !== null)).toBe(true);
  });

  it('answers the finalized tag below each node’s head where asked, and refuses it otherwise', async () => {
    const head = await realHead();
    const finalizedNumber = async () =>
      (await call('eth_getBlockByNumber', ['finalized', false])) as { result?: { number: string }; error?: unknown };
    expect((await finalizedNumber()).error).toEqual({ code: -32000, message: 'finalized block not found' });
    rpc.set({ finalized: 2 });
    expect(Number((await finalizedNumber()).result?.number)).toBe(head - 2);
    rpc.set({ finalized: 2, lag: 1 });
    const answers = [];
    for (let i = 0; i < 2; i++) answers.push(Number((await finalizedNumber()).result?.number));
    expect(answers.sort()).toEqual([head - 3, head - 2]);
  });

  it('answers null receipts for a while after a transaction is mined', async () => {
    rpc.set({ nullReceipts: 2 });
    const account = privateKeyToAccount(testAccounts()[1]?.privateKey as `0x${string}`);
    const wallet = createWalletClient({ account, chain: devnetChain, transport: http(rpc.url) });
    const hash = await wallet.sendTransaction({ to: testAccounts()[2]?.address, value: parseEther('0.01') });
    const receipts = [];
    for (let i = 0; i < 3; i++) receipts.push((await call('eth_getTransactionReceipt', [hash])).result);
    expect(receipts.slice(0, 2)).toEqual([null, null]);
    expect((receipts[2] as { transactionHash: string }).transactionHash).toBe(hash);
  });
});
