import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Address,
  createPublicClient,
  custom,
  getAddress,
  type Hash,
  type Hex,
  type PublicClient,
  parseEther,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { devnetChain } from '../src-main/chain/networks';
import { Indexer } from '../src-main/services/indexer/indexer';
import { IndexStore } from '../src-main/store/indexStore';
import { MIGRATIONS } from '../src-main/store/migrations';
import { openDatabase } from '../src-main/store/openDatabase';
import { dumpIndex } from './support/indexDump';
import { type ServiceDrivers, serviceDrivers } from './support/serviceDrivers';
import { startTestService, type TestService } from './support/startTestService';

let service: TestService;
let s: ServiceDrivers;

beforeAll(async () => {
  service = await startTestService();
  s = await serviceDrivers(service);
});
afterAll(async () => {
  await service?.dispose();
});

interface Launched {
  token: Address;
  pool: Address;
  creator: Address;
  block: number;
  hash: Hash;
  name: string;
  symbol: string;
}

let count = 0;
/** Launches a token through /rpc, as a wallet would, and returns what the list should show for it. */
async function launch(creator = 2): Promise<Launched> {
  const n = ++count;
  const name = `Indexed ${n}`;
  const symbol = `IDX${n}`;
  const result = await s.launcher.launch({ creator, saltSeed: `indexer-${n}`, name, symbol });
  if (result.result !== 'ok' || !result.hash || !result.pool) throw new Error(`launch failed: ${result.result}`);
  const receipt = await s.api.client.getTransactionReceipt({ hash: result.hash });
  return {
    token: result.token,
    pool: result.pool,
    creator: result.creator.address,
    block: Number(receipt.blockNumber),
    hash: result.hash,
    name,
    symbol,
  };
}

/** Waits until the indexer has every event up to the chain's head. */
async function indexed(): Promise<void> {
  await service.indexer.waitFor(await s.api.client.getBlockNumber({ cacheTime: 0 }));
}

const tokens = (body: { launches: { token: Address }[] }) => body.launches.map((l) => l.token);

/** Runs `work` with a database file of its own (the service's stays untouched), removed afterwards. */
async function withFreshIndex<T>(work: (file: string, store: IndexStore) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'companion-index-'));
  const file = join(dir, 'app.sqlite');
  const db = openDatabase(file);
  try {
    return await work(file, new IndexStore(db));
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A client of the service's devnet whose requests meet `misbehave` first: it answers, throws, or returns PASS. */
const PASS = Symbol('pass');
function devnetClient(misbehave: (args: { method: string; params?: unknown }) => unknown): PublicClient {
  const devnet = service.chain.devnet;
  if (!devnet) throw new Error('needs the devnet');
  return createPublicClient({
    chain: devnetChain,
    transport: custom({
      request: async (args: { method: string; params?: unknown }) => {
        const answer = misbehave(args);
        return answer === PASS ? devnet.provider.request(args as never) : answer;
      },
    }),
  }) as PublicClient;
}

describe('GET /launches', () => {
  let a: Launched;
  let b: Launched;
  let c: Launched;

  beforeAll(async () => {
    a = await launch(2);
    b = await launch(3);
    c = await launch(2);
    await indexed();
  });

  it('lists the newest first, every field of the list item from the launch itself', async () => {
    const page = await s.api.get('/launches');
    expect(page.status).toBe(200);
    expect(tokens(page.body)).toEqual([c.token, b.token, a.token]);
    expect(page.body.next).toBe(c.block);
    const block = await s.api.client.getBlock({ blockNumber: BigInt(c.block) });
    expect(page.body.launches[0]).toEqual({
      token: c.token,
      symbol: c.symbol,
      name: c.name,
      creator: c.creator,
      pool: c.pool,
      pair: getAddress(s.contracts.wbnb as Address),
      feeTier: 10000,
      // The launcher's metadataURI is not a stored CID: no logo is found for it.
      image: null,
      launchedAt: new Date(Number(block.timestamp) * 1000).toISOString(),
      tx: c.hash,
      block: c.block,
    });
    expect(tokens((await s.api.get('/launches?limit=1')).body)).toEqual([c.token]);
  });

  it('with after, lists everything since that block oldest first, and next leads on without a skip or a repeat', async () => {
    const first = await s.api.get('/launches?after=0&limit=2');
    expect(tokens(first.body)).toEqual([a.token, b.token]);
    expect(first.body.next).toBe(b.block);
    const second = await s.api.get(`/launches?after=${first.body.next}&limit=2`);
    expect(tokens(second.body)).toEqual([c.token]);
    expect(second.body.next).toBe(c.block);
    const nothing = await s.api.get(`/launches?after=${second.body.next}`);
    expect(nothing.body).toEqual({ launches: [], next: null });
  });

  it('gives a poller every launch once, in order, when launches land between its polls', async () => {
    let after = (await s.api.get('/launches')).body.next as number;
    const seen: Address[] = [];
    const made: Address[] = [];
    const poll = async () => {
      // Drain like a bot: page until the answer is empty, keeping the cursor when it is.
      for (;;) {
        const page = await s.api.get(`/launches?after=${after}&limit=2`);
        expect(page.status).toBe(200);
        if (page.body.next === null) return;
        seen.push(...tokens(page.body));
        after = page.body.next;
      }
    };
    for (const burst of [1, 3, 0, 2, 1]) {
      // Launches land while the indexer follows, some before and some after the poll reads.
      const landing = (async () => {
        for (let i = 0; i < burst; i++) made.push((await launch(2 + (i % 3))).token);
      })();
      await poll();
      await landing;
    }
    await indexed();
    await poll();
    expect(seen).toEqual(made);
  });

  it('answers INVALID_CURSOR for an after that is not a block number, and names limit when it is out of range', async () => {
    for (const after of ['abc', '-1', '1.5', '1e3', '', '0x10', '1234567890123456']) {
      const answer = await s.api.get(`/launches?after=${encodeURIComponent(after)}`);
      expect(answer.status, after).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'INVALID_CURSOR', field: 'after' });
      expect(answer.body.error.fix).toBeTruthy();
    }
    for (const limit of ['0', '201', 'abc', '1.5', '-3', '']) {
      const answer = await s.api.get(`/launches?limit=${encodeURIComponent(limit)}`);
      expect(answer.status, limit).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'INVALID_BODY', field: 'limit' });
    }
    expect((await s.api.get('/launches?limit=200')).status).toBe(200);
  });
});

describe('GET /tokens from the index', () => {
  it('answers an indexed token without asking the factory', async () => {
    const token = await launch(4);
    await indexed();
    const reads = vi.spyOn(service.chain.client, 'readContract');
    const answer = await s.api.get(`/tokens/${token.token}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ address: token.token, pool: token.pool, creator: token.creator, fee: 10000 });
    expect(reads.mock.calls.filter(([call]) => call.functionName === 'launchOf')).toEqual([]);
    reads.mockRestore();
  });
});

describe('status', () => {
  it('reports how far the indexer got and what it stored', async () => {
    await indexed();
    const head = Number(await s.api.client.getBlockNumber({ cacheTime: 0 }));
    const status = await s.api.get('/status');
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ network: 'devnet', chainId: 31337 });
    expect(status.body.indexer).toMatchObject({
      state: 'following',
      fromBlock: 0,
      indexedBlock: head,
      chainHead: head,
      confirmations: 0,
      blocksLeft: 0,
      lastError: null,
    });
    expect(status.body.indexer.stored.launches).toBe(count);
  });
});

describe('a reorganized chain', () => {
  it('leaves exactly the rows of the surviving chain: the orphaned launch, trade and binding are gone', async () => {
    const provider = service.chain.devnet?.provider;
    if (!provider) throw new Error('needs the devnet');
    await indexed();
    const snapshot = await provider.request({ method: 'evm_snapshot', params: [] } as never);
    const orphan = await launch(5);
    const bought = await s.driver.trade(
      6,
      'buyExactIn',
      {
        ...s.driver.params(
          { token: orphan.token, pair: s.contracts.wbnb as Address, pool: orphan.pool },
          parseEther('1'),
          0n,
        ),
        referrer: orphan.creator,
      },
      parseEther('1'),
    );
    expect(bought.result).toBe('ok');
    await indexed();
    const db = join(service.dataDir, 'app.sqlite');
    const before = dumpIndex(db);
    expect(before.launches?.some((row: any) => row.token === orphan.token)).toBe(true);
    expect(before.bindings?.some((row: any) => row.referrer === orphan.creator)).toBe(true);
    const reorgs = service.indexer.status().reorgs;

    await provider.request({ method: 'evm_revert', params: [snapshot] } as never);
    const survivor = await launch(7);
    await vi.waitFor(
      async () => {
        expect(tokens((await s.api.get('/launches?limit=1')).body)).toEqual([survivor.token]);
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(service.indexer.status().reorgs).toBeGreaterThan(reorgs);

    // The same rows as an index of the surviving chain made from scratch.
    await withFreshIndex(async (file, store) => {
      await new Indexer(service.chain, store, { confirmations: 0 }).catchUpOnce();
      const after = dumpIndex(db);
      expect(after.launches?.some((row: any) => row.token === orphan.token)).toBe(false);
      expect(after.trades?.some((row: any) => row.token === orphan.token)).toBe(false);
      expect(after.bindings?.some((row: any) => row.referrer === orphan.creator)).toBe(false);
      expect(after).toEqual(dumpIndex(file));
    });
  });
});

describe('an RPC that refuses wide block ranges', () => {
  it('halves the eth_getLogs range until it is accepted, and ends with the same rows', async () => {
    let refused = 0;
    const narrow = devnetClient((args) => {
      if (args.method !== 'eth_getLogs') return PASS;
      const [filter] = args.params as [{ fromBlock: Hex; toBlock: Hex }];
      if (Number(filter.toBlock) - Number(filter.fromBlock) + 1 <= 3) return PASS;
      refused++;
      throw new Error('query returned more than 10000 results; block range too large');
    });
    await withFreshIndex(async (file, store) => {
      const indexer = new Indexer({ ...service.chain, client: narrow }, store, { confirmations: 0 });
      await indexer.catchUpOnce();
      expect(refused).toBeGreaterThan(0);
      expect(indexer.status().range).toBeLessThanOrEqual(3);
      const served = dumpIndex(join(service.dataDir, 'app.sqlite'));
      const narrowed = dumpIndex(file);
      expect(narrowed.launches).toEqual(served.launches);
      expect(narrowed.trades).toEqual(served.trades);
    });
  });
});

describe('an RPC that answers no blocks', () => {
  it('is taken for a failure, not a reorganization: nothing indexed is thrown away', async () => {
    await withFreshIndex(async (_file, store) => {
      await new Indexer(service.chain, store, { confirmations: 0 }).catchUpOnce();
      const stored = store.counts();
      expect(stored.launches).toBeGreaterThan(0);
      const blind = devnetClient((args) => (args.method === 'eth_getBlockByNumber' ? null : PASS));
      const indexer = new Indexer({ ...service.chain, client: blind }, store, { confirmations: 0 });
      await expect(indexer.catchUpOnce()).rejects.toThrow(/no block/);
      expect(store.counts()).toEqual(stored);
    });
  });
});

describe('confirmations', () => {
  it('serves a launch only once its block has the configured confirmations', async () => {
    const confirming = await startTestService(undefined, { confirmations: 2 });
    try {
      const c = await serviceDrivers(confirming);
      const launched = await c.launcher.launch({ creator: 9, saltSeed: 'confirm', name: 'Confirm Me', symbol: 'CONF' });
      expect(launched.result).toBe('ok');
      const head = await c.api.client.getBlockNumber({ cacheTime: 0 });
      await confirming.indexer.waitFor(head - 2n);
      expect((await c.api.get('/launches')).body.launches).toEqual([]);
      await c.api.client.request({ method: 'evm_mine' } as never);
      await confirming.indexer.waitFor(head - 1n);
      expect((await c.api.get('/launches')).body.launches).toEqual([]);
      await c.api.client.request({ method: 'evm_mine' } as never);
      await confirming.indexer.waitFor(head);
      expect(tokens((await c.api.get('/launches')).body)).toEqual([launched.token]);
      expect((await c.api.get('/status')).body.indexer).toMatchObject({ confirmations: 2, indexedBlock: Number(head) });
    } finally {
      await confirming.dispose();
    }
  });
});

describe('an older database', () => {
  it('opens a data directory written before the indexer existed, migrates it and indexes the chain', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'companion-old-'));
    const old = openDatabase(join(dir, 'app.sqlite'), MIGRATIONS.slice(0, 1));
    expect(old.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'launches'").pluck().get()).toBe(0);
    old.close();
    const upgraded = await startTestService(dir, { seed: true });
    try {
      await upgraded.seeded;
      const upgradedApi = await serviceDrivers(upgraded);
      await upgraded.indexer.waitFor(await upgradedApi.api.client.getBlockNumber({ cacheTime: 0 }));
      const page = await upgradedApi.api.get('/launches');
      expect(page.body.launches).toHaveLength(4);
      // The seed's launches were made through the API with uploaded logos: each list item links to its image.
      await vi.waitFor(
        async () => {
          const images = (await upgradedApi.api.get('/launches')).body.launches.map((l: { image: string }) => l.image);
          expect(images.every((image: string | null) => image?.startsWith(`${upgraded.origin}/media/`))).toBe(true);
        },
        { timeout: 10_000, interval: 50 },
      );
      const first = (await upgradedApi.api.get('/launches')).body.launches[0].image as string;
      const image = await fetch(first);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toMatch(/^image\//);
    } finally {
      await upgraded.dispose();
    }
  });
});

describe('a token the indexer has not reached', () => {
  it('is still answered from the chain, and listed once indexed', async () => {
    await service.indexer.stop();
    const late = await launch(8);
    const answer = await s.api.get(`/tokens/${late.token}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ address: late.token, pool: late.pool, creator: late.creator });
    expect(tokens((await s.api.get('/launches?limit=1')).body)).not.toContain(late.token);
    const unknown = await s.api.get(`/tokens/${s.contracts.wbnb}`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('UNKNOWN_TOKEN');
  });
});
