import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_POLL_MS, MIN_POLL_MS } from '../src-main/chain/headTracker';
import { type OverPublicRpc, overPublicRpc, produceBlocks } from './support/overPublicRpc';
import type { TestService } from './support/startTestService';

/* Keeping up with BSC's blocks over a public RPC: new blocks noticed within about one block time, and "confirmed". */
let env: OverPublicRpc;

beforeAll(async () => {
  env = await overPublicRpc();
}, 60_000);
afterEach(async () => {
  await env.disposeServices();
});
afterAll(async () => {
  await env?.dispose();
});

interface Status {
  chain: { newBlocks: string; head: number | null; blockTimeMs: number | null; pollMs: number | null };
  indexer: {
    indexedBlock: number;
    confirmations: number;
    confirmation: { by: 'finalized' | 'blocks'; finalizedBlock: number | null; confirmedBlock: number | null };
  };
}
const statusOf = async (service: TestService) => (await (await fetch(`${service.url}/status`)).json()) as Status;
const devnetHead = async () => Number(await env.devnet.chain.client.getBlockNumber({ cacheTime: 0 }));

describe('new blocks over a public RPC', () => {
  it('are polled for about once per measured block time, and every block is seen, at 0.75 s blocks', async () => {
    env.rpc.set({});
    const service = await env.serviceOverRpc();
    const seen: { block: number; madeHead: number }[] = [];
    const producer = produceBlocks(env.devnet, 750);
    const stopSeeing = service.chain.onBlock((block) =>
      seen.push({ block: Number(block), madeHead: producer.state.head }),
    );
    try {
      // Long enough for the arrivals to replace the timestamps' first estimate (the devnet's are a second apart).
      await new Promise((resolve) => setTimeout(resolve, 12_000));
    } finally {
      await producer.stop();
      stopSeeing();
    }
    const { chain } = await statusOf(service);
    expect(chain.newBlocks).toBe('poll');
    expect(chain.blockTimeMs).toBeGreaterThan(600);
    expect(chain.blockTimeMs).toBeLessThan(900);
    expect(chain.pollMs).toBeGreaterThanOrEqual(MIN_POLL_MS);
    expect(chain.pollMs).toBeLessThanOrEqual(900);
    // Every block announced once, in order, from the first the service saw to the last made.
    const blocks = seen.map((s) => s.block);
    const first = blocks[0] as number;
    const last = producer.state.made.at(-1)?.block as number;
    await vi.waitFor(() => expect(blocks.at(-1)).toBe(last), { timeout: 5_000, interval: 50 });
    expect(blocks).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
    // Noticed before the block after next was made, in the main: within about one block time.
    const late = seen.filter((s) => s.madeHead - s.block > 1).length;
    expect(late).toBeLessThanOrEqual(Math.floor(seen.length / 4));
  }, 60_000);

  it('are polled less often once the chain makes none, never slower than the old fixed 3 s', async () => {
    env.rpc.set({});
    const service = await env.serviceOverRpc();
    const producer = produceBlocks(env.devnet, 750);
    try {
      await vi.waitFor(async () => expect((await statusOf(service)).chain.pollMs).toBeLessThan(1_000), {
        timeout: 15_000,
        interval: 250,
      });
    } finally {
      await producer.stop();
    }
    await vi.waitFor(async () => expect((await statusOf(service)).chain.pollMs).toBe(MAX_POLL_MS), {
      timeout: 20_000,
      interval: 250,
    });
  }, 45_000);
});

describe('confirmed blocks', () => {
  it("are the node's finalized blocks where it answers that tag (BSC's fast finality)", async () => {
    env.rpc.set({ finalized: 2 });
    const lines: string[] = [];
    const service = await env.serviceOverRpc(lines, { confirmations: 3 });
    const head = await devnetHead();
    await vi.waitFor(async () => expect((await statusOf(service)).indexer.indexedBlock).toBe(head - 2), {
      timeout: 20_000,
      interval: 100,
    });
    const { indexer } = await statusOf(service);
    expect(indexer.confirmation).toEqual({ by: 'finalized', finalizedBlock: head - 2, confirmedBlock: head - 2 });
    expect(lines.some((line) => /finalized/.test(line))).toBe(false);
  }, 30_000);

  it('take the highest finalized block any node answered, over nodes behind', async () => {
    env.rpc.set({ finalized: 2, lag: 2, assign: 'random' });
    const service = await env.serviceOverRpc([], { confirmations: 3 });
    const producer = produceBlocks(env.devnet, 500);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await producer.stop();
    const head = await devnetHead();
    await vi.waitFor(async () => expect((await statusOf(service)).indexer.indexedBlock).toBe(head - 2), {
      timeout: 20_000,
      interval: 100,
    });
    expect((await statusOf(service)).indexer.confirmation.by).toBe('finalized');
  }, 30_000);

  it('fall back to the block count where the node answers no finalized block, saying so once', async () => {
    env.rpc.set({});
    const lines: string[] = [];
    const service = await env.serviceOverRpc(lines, { confirmations: 3 });
    const head = await devnetHead();
    await vi.waitFor(async () => expect((await statusOf(service)).indexer.indexedBlock).toBe(head - 3), {
      timeout: 20_000,
      interval: 100,
    });
    const { indexer } = await statusOf(service);
    expect(indexer.confirmation).toEqual({ by: 'blocks', finalizedBlock: null, confirmedBlock: head - 3 });
    expect(lines.filter((line) => /answers no finalized block/.test(line))).toHaveLength(1);
  }, 30_000);

  it('stay every block at once on the devnet', async () => {
    const { indexer, chain } = await statusOf(env.devnet);
    expect(chain).toEqual({
      newBlocks: 'devnet',
      head: null,
      blockTimeMs: null,
      pollMs: null,
      devnet: { blockTimeMs: 0, clock: expect.any(Number), clockOffset: 0, pending: 0 },
    });
    expect(indexer.confirmations).toBe(0);
    expect(indexer.confirmation.by).toBe('blocks');
    expect(indexer.confirmation.finalizedBlock).toBeNull();
  });
});
