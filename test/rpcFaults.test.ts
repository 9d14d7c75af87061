import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { faultyRpc } from './support/faultyRpc';
import { startTestService, type TestService } from './support/startTestService';
import { testnetDeployments } from './support/testnetDeployments';
import { FIXTURE_TRADER, startTradingFixture, type TradingFixture } from './support/tradingFixture';

/*
 * A service that reads its chain over an RPC URL (as on testnet and mainnet), pointed at a devnet through a proxy that
 * fails on command. The devnet's contracts stand in for the published exchange through the deployment record.
 */
let f: TradingFixture;
let rpc: Awaited<ReturnType<typeof faultyRpc>>;
let deployments: string;
const started: TestService[] = [];
const WALLET = testAccounts()[13]?.address as string;

beforeAll(async () => {
  f = await startTradingFixture();
  rpc = await faultyRpc(`${f.service.origin}/rpc`);
  const a = f.service.chain.addresses;
  deployments = testnetDeployments(a);
});
afterAll(async () => {
  for (const service of started) await service.dispose();
  await rpc?.close();
  await f?.service.dispose();
});

async function serviceOverRpc(options: { rpcTimeoutMs?: number } = {}): Promise<TestService> {
  const service = await startTestService(undefined, {
    network: 'testnet',
    rpcUrl: rpc.url,
    deploymentsDir: deployments,
    rateLimits: false,
    confirmations: 0,
    ...options,
  });
  started.push(service);
  return service;
}

const buy = (service: TestService) =>
  fetch(`${service.url}/build/buy`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wallet: WALLET, token: f.bnbToken.token, amount: '0.1' }),
  });
const quote = (service: TestService) => fetch(`${service.url}/quote?token=${f.bnbToken.token}&side=buy&amount=0.1`);
const codeOf = async (answer: Response) => ((await answer.json()) as { error?: { code: string } }).error?.code;
const indexedBlockOf = async (service: TestService) =>
  ((await (await fetch(`${service.url}/status`)).json()) as { indexer: { indexedBlock: number } }).indexer.indexedBlock;
const listedTokens = async (service: TestService) =>
  ((await (await fetch(`${service.url}/launches?limit=200`)).json()) as { launches: { token: string }[] }).launches
    .map((l) => l.token)
    .sort();

/** Waits until the service lists exactly the launches the devnet's own service lists: each once, none missing. */
async function expectEveryLaunchListed(service: TestService, timeout: number): Promise<void> {
  const expected = await listedTokens(f.service);
  await vi.waitFor(async () => expect(await listedTokens(service)).toEqual(expected), { timeout, interval: 250 });
}

describe('an RPC that fails during builds and quotes', () => {
  it('answers CHAIN_UNREACHABLE while the RPC is down, slow or answers garbage, and recovers on its own when it is back', async () => {
    rpc.set('ok');
    // A timeout shorter than the proxy's slow answers, so a slow RPC is a failed request within the test's time.
    const service = await serviceOverRpc({ rpcTimeoutMs: 1000 });
    expect((await buy(service)).status).toBe(200);
    expect((await quote(service)).status).toBe(200);

    for (const fault of ['down', 'garbage', 'slow'] as const) {
      rpc.set(fault);
      const built = await buy(service);
      expect([built.status, await codeOf(built)], fault).toEqual([503, 'CHAIN_UNREACHABLE']);
      // A quote may still come from the pool state already held; if it needs the chain, it says so the same way.
      const quoted = await quote(service);
      if (quoted.status !== 200)
        expect([quoted.status, await codeOf(quoted)], fault).toEqual([503, 'CHAIN_UNREACHABLE']);
      rpc.set('ok');
      await vi.waitFor(async () => expect((await buy(service)).status).toBe(200), { timeout: 15_000, interval: 250 });
      expect((await quote(service)).status).toBe(200);
    }
  });
});

describe('an RPC that fails during a quote that needs the chain', () => {
  /** A service over the proxy that has indexed the chain but read nothing of the USDT token's pool yet. */
  async function serviceThatHasNotQuoted(): Promise<TestService> {
    rpc.set('ok');
    const service = await serviceOverRpc({ rpcTimeoutMs: 1000 });
    const head = Number(await f.client.getBlockNumber());
    await vi.waitFor(async () => expect(await indexedBlockOf(service)).toBeGreaterThanOrEqual(head - 1), {
      timeout: 20_000,
      interval: 250,
    });
    return service;
  }
  const quoteOf = (service: TestService, token: string) =>
    fetch(`${service.url}/quote?token=${token}&side=sell&amount=1000`);
  // An address the factory never launched: only the chain can say so.
  const NOT_LAUNCHED = '0x00000000000000000000000000000000000a11ce';

  it.each(['down', 'garbage', 'slow'] as const)(
    'answers CHAIN_UNREACHABLE (%s), never a wrong token or a made-up price, and the true quote once the RPC is back',
    async (fault) => {
      const service = await serviceThatHasNotQuoted();
      rpc.set(fault);
      for (const path of [
        `/quote?token=${f.usdtToken.token}&side=sell&amount=1000`,
        `/quote?token=${NOT_LAUNCHED}&side=buy&amount=1`,
        `/tokens/${NOT_LAUNCHED}`,
      ]) {
        const answer = await fetch(`${service.url}${path}`);
        expect([answer.status, await codeOf(answer)], `${fault} ${path}`).toEqual([503, 'CHAIN_UNREACHABLE']);
      }
      rpc.set('ok');
      const truth = await (await quoteOf(f.service, f.usdtToken.token)).json();
      await vi.waitFor(async () => expect(await (await quoteOf(service, f.usdtToken.token)).json()).toEqual(truth), {
        timeout: 15_000,
        interval: 250,
      });
      const unknown = await fetch(`${service.url}/tokens/${NOT_LAUNCHED}`);
      expect([unknown.status, await codeOf(unknown)]).toEqual([400, 'UNKNOWN_TOKEN']);
    },
  );
});

describe('an RPC that fails when the service starts, before its backfill', () => {
  it.each(['down', 'garbage', 'slow'] as const)(
    'starts anyway (%s), says what it cannot read, and indexes every launch once the RPC is back',
    async (fault) => {
      rpc.set(fault);
      const service = await serviceOverRpc({ rpcTimeoutMs: 1000 });
      const settings = await fetch(`${service.url}/settings`);
      expect([settings.status, await codeOf(settings)]).toEqual([503, 'FEES_UNREADABLE']);
      const built = await buy(service);
      expect([built.status, await codeOf(built)]).toEqual([503, 'CHAIN_UNREACHABLE']);
      // The indexer's first try may still be waiting out a slow answer: it says so once that try has failed.
      await vi.waitFor(
        async () => {
          const status = (await (await fetch(`${service.url}/status`)).json()) as {
            indexer: { state: string; indexedBlock: number; lastError: { message: string } | null };
          };
          expect(status.indexer).toMatchObject({ state: 'retrying', indexedBlock: -1 });
          expect(status.indexer.lastError?.message).toBeTruthy();
        },
        { timeout: 10_000, interval: 250 },
      );

      rpc.set('ok');
      expect((await fetch(`${service.url}/settings`)).status).toBe(200);
      await expectEveryLaunchListed(service, 30_000);
      await vi.waitFor(async () => expect((await buy(service)).status).toBe(200), { timeout: 15_000, interval: 250 });
    },
  );
});

describe('an RPC that flaps during the indexer backfill', () => {
  it('indexes every launch of the chain, each once, while the RPC fails every other request, then catches up', async () => {
    rpc.set('flap');
    const service = await serviceOverRpc();
    await expectEveryLaunchListed(service, 60_000);
    // Still flapping, it follows new blocks: a pass that stored something is not a reason to pause longer and longer
    // (it once fell half a minute behind here, its pauses grown by failures that each came after progress).
    const traded = await f.driver.trade(
      FIXTURE_TRADER,
      'buyExactIn',
      f.driver.params(
        { token: f.bnbToken.token, pair: f.bnbToken.pair, pool: f.bnbToken.pool },
        parseEther('0.01'),
        0n,
      ),
      parseEther('0.01'),
    );
    expect(traded.result).toBe('ok');
    const tradeBlock = Number(await f.client.getBlockNumber());
    await vi.waitFor(async () => expect(await indexedBlockOf(service)).toBeGreaterThanOrEqual(tradeBlock), {
      timeout: 20_000,
      interval: 500,
    });
    // Once the RPC is steady again, it catches up with the head.
    rpc.set('ok');
    const head = Number(await f.client.getBlockNumber());
    await vi.waitFor(
      // Over HTTP the head is polled: the indexer may trail the block just made by the one it has not seen yet.
      async () => expect(await indexedBlockOf(service)).toBeGreaterThanOrEqual(head - 1),
      { timeout: 30_000, interval: 500 },
    );
  });
});
