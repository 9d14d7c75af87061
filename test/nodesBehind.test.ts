import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Address, createWalletClient, type Hex, http, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChainContext } from '../src-main/chain/connectChain';
import { type TestAccount, testAccounts } from '../src-main/chain/devnet/testAccounts';
import { devnetChain } from '../src-main/chain/networks';
import { rpcClient } from '../src-main/chain/rpcClient';
import { composeAppChannel } from '../src-main/composeAppChannel';
import { silentLogger } from '../src-main/log/createLogger';
import { BuiltApprovals } from '../src-main/services/builtApprovals';
import { DollarPrices } from '../src-main/services/dollarPrices';
import { PoolStateService } from '../src-main/services/poolStateService';
import { QuoteService } from '../src-main/services/quoteService';
import { SettingsService } from '../src-main/services/settingsService';
import { serviceSigningReads } from '../src-main/services/signingPolicy';
import { TokenRegistry } from '../src-main/services/tokenRegistry';
import { passphraseCipher } from '../src-main/signer/localKey/keyCipher';
import { openDatabase } from '../src-main/store/openDatabase';
import type { UnsignedTx } from '../src-shared/schema/unsignedTx';
import { dumpIndex } from './support/indexDump';
import { bnbLaunchTokens, type OverPublicRpc, overPublicRpc, produceBlocks } from './support/overPublicRpc';
import { serviceDrivers } from './support/serviceDrivers';
import type { TestService } from './support/startTestService';

/*
 * The service over load-balanced public nodes up to two blocks behind the chain's head (the stand-in's `lag`), each
 * request landing on a node in strict rotation (the worst case: one client's periodic request can line up with the
 * same node every time) or at random.
 */
let env: OverPublicRpc;
let tokens: Address[];

beforeAll(async () => {
  env = await overPublicRpc({ seed: true });
  tokens = await bnbLaunchTokens(env);
  expect(tokens.length).toBeGreaterThanOrEqual(2);
}, 120_000);
afterEach(async () => {
  await env.disposeServices();
});
afterAll(async () => {
  await env?.dispose();
});

interface Status {
  chain: { head: number | null };
  indexer: {
    indexedBlock: number;
    reorgs: number;
    range: number;
    lastError: { message: string } | null;
  };
}
const statusOf = async (service: TestService) => (await (await fetch(`${service.url}/status`)).json()) as Status;
const devnetHead = async () => Number(await env.devnet.chain.client.getBlockNumber({ cacheTime: 0 }));
const json = async <T>(response: Promise<Response>) => {
  const answer = await response;
  return { status: answer.status, body: (await answer.json()) as T };
};
const post = (service: TestService, path: string, body: unknown) =>
  fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** Signs a built transaction with a test key and sends it to the devnet itself; answers its block. */
async function sendOnDevnet(account: TestAccount, tx: UnsignedTx): Promise<number> {
  const wallet = createWalletClient({
    account: privateKeyToAccount(account.privateKey as Hex),
    chain: devnetChain,
    transport: http(`${env.devnet.origin}/rpc`),
  });
  const hash = await wallet.sendTransaction({
    to: tx.to,
    data: tx.data,
    value: BigInt(tx.value),
    ...(tx.gas ? { gas: BigInt(tx.gas) } : {}),
  });
  const receipt = await env.devnet.chain.client.getTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return Number(receipt.blockNumber);
}

/** Buys on the devnet, built by the devnet's own service; answers the trade's block. */
async function buyOnDevnet(account: TestAccount, token: Address, amount: string): Promise<number> {
  const { body } = await json<{ tx: UnsignedTx }>(
    post(env.devnet, '/build/buy', { wallet: account.address, token, amount }),
  );
  return sendOnDevnet(account, body.tx);
}

/** What the service has seen of the chain reaches `block` (a read before that may rightly answer an older block). */
async function seen(service: TestService, block: number): Promise<void> {
  await vi.waitFor(async () => expect((await statusOf(service)).chain.head).toBeGreaterThanOrEqual(block), {
    timeout: 20_000,
    interval: 50,
  });
}

/** The event tables, for comparing two indexes of the same chain. */
function eventsOf(service: TestService) {
  const { cursor, ...events } = dumpIndex(join(service.dataDir, 'app.sqlite'));
  return events;
}

describe.each(['rotation', 'random'] as const)('over nodes up to two blocks behind, assigned in %s', (assign) => {
  const user = testAccounts()[assign === 'rotation' ? 5 : 6] as TestAccount;

  it('indexes to the head itself with 0 confirmations while blocks come, and never rolls back for a node behind', async () => {
    env.rpc.set({ lag: 2, assign, maxLogRange: 100 });
    const lines: string[] = [];
    const service = await env.serviceOverRpc(lines, { confirmations: 0, indexRange: 50 });
    const producer = produceBlocks(env.devnet, 300);
    try {
      for (const token of [...tokens, ...tokens].slice(0, 3)) {
        await buyOnDevnet(user, token, '0.01');
        await new Promise((resolve) => setTimeout(resolve, 400));
      }
    } finally {
      await producer.stop();
    }
    const head = await devnetHead();
    await vi.waitFor(async () => expect((await statusOf(service)).indexer.indexedBlock).toBe(head), {
      timeout: 30_000,
      interval: 100,
    });
    const { indexer } = await statusOf(service);
    expect(indexer.reorgs).toBe(0);
    // A node behind the asked range is not a range too wide: the range was never halved for it.
    expect(indexer.range).toBe(50);
    expect(indexer.lastError).toBeNull();
    expect(lines.filter((line) => /reorganized|trying again|behind|no block/.test(line))).toEqual([]);
    await env.devnet.indexer.waitFor(head);
    expect(eventsOf(service)).toEqual(eventsOf(env.devnet));
    // The nodes behind were met, and answered "not yet" to reads the service then asked again.
    expect(env.rpc.counts.refused.get('eth_getLogs') ?? 0).toBeGreaterThan(0);
  }, 90_000);

  it('serves the token page, quotes and simulated builds from the newest block seen, never from a node behind', async () => {
    env.rpc.set({ lag: 2, assign });
    // Three confirmations by block count (the stand-in answers no finalized block): a launch a moment old is not
    // indexed yet, so the token page reads it from the chain.
    const service = await env.serviceOverRpc([], { confirmations: 3 });
    const { launcher } = await serviceDrivers(env.devnet);
    const launched = await launcher.launch({ creator: 3, saltSeed: `behind-${assign}`, firstBuy: parseEther('0.1') });
    expect(launched.result).toBe('ok');
    const token = launched.token;
    const launchBlock = Number(
      (await env.devnet.chain.client.getTransactionReceipt({ hash: launched.hash as Hex })).blockNumber,
    );
    await seen(service, launchBlock);
    for (let i = 0; i < 6; i++) {
      const page = await json<{ pool: string; symbol: string }>(fetch(`${service.url}/tokens/${token}`));
      expect([page.status, page.body.pool]).toEqual([200, launched.pool]);
    }

    // A trade moves the price: once the service has seen its block, every quote is at the new price.
    const quotePath = `/quote?token=${token}&side=buy&amount=0.02`;
    const tradeBlock = await buyOnDevnet(user, token, '0.05');
    await seen(service, tradeBlock);
    const truth = await json<{ receive: { wei: string } }>(fetch(`${env.devnet.url}${quotePath}`));
    for (let i = 0; i < 6; i++) {
      const quote = await json<{ receive: { wei: string } }>(fetch(`${service.url}${quotePath}`));
      expect([quote.status, quote.body.receive.wei]).toEqual([200, truth.body.receive.wei]);
    }

    // Selling needs approvals; once they are mined and seen, every build is ready and its simulation runs.
    const sell = { wallet: user.address, token, amount: '1000' };
    const needed = await json<{ requires: { tx: UnsignedTx }[] }>(post(env.devnet, '/build/sell', sell));
    expect(needed.body.requires.length).toBeGreaterThan(0);
    let approved = 0;
    for (const step of needed.body.requires) approved = await sendOnDevnet(user, step.tx);
    await seen(service, approved);
    for (let i = 0; i < 6; i++) {
      const build = await json<{ requires: unknown[]; simulation: { ran: boolean; ok: boolean } }>(
        post(service, '/build/sell', sell),
      );
      expect([build.status, build.body.requires, build.body.simulation]).toEqual([200, [], { ran: true, ok: true }]);
    }
  }, 90_000);

  it("has the app's sender fill nonces and fees from the newest block, and follow receipts (briefly null) to the end", async () => {
    env.rpc.set({ lag: 2, assign });
    const dataDir = mkdtempSync(join(tmpdir(), 'companion-sender-'));
    const rpc = rpcClient(devnetChain, env.rpc.url);
    const db = openDatabase(join(dataDir, 'app.sqlite'));
    let producer: ReturnType<typeof produceBlocks> | undefined;
    try {
      // The app's channel over the stand-in, for the devnet's chain id (a service on "testnet" signs for 97).
      const chain: ChainContext = {
        network: 'testnet',
        chainId: devnetChain.id,
        client: rpc.client,
        addresses: env.devnet.chain.addresses,
        deployBlock: 0n,
        heads: rpc.heads,
        newBlocks: rpc.newBlocks,
        onBlock: rpc.onBlock,
        consistentRead: (work) => work(),
        close: async () => rpc.close(),
      };
      const prices = new DollarPrices(chain);
      const channel = composeAppChannel(chain, db, {
        dataDir,
        builtApprovals: new BuiltApprovals(),
        prices,
        signingReads: serviceSigningReads(
          chain,
          new QuoteService(new PoolStateService(chain), new SettingsService(chain), prices),
          new TokenRegistry(chain),
        ),
        info: {
          rpcUrl: env.rpc.url,
          rateLimits: false,
          thirdPartyFetches: false,
          thirdPartyFetchesChosen: true,
          publicLinkBase: 'launchpad-companion://app',
          settingsFile: null,
        },
        keyCipher: passphraseCipher({ n: 2 ** 12, r: 8, p: 1 }),
        log: silentLogger(),
      });
      const sender = testAccounts()[assign === 'rotation' ? 8 : 9] as TestAccount;
      await channel.invoke('signer.importKey', { privateKey: sender.privateKey, passphrase: 'correct horse battery' });
      const first = await env.devnet.chain.client.getTransactionCount({ address: sender.address });
      const hashes: Hex[] = [];
      const buy = async (token: Address) => {
        const { body } = await json<{ tx: UnsignedTx; explain: string }>(
          post(env.devnet, '/build/buy', { wallet: sender.address, token, amount: '0.01' }),
        );
        const prepared = (await channel.invoke('tx.prepare', { tx: body.tx })) as { id: string };
        const sent = (await channel.invoke('tx.send', {
          tx: body.tx,
          prepared: prepared.id,
          step: 'main',
          kind: 'buy',
          title: body.explain,
        })) as { id: string; hash: Hex };
        const settled = (await channel.invoke('tx.wait', { id: sent.id })) as { status: string; block: number };
        expect(settled.status).toBe('confirmed');
        hashes.push(sent.hash);
      };
      // Each sent as soon as the last is confirmed, no other block in between: the next nonce must count the last
      // transaction, though the node asked may be a block or two behind the one that mined it.
      for (const token of [...tokens, ...tokens].slice(0, 4)) await buy(token);
      // Receipts answered null a while after mining; as on BSC, blocks keep coming, and at each the receipt is looked
      // for again.
      env.rpc.set({ lag: 2, assign, nullReceipts: 2 });
      producer = produceBlocks(env.devnet, 750);
      for (const token of tokens.slice(0, 2)) await buy(token);
      const mined = await Promise.all(hashes.map((hash) => env.devnet.chain.client.getTransaction({ hash })));
      expect(mined.map((tx) => tx.nonce)).toEqual(hashes.map((_, i) => first + i));
      // Never below what the node reports as needed.
      const tip = BigInt(await env.devnet.chain.client.request({ method: 'eth_maxPriorityFeePerGas' }));
      for (const tx of mined) expect(tx.maxPriorityFeePerGas).toBeGreaterThanOrEqual(tip);
    } finally {
      await producer?.stop();
      rpc.close();
      db.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
