import { type Hex, parseEther, parseGwei } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RehearsalNode, RpcWallet, rehearsalNode } from '../scripts/rehearsal/rpcWallet';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { startTestService, type TestService } from './support/startTestService';

/**
 * The devnet at BSC's cadence (--block-time 750): blocks on a clock holding the mempool by priority fee, a mempool a
 * searcher can watch through /rpc, replacement by fee, and a clock that moves, all journaled across a restart.
 */
let service: TestService;
let node: RehearsalNode;
const wallet = (index: number) => new RpcWallet(node, testAccounts()[index]?.privateKey as Hex);
const nextBlock = () =>
  new Promise<bigint>((resolve) => {
    const off = service.chain.devnet?.onBlock((number) => {
      off?.();
      resolve(number);
    });
  });

beforeAll(async () => {
  service = await startTestService(undefined, { blockTimeMs: 750 });
  node = await rehearsalNode(`${service.origin}/rpc`);
});
afterAll(async () => {
  await service?.dispose();
});

describe('--block-time 750', () => {
  it('makes blocks on its own clock, empty or not, and /status reports the cadence', async () => {
    const first = await nextBlock();
    const started = Date.now();
    let last = first;
    while (Date.now() - started < 3_000) last = await nextBlock();
    // About four blocks in three seconds; a loaded machine may make one fewer, never a burst.
    expect(Number(last - first)).toBeGreaterThanOrEqual(2);
    expect(Number(last - first)).toBeLessThanOrEqual(6);
    const status = await (await fetch(`${service.url}/status`)).json();
    expect(status.chain.blockTimeMs).toBe(750);
    expect(status.chain.devnet).toMatchObject({ blockTimeMs: 750, pending: 0 });
  });

  it('shows sent transactions to a pending filter and txpool before they are mined, then mines them in one block by priority fee', async () => {
    const filter = await node.call<Hex>('eth_newPendingTransactionFilter');
    const [low, high, middle] = [wallet(5), wallet(6), wallet(7)];
    const to = testAccounts()[8]?.address as Hex;
    await nextBlock();
    const sent = [
      await low.send({ to, value: 1n, gas: 21_000n, tipWei: parseGwei('1') }),
      await high.send({ to, value: 1n, gas: 21_000n, tipWei: parseGwei('3') }),
      await middle.send({ to, value: 1n, gas: 21_000n, tipWei: parseGwei('2') }),
    ];
    const seen = await node.call<Hex[]>('eth_getFilterChanges', [filter]);
    expect(seen).toEqual(sent.map((s) => s.hash));
    const pendingTx = await node.call<{ blockNumber: Hex | null }>('eth_getTransactionByHash', [sent[0]?.hash]);
    expect(pendingTx.blockNumber).toBeNull();
    expect(await node.call('txpool_status')).toEqual({ pending: '0x3', queued: '0x0' });
    const content = await node.call<{ pending: Record<string, Record<string, { hash: Hex }>> }>('txpool_content');
    expect(content.pending[low.address]?.['0']?.hash).toBe(sent[0]?.hash);
    const pendingBlock = await node.call<{ transactions: Hex[] }>('eth_getBlockByNumber', ['pending', false]);
    expect(pendingBlock.transactions).toHaveLength(3);
    expect((await (await fetch(`${service.url}/status`)).json()).chain.devnet.pending).toBe(3);

    const receipts = await Promise.all(sent.map((s, i) => [low, high, middle][i]?.receipt(s.hash)));
    const blocks = new Set(receipts.map((r) => r?.blockNumber));
    expect(blocks.size).toBe(1);
    const block = await node.call<{ transactions: Hex[] }>('eth_getBlockByNumber', [
      `0x${receipts[0]?.blockNumber.toString(16)}`,
      false,
    ]);
    expect(block.transactions).toEqual([sent[1]?.hash, sent[2]?.hash, sent[0]?.hash]);
  });

  it('replaces a pending transaction by a higher fee at the same nonce, and refuses a replacement that does not pay more', async () => {
    const sender = wallet(9);
    const to = testAccounts()[10]?.address as Hex;
    await nextBlock();
    const first = await sender.send({ to, value: 1n, gas: 21_000n, tipWei: parseGwei('1') });
    await expect(
      sender.send({ to, value: 2n, gas: 21_000n, tipWei: parseGwei('1'), nonce: first.nonce }),
    ).rejects.toThrow(/underpriced/i);
    const second = await sender.send({ to, value: 3n, gas: 21_000n, tipWei: parseGwei('5'), nonce: first.nonce });
    const receipt = await sender.receipt(second.hash);
    expect(receipt?.status).toBe('success');
    expect(await node.client.getTransactionReceipt({ hash: first.hash }).catch(() => null)).toBeNull();
    expect(await node.call('eth_getTransactionByHash', [first.hash])).toBeNull();
  });

  it('takes a transaction whose nonce leaves a gap into the queue, and mines it once the gap is filled', async () => {
    const sender = wallet(11);
    const to = testAccounts()[10]?.address as Hex;
    const start = Number(await node.call<Hex>('eth_getTransactionCount', [sender.address, 'latest']));
    const later = await sender.send({ to, value: 1n, gas: 21_000n, nonce: start + 1 });
    expect(await node.call('txpool_status')).toMatchObject({ queued: '0x1' });
    const now = await sender.send({ to, value: 1n, gas: 21_000n, nonce: start });
    expect((await sender.receipt(later.hash))?.status).toBe('success');
    expect((await sender.receipt(now.hash))?.status).toBe('success');
  });

  it('moves the chain clock by evm_increaseTime and evm_setNextBlockTimestamp, never backwards', async () => {
    const before = Number((await node.client.getBlock()).timestamp);
    expect(await node.call('evm_increaseTime', [3600])).toBe('3600');
    await nextBlock();
    const after = Number((await node.client.getBlock()).timestamp);
    expect(after - before).toBeGreaterThanOrEqual(3600);
    await node.call('evm_setNextBlockTimestamp', [after + 7200]);
    await node.call('evm_mine');
    expect(Number((await node.client.getBlock()).timestamp)).toBe(after + 7200);
    await expect(node.call('evm_setNextBlockTimestamp', [before])).rejects.toThrow(/only moves forward/);
    await expect(node.call('evm_increaseTime', ['-5'])).rejects.toThrow(/whole number of seconds/);
    // A jump past what a date can hold is refused, so no build after it fails on a deadline it cannot write.
    await expect(node.call('evm_increaseTime', [1e15])).rejects.toThrow(/past the year 9999/);
    await expect(node.call('evm_setNextBlockTimestamp', [1e13])).rejects.toThrow(/past the year 9999/);
    const status = await (await fetch(`${service.url}/status`)).json();
    expect(status.chain.devnet.clockOffset).toBeGreaterThanOrEqual(3600 + 7200 - 5);
  });

  it('replays the journal after a restart: the same blocks, the clock where it was, a pending transaction still there', async () => {
    const sender = wallet(12);
    const to = testAccounts()[10]?.address as Hex;
    await sender.sendAndWait({ to, value: parseEther('1'), gas: 21_000n });
    await nextBlock();
    await nextBlock();
    const head = await node.client.getBlock();
    // Sent just before the stop: in the mempool, not yet in a block.
    await nextBlock();
    const pending = await sender.send({ to, value: 7n, gas: 21_000n });
    const offset = (await (await fetch(`${service.url}/status`)).json()).chain.devnet.clockOffset;
    const { dataDir } = service;
    await service.close();
    service = await startTestService(dataDir, { blockTimeMs: 750 });
    node = await rehearsalNode(`${service.origin}/rpc`);
    expect(service.chain.devnet?.replay).toMatchObject({ mismatches: 0 });
    expect((await node.client.getBlock({ blockNumber: head.number })).hash).toBe(head.hash);
    const status = await (await fetch(`${service.url}/status`)).json();
    expect(Math.abs(status.chain.devnet.clockOffset - offset)).toBeLessThanOrEqual(2);
    expect((await new RpcWallet(node, testAccounts()[12]?.privateKey as Hex).receipt(pending.hash))?.status).toBe(
      'success',
    );
  });
});

describe('--block-time 750 with --bsc-fees', () => {
  it('refuses a transaction whose signature was tampered with, or that is no transaction, and keeps neither', async () => {
    const account = wallet(14).account;
    const raw = await account.signTransaction({
      chainId: node.chainId,
      to: testAccounts()[10]?.address as Hex,
      value: 1n,
      gas: 21_000n,
      nonce: 0,
      maxFeePerGas: parseGwei('5'),
      maxPriorityFeePerGas: parseGwei('1'),
    });
    // The last byte of s moved: the signature recovers no key, or another sender's with nothing to pay.
    const tampered = `${raw.slice(0, -2)}${raw.endsWith('00') ? '01' : '00'}` as Hex;
    await expect(node.call('eth_sendRawTransaction', [tampered])).rejects.toThrow();
    await expect(node.call('eth_sendRawTransaction', ['0x1234'])).rejects.toThrow(/not a signed transaction/);
    expect(await node.call('txpool_status')).toEqual({ pending: '0x0', queued: '0x0' });
  });

  it('refuses a transaction under the minimum tip as it arrives, as a BSC node does, instead of leaving it pending for ever', async () => {
    const bsc = await startTestService(undefined, { blockTimeMs: 750, bscFees: true });
    try {
      const rpc = await rehearsalNode(`${bsc.origin}/rpc`);
      const sender = new RpcWallet(rpc, testAccounts()[13]?.privateKey as Hex);
      const to = testAccounts()[10]?.address as Hex;
      const account = sender.account;
      const raw = await account.signTransaction({
        chainId: rpc.chainId,
        to,
        value: 1n,
        gas: 21_000n,
        nonce: 0,
        maxFeePerGas: parseGwei('1'),
        maxPriorityFeePerGas: parseGwei('0.04'),
      });
      await expect(rpc.call('eth_sendRawTransaction', [raw])).rejects.toThrow(
        /transaction underpriced: gas tip cap 40000000, minimum needed 50000000/,
      );
      expect(await rpc.call('txpool_status')).toEqual({ pending: '0x0', queued: '0x0' });
      // A bot that bid under it learns the minimum from the refusal and bids that.
      const sent = await sender.send({ to, value: 1n, gas: 21_000n, tipWei: parseGwei('0.01') });
      expect(sent.tipWei).toBe(parseGwei('0.05'));
      expect((await sender.receipt(sent.hash))?.status).toBe('success');
    } finally {
      await bsc.dispose();
    }
  });
});
