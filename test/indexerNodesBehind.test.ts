import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Address, createPublicClient, createWalletClient, type Hex, http, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestAccount, testAccounts } from '../src-main/chain/devnet/testAccounts';
import { HeadTracker } from '../src-main/chain/headTracker';
import { devnetChain } from '../src-main/chain/networks';
import { lineLogger } from '../src-main/log/createLogger';
import { Indexer } from '../src-main/services/indexer/indexer';
import { IndexStore } from '../src-main/store/indexStore';
import { openDatabase } from '../src-main/store/openDatabase';
import { dumpIndex } from './support/indexDump';
import { bnbLaunchTokens, type OverPublicRpc, overPublicRpc, produceBlocks } from './support/overPublicRpc';

/*
 * The indexer by itself over load-balanced nodes up to two blocks behind, through a plain client (no pinning of reads
 * to the highest head): a lower head, a missing header or "block range extends beyond current head block" is a node
 * behind, asked again quietly, never a reorganization nor a range too wide.
 */
let env: OverPublicRpc;
let tokens: Address[];

beforeAll(async () => {
  env = await overPublicRpc({ seed: true });
  tokens = await bnbLaunchTokens(env);
}, 120_000);
afterAll(async () => {
  await env?.dispose();
});

async function buyOnDevnet(account: TestAccount, token: Address): Promise<void> {
  const answer = await fetch(`${env.devnet.url}/build/buy`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wallet: account.address, token, amount: '0.01' }),
  });
  const { tx } = (await answer.json()) as { tx: { to: Address; data: Hex; value: string; gas: string } };
  const wallet = createWalletClient({
    account: privateKeyToAccount(account.privateKey as Hex),
    chain: devnetChain,
    transport: http(`${env.devnet.origin}/rpc`),
  });
  await wallet.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value), gas: BigInt(tx.gas) });
}

/** Rows of an index at or below `block`. */
function eventsUpTo(file: string, block: number) {
  const { cursor, ...events } = dumpIndex(file);
  return Object.fromEntries(
    Object.entries(events).map(([table, rows]) => [
      table,
      rows.filter((row) => (row as { block: number }).block <= block),
    ]),
  );
}

describe.each(['rotation', 'random'] as const)('the indexer over nodes behind, assigned in %s', (assign) => {
  it('follows with 0 confirmations without a rollback, a halved range or a line in the log', async () => {
    env.rpc.set({ lag: 2, assign, maxLogRange: 100 });
    const dir = mkdtempSync(join(tmpdir(), 'companion-indexer-behind-'));
    const file = join(dir, 'index.sqlite');
    const db = openDatabase(file);
    const lines: string[] = [];
    const client = createPublicClient({
      chain: devnetChain,
      transport: http(env.rpc.url, { batch: { batchSize: 50, wait: 0 }, retryCount: 0 }),
    }) as PublicClient;
    const { factory, router, referrals } = env.devnet.chain.addresses;
    const indexer = new Indexer(
      {
        client,
        chainId: devnetChain.id,
        deployBlock: 0n,
        consistentRead: (work) => work(),
        // The indexer's own record of the heads its nodes reported, with no poll feeding it.
        heads: new HeadTracker(),
        addresses: { factory, router, referrals },
      },
      new IndexStore(db),
      { confirmations: 0, maxRange: 50, pollMs: 200, log: lineLogger((line) => lines.push(line)) },
    );
    const trader = testAccounts()[assign === 'rotation' ? 12 : 13] as TestAccount;
    try {
      indexer.start();
      const producer = produceBlocks(env.devnet, 250);
      try {
        for (const token of [...tokens, ...tokens, ...tokens]) {
          await buyOnDevnet(trader, token);
          await new Promise((resolve) => setTimeout(resolve, 700));
        }
      } finally {
        await producer.stop();
      }
      const head = Number(await env.devnet.chain.client.getBlockNumber({ cacheTime: 0 }));
      // A client that only ever asks the node that lines up behind can know no newer head than that node's.
      const reachable = assign === 'random' ? head : head - 2;
      await vi.waitFor(() => expect(indexer.indexedBlock()).toBeGreaterThanOrEqual(reachable), {
        timeout: 30_000,
        interval: 100,
      });
      const status = indexer.status();
      expect(status.reorgs).toBe(0);
      expect(status.range).toBe(50);
      expect(lines.filter((line) => !/backfill|caught up|answers no finalized/.test(line))).toEqual([]);
      await env.devnet.indexer.waitFor(head);
      const at = indexer.indexedBlock();
      expect(eventsUpTo(file, at)).toEqual(eventsUpTo(join(env.devnet.dataDir, 'app.sqlite'), at));
      expect(env.rpc.counts.refused.get('eth_getLogs') ?? 0).toBeGreaterThan(0);
    } finally {
      await indexer.stop();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
