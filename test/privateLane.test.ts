import { type Hex, parseEther, parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RehearsalNode, RpcWallet, rehearsalNode } from '../scripts/rehearsal/rpcWallet';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { startTestService, type TestService } from './support/startTestService';

/**
 * The devnet's private lane (`devnet_sendPrivateRawTransaction` on /rpc), the stand-in for a block builder's private
 * RPC: at a cadence a transaction sent there is never in the mempool, lands in the very next block, and survives a
 * restart through the journal, replayed block for block.
 */
let service: TestService;
let node: RehearsalNode;
const to = testAccounts()[10]?.address as Hex;
const nextBlock = () =>
  new Promise<bigint>((resolve) => {
    const off = service.chain.devnet?.onBlock((number) => {
      off?.();
      resolve(number);
    });
  });

/** A transfer signed by test account `index`, at its next nonce unless one is given. */
async function signed(index: number, options: { tip?: bigint; nonce?: number; value?: bigint; chainId?: number } = {}) {
  const account = privateKeyToAccount(testAccounts()[index]?.privateKey as Hex);
  const nonce = options.nonce ?? Number(await node.call<Hex>('eth_getTransactionCount', [account.address, 'pending']));
  return account.signTransaction({
    chainId: options.chainId ?? node.chainId,
    to,
    value: options.value ?? 1n,
    gas: 21_000n,
    nonce,
    maxFeePerGas: parseGwei('10'),
    maxPriorityFeePerGas: options.tip ?? parseGwei('1'),
  });
}
const sendPrivately = (raw: Hex) => node.call<Hex>('devnet_sendPrivateRawTransaction', [raw]);
/** The receipt of a private transaction, polled: unknown to the node until its block, it is not "dropped" meanwhile. */
async function receiptOf(hash: Hex) {
  for (let tries = 0; tries < 100; tries++) {
    const receipt = await node.client.getTransactionReceipt({ hash }).catch(() => null);
    if (receipt) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no receipt for ${hash} after 5 s`);
}
const pendingHashes = async () =>
  (await node.call<{ hash: Hex }[]>('eth_pendingTransactions')).map((tx) => tx.hash.toLowerCase());

/** Stops the cadence, so what the lane holds now is still waiting at the stop, then starts again on the same data. */
async function restart(blockTimeMs: number, waiting?: Hex) {
  const { dataDir } = service;
  service.chain.devnet?.stop();
  await service.chain.devnet?.between(async () => {});
  if (waiting) expect(await node.client.getTransactionReceipt({ hash: waiting }).catch(() => null)).toBeNull();
  await service.close();
  service = await startTestService(dataDir, { blockTimeMs });
  node = await rehearsalNode(`${service.origin}/rpc`);
}

beforeAll(async () => {
  service = await startTestService(undefined, { blockTimeMs: 750 });
  node = await rehearsalNode(`${service.origin}/rpc`);
});
afterAll(async () => {
  await service?.dispose();
});

describe('the private lane at --block-time 750', () => {
  it('holds a transaction out of the mempool, then mines it in the next block with the mempool, by priority fee', async () => {
    const filter = await node.call<Hex>('eth_newPendingTransactionFilter');
    await nextBlock();
    const open = await new RpcWallet(node, testAccounts()[5]?.privateKey as Hex).send({
      to,
      value: 1n,
      gas: 21_000n,
      tipWei: parseGwei('1'),
    });
    const hidden = await sendPrivately(await signed(6, { tip: parseGwei('3') }));

    // Waiting for the block: only the public one shows, in every place a searcher looks.
    expect(await pendingHashes()).toEqual([open.hash]);
    expect(await node.call('txpool_status')).toEqual({ pending: '0x1', queued: '0x0' });
    expect(await node.call('eth_getTransactionByHash', [hidden])).toBeNull();
    const pendingBlock = await node.call<{ transactions: Hex[] }>('eth_getBlockByNumber', ['pending', false]);
    expect(pendingBlock.transactions).toEqual([open.hash]);
    expect((await (await fetch(`${service.url}/status`)).json()).chain.devnet.pending).toBe(1);

    const [hiddenReceipt, openReceipt] = [await receiptOf(hidden), await receiptOf(open.hash)];
    expect(hiddenReceipt?.blockNumber).toBe(openReceipt?.blockNumber);
    const block = await node.call<{ transactions: Hex[] }>('eth_getBlockByNumber', [
      `0x${hiddenReceipt?.blockNumber.toString(16)}`,
      false,
    ]);
    // By priority fee, the private one bidding more: it went into the block as the block was made.
    expect(block.transactions).toEqual([hidden, open.hash]);
    // The pending filter never lists it, not even once it is mined.
    expect(await node.call<Hex[]>('eth_getFilterChanges', [filter])).toEqual([open.hash]);
  });

  it("refuses at once, in a node's words, what the next block could not take", async () => {
    const used = await signed(7);
    await node.call('eth_sendRawTransaction', [used]);
    await nextBlock();
    const poor = testAccounts()[7]?.address as Hex;
    const balance = BigInt(await node.call<Hex>('eth_getBalance', [poor, 'latest']));
    const cases: [() => Promise<Hex>, RegExp][] = [
      [() => signed(7, { nonce: 0 }).then(sendPrivately), /nonce too low/],
      [() => signed(7, { nonce: 5 }).then(sendPrivately), /nonce too high/],
      [() => signed(7, { value: balance }).then(sendPrivately), /insufficient funds/],
      [() => signed(7, { chainId: 56 }).then(sendPrivately), /invalid chain id/],
      [() => sendPrivately('0x1234'), /not a signed transaction/],
    ];
    for (const [send, refusal] of cases) await expect(send()).rejects.toThrow(refusal);
    expect(await pendingHashes()).toEqual([]);
  });

  it('replays the lane after a restart, block for block: what waited at the stop lands in the next block', async () => {
    const landed = await sendPrivately(await signed(8));
    expect((await receiptOf(landed)).status).toBe('success');
    await nextBlock();
    const waiting = await sendPrivately(await signed(8, { tip: parseGwei('2') }));
    const head = await node.client.getBlock();

    await restart(750, waiting);
    expect(service.chain.devnet?.replay).toMatchObject({ mismatches: 0 });
    expect((await node.client.getBlock({ blockNumber: head.number })).hash).toBe(head.hash);
    expect(await pendingHashes()).not.toContain(waiting);
    expect((await receiptOf(waiting)).status).toBe('success');

    // Left waiting at the stop of a cadence run, it is mined at the start of a run without one.
    await nextBlock();
    const leftover = await sendPrivately(await signed(9, { value: parseEther('1') }));
    await restart(0, leftover);
    expect(service.chain.devnet?.replay).toMatchObject({ mismatches: 0 });
    expect((await node.client.getTransactionReceipt({ hash: leftover })).status).toBe('success');
    // Without a cadence the lane mines at once, in a block of its own.
    const atOnce = await sendPrivately(await signed(9));
    expect((await node.client.getTransactionReceipt({ hash: atOnce })).status).toBe('success');

    const last = await node.client.getBlock();
    await restart(750);
    expect(service.chain.devnet?.replay).toMatchObject({ mismatches: 0 });
    expect((await node.client.getBlock({ blockNumber: last.number })).hash).toBe(last.hash);
  });
});
