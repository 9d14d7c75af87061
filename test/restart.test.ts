import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createPublicClient, createWalletClient, http, type PublicClient, parseEther, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { DevStablecoin } from '../src-main/chain/generated/contracts';
import { devnetChain } from '../src-main/chain/networks';
import { startTestService, type TestService } from './support/startTestService';

const dataDir = mkdtempSync(join(tmpdir(), 'companion-restart-'));
const started: TestService[] = [];
afterAll(async () => {
  for (const service of started) await service.close().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(dir = dataDir) {
  const service = await startTestService(dir);
  started.push(service);
  const transport = http(`${service.origin}/rpc`);
  const client = createPublicClient({ chain: devnetChain, transport }) as PublicClient;
  return { service, client, transport };
}

const sender = privateKeyToAccount(testAccounts()[3]?.privateKey ?? '0x');
/** An address no test account or contract uses, so its balances are only what these tests send. */
const recipient = '0x00000000000000000000000000000000c0ffee01';

describe('devnet journal', () => {
  it('keeps what was sent through /rpc across a restart with the same data directory', async () => {
    const first = await start();
    const wallet = createWalletClient({ account: sender, chain: devnetChain, transport: first.transport });
    const settings = (await (await fetch(`${first.service.url}/settings`)).json()) as {
      contracts: { usdt: `0x${string}` };
    };
    const usdt = settings.contracts.usdt;
    const usdtOf = (client: PublicClient) =>
      client.readContract({ address: usdt, abi: DevStablecoin.abi, functionName: 'balanceOf', args: [recipient] });

    await wallet.sendTransaction({ to: recipient, value: parseEther('1.5') });
    const transfer = await wallet.writeContract({
      address: usdt,
      abi: DevStablecoin.abi,
      functionName: 'transfer',
      args: [recipient, parseUnits('1234.5', 18)],
    });
    // A transaction that reverts is mined too, and must replay the same way.
    const reverted = await wallet.writeContract({
      address: usdt,
      abi: DevStablecoin.abi,
      functionName: 'transfer',
      args: [recipient, parseEther('999999999')],
      gas: 100_000n,
    });
    await first.client.request({ method: 'evm_mine' } as never);
    expect((await first.client.getTransactionReceipt({ hash: reverted })).status).toBe('reverted');
    const head = await first.client.getBlock();
    await first.service.close();

    const second = await start();
    expect(await second.client.getBalance({ address: recipient })).toBe(parseEther('1.5'));
    expect(await usdtOf(second.client)).toBe(parseUnits('1234.5', 18));
    const replayedHead = await second.client.getBlock({ blockNumber: head.number });
    expect(replayedHead.hash).toBe(head.hash);
    expect(replayedHead.timestamp).toBe(head.timestamp);
    expect((await second.client.getTransactionReceipt({ hash: transfer })).status).toBe('success');
    expect((await second.client.getTransactionReceipt({ hash: reverted })).status).toBe('reverted');

    // New work after the restart is journaled after the replayed blocks, and survives the next restart.
    const wallet2 = createWalletClient({ account: sender, chain: devnetChain, transport: second.transport });
    await wallet2.sendTransaction({ to: recipient, value: parseEther('0.25') });
    await second.service.close();
    const third = await start();
    expect(await third.client.getBalance({ address: recipient })).toBe(parseEther('1.75'));
    await third.service.close();

    const fresh = await start(mkdtempSync(join(tmpdir(), 'companion-fresh-')));
    expect(await fresh.client.getBalance({ address: recipient })).toBe(0n);
    await fresh.service.dispose();
  });

  it('refuses a transaction whose nonce leaves a gap, instead of holding it where the journal cannot order it', async () => {
    const node = await start(mkdtempSync(join(tmpdir(), 'companion-gap-')));
    const wallet = createWalletClient({ account: sender, chain: devnetChain, transport: node.transport });
    const nonce = await node.client.getTransactionCount({ address: sender.address });
    await expect(wallet.sendTransaction({ to: recipient, value: 1n, nonce: nonce + 5 })).rejects.toThrow(
      /nonce too high/,
    );
    expect(await node.client.getBalance({ address: recipient })).toBe(0n);
    await node.service.dispose();
  });

  it('journals a block ahead of making it: a refused transaction leaves no entry, and an entry without its hash replays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'companion-ahead-'));
    const node = await start(dir);
    const db = new Database(join(dir, 'app.sqlite'));
    const entries = () => db.prepare('SELECT count(*) FROM devnet_journal').pluck().get() as number;
    const before = entries();
    // A wallet with nothing to pay gas with: the chain refuses its transaction, so its entry is taken back.
    const broke = createWalletClient({
      account: privateKeyToAccount(`0x${'42'.repeat(32)}`),
      chain: devnetChain,
      transport: http(`${node.service.origin}/rpc`, { retryCount: 0 }),
    });
    await expect(broke.sendTransaction({ to: recipient, value: 1n, gas: 21_000n })).rejects.toThrow();
    expect(entries()).toBe(before);

    const wallet = createWalletClient({ account: sender, chain: devnetChain, transport: node.transport });
    const hash = await wallet.sendTransaction({ to: recipient, value: parseEther('0.75') });
    expect(entries()).toBe(before + 1);
    await node.service.close();
    // As if the hashes could not be added after the block was made: the entry still replays the same block.
    db.prepare(
      "UPDATE devnet_journal SET block_hash = '', tx_hash = NULL WHERE seq = (SELECT max(seq) FROM devnet_journal)",
    ).run();
    db.close();
    const again = await start(dir);
    expect(again.service.chain.devnet?.replay).toMatchObject({ mismatches: 0 });
    expect((await again.client.getTransactionReceipt({ hash })).status).toBe('success');
    expect(await again.client.getBalance({ address: recipient })).toBe(parseEther('0.75'));
    await again.service.dispose();
  });

  it('mines nothing when the journal cannot be written (the database locked by another program), so a restart loses no block anyone was told of', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'companion-locked-'));
    const node = await start(dir);
    const wallet = createWalletClient({ account: sender, chain: devnetChain, transport: node.transport });
    // One try per send (viem would retry an internal error three times, each waiting out the busy timeout).
    const once = createPublicClient({
      chain: devnetChain,
      transport: http(`${node.service.origin}/rpc`, { retryCount: 0 }),
    }) as PublicClient;
    const head = await node.client.getBlockNumber({ cacheTime: 0 });
    const nonce = await node.client.getTransactionCount({ address: sender.address });
    const raw = await wallet.signTransaction(
      await wallet.prepareTransactionRequest({ to: recipient, value: parseEther('0.5'), nonce }),
    );

    // Another program holds the write lock past the service's busy timeout.
    const other = new Database(join(dir, 'app.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    try {
      await expect(once.request({ method: 'eth_sendRawTransaction', params: [raw] })).rejects.toThrow(
        /could not record the block/,
      );
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(await node.client.getBlockNumber({ cacheTime: 0 })).toBe(head);
    expect(await node.client.getTransactionCount({ address: sender.address })).toBe(nonce);
    expect(await node.client.getBalance({ address: recipient })).toBe(0n);

    // The same signed transaction goes through once the lock is gone, and is there after a restart.
    const hash = await once.request({ method: 'eth_sendRawTransaction', params: [raw] });
    expect(await node.client.getBlockNumber({ cacheTime: 0 })).toBe(head + 1n);
    await node.service.close();
    const again = await start(dir);
    expect((await again.client.getTransactionReceipt({ hash })).status).toBe('success');
    expect(await again.client.getBalance({ address: recipient })).toBe(parseEther('0.5'));
    await again.service.dispose();
  });
});
