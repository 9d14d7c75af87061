import { type Address, createWalletClient, type Hash, http, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Devnet } from '../src-main/chain/devnet/startDevnet';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { LaunchFactory } from '../src-main/chain/generated/contracts';
import { devnetChain } from '../src-main/chain/networks';
import { devnetTestClient } from './support/devnetTestClient';
import { type ServiceDrivers, serviceDrivers } from './support/serviceDrivers';
import { openSse, received as receivedWithin, type SseConnection, type SseEvent } from './support/sseReader';
import { startTestService, type TestService } from './support/startTestService';

/** Events of blocks made on a cadence take longer to come than on the instant devnet. */
const received = (connection: SseConnection, match: (event: SseEvent) => boolean) =>
  receivedWithin(connection, match, 20_000);

/*
 * GET /events' head events on a devnet that makes a block every 500 ms, with the 3 confirmations the service waits for
 * on BSC: a launch reaches the stream from the block at the head (`confirmed: false`, no id) while the index has not
 * confirmed it, a block event confirms it later without sending it again, `?confirmed=only` is the stream as it was,
 * a reorganization at the head (the devnet's EVM reverted under the cadence) is retracted, and one client may keep only
 * so many streams.
 */

const BLOCK_MS = 500;
/** The test account that buys launches at the head; the launches' creators are 2 to 4. */
const BUYER = 7;
const CONFIRMATIONS = 3;
const PER_CLIENT = 4;

let service: TestService;
let devnet: Devnet;
let s: ServiceDrivers;
const open: SseConnection[] = [];
/** The indexed block when each event was read off the wire. */
const indexedWhenHeard = new WeakMap<SseEvent, number>();

beforeAll(async () => {
  service = await startTestService(undefined, {
    blockTimeMs: BLOCK_MS,
    confirmations: CONFIRMATIONS,
    thirdPartyFetches: false,
    eventStream: { maxPerClient: PER_CLIENT },
  });
  if (!service.chain.devnet) throw new Error('needs the devnet');
  devnet = service.chain.devnet;
  s = await serviceDrivers(service);
});
afterAll(async () => {
  for (const connection of open) connection.close();
  await service?.dispose();
});

async function stream(query = '', headers: Record<string, string> = {}): Promise<SseConnection> {
  const connection = await openSse(`${service.url}/events${query}`, headers, (event) =>
    indexedWhenHeard.set(event, service.indexer.indexedBlock()),
  );
  open.push(connection);
  return connection;
}

/** Closes a stream and waits until the server has let it go. */
async function leave(connection: SseConnection): Promise<void> {
  const before = service.events.size;
  connection.close();
  await connection.ended;
  await vi.waitFor(() => expect(service.events.size).toBeLessThan(before), { timeout: 5_000, interval: 20 });
}

let count = 0;
/** Sends a launch through /rpc as a wallet would, and waits for the block that holds it. */
async function launch(firstBuy = 0n): Promise<{ token: Address; hash: Hash; block: number }> {
  const n = ++count;
  const planned = await s.launcher.plan({
    creator: 2 + (n % 3),
    saltSeed: `head-events-${n}`,
    name: `Head ${n}`,
    symbol: `HEAD${n}`,
    firstBuy,
  });
  const wallet = createWalletClient({
    account: planned.creator,
    chain: devnetChain,
    transport: http(`${service.origin}/rpc`),
  });
  const hash = await wallet.writeContract({
    address: s.contracts.factory as Address,
    abi: LaunchFactory.abi,
    functionName: 'launch',
    args: [planned.params],
    value: firstBuy,
  } as never);
  await devnet.included(hash);
  const receipt = await s.api.client.getTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return { token: planned.token, hash, block: Number(receipt.blockNumber) };
}

const data = (event: SseEvent) => JSON.parse(event.data);
const about = (token: Address) => (event: SseEvent) => data(event).token === token;
const atHead = (event: SseEvent) => data(event).confirmed === false;
const blockAtLeast = (block: number) => (event: SseEvent) => event.event === 'block' && data(event).block >= block;

describe('GET /events at the head, 500 ms blocks and 3 confirmations', () => {
  it('sends a launch and its first buy from the head block with confirmed: false, before the index has it, then confirms them with a block event without sending them again', async () => {
    const headStream = await stream();
    const confirmedOnly = await stream('?confirmed=only');
    await received(headStream, (event) => event.event === 'block');
    await received(confirmedOnly, (event) => event.event === 'block');

    const launched = await launch(parseEther('0.1'));
    const heard = await received(headStream, (event) => event.event === 'launch' && about(launched.token)(event));
    expect(atHead(heard)).toBe(true);
    // No id: EventSource's last id stays on the confirmed stream.
    expect(heard.id).toBeNull();
    expect(data(heard).block).toBe(launched.block);
    expect(data(heard).tx).toBe(launched.hash);
    expect(indexedWhenHeard.get(heard)).toBeLessThan(launched.block);
    const firstBuy = await received(headStream, (event) => event.event === 'trade' && about(launched.token)(event));
    expect(firstBuy.id).toBeNull();
    expect(data(firstBuy)).toMatchObject({ confirmed: false, firstBuy: true, side: 'buy', block: launched.block });

    // Confirmed: a block event at or above the launch's block, and the launch not sent a second time.
    const confirming = await received(headStream, blockAtLeast(launched.block));
    expect(headStream.events.indexOf(confirming)).toBeGreaterThan(headStream.events.indexOf(firstBuy));
    expect(confirming.id).toBe(String(data(confirming).block));
    const listed = (await s.api.get('/launches?limit=1')).body.launches[0];
    const { confirmed, ...item } = data(heard);
    expect(confirmed).toBe(false);
    expect(item).toEqual(listed);
    const trades = (await s.api.get(`/tokens/${launched.token}/trades`)).body.trades;
    const { confirmed: _, ...trade } = data(firstBuy);
    expect(trade).toEqual({ ...trades[0], token: launched.token });
    expect(headStream.events.filter(about(launched.token)).map((event) => event.event)).toEqual(['launch', 'trade']);

    // ?confirmed=only: the stream as it was, the launch only once the index has it, with its id and no flag.
    const confirmedLaunch = await received(confirmedOnly, (event) => event.event === 'launch');
    expect(data(confirmedLaunch)).toEqual(listed);
    expect(confirmedLaunch.id).toMatch(new RegExp(`^${launched.block}-\\d+$`));
    expect(indexedWhenHeard.get(confirmedLaunch)).toBeGreaterThanOrEqual(launched.block);
    await received(confirmedOnly, blockAtLeast(launched.block));
    expect(confirmedOnly.events.some(atHead)).toBe(false);
    expect(confirmedOnly.events.some((event) => event.event === 'retract')).toBe(false);
    await leave(headStream);
    await leave(confirmedOnly);
  });

  it('withdraws what a reorganization at the head dropped with a retract event, and goes on with the new chain', async () => {
    const headStream = await stream('?types=launch');
    const chain = devnetTestClient(devnet);
    const snapshot = await devnet.between(() => chain.snapshot());
    const orphan = await launch();
    const heard = await received(headStream, (event) => event.event === 'launch' && about(orphan.token)(event));
    expect(atHead(heard)).toBe(true);
    // Back to before the launch, well before its block could be confirmed: the head goes on from there without it.
    await devnet.between(() => chain.revert({ id: snapshot }));
    const retract = await received(headStream, (event) => event.event === 'retract');
    expect(headStream.events.indexOf(retract)).toBeGreaterThan(headStream.events.indexOf(heard));
    expect(data(retract)).toEqual({ block: expect.any(Number), reason: 'reorganized' });
    expect(data(retract).block).toBeLessThan(orphan.block);
    // Above the confirmed block: it takes no id, the confirmed stream was not touched.
    expect(data(retract).block).toBeGreaterThanOrEqual(indexedWhenHeard.get(retract) as number);
    expect(retract.id).toBeNull();

    // The new chain goes on: another launch comes at the head, and then confirmed, after the retraction.
    const survivor = await launch();
    const next = await received(headStream, (event) => event.event === 'launch' && about(survivor.token)(event));
    expect(headStream.events.indexOf(next)).toBeGreaterThan(headStream.events.indexOf(retract));
    expect(atHead(next)).toBe(true);
    await received(headStream, blockAtLeast(survivor.block));
    // The dropped launch was never confirmed on this stream, nor listed.
    const orphanEvents = headStream.events.filter(about(orphan.token));
    expect(
      orphanEvents.every(
        (event) => atHead(event) && headStream.events.indexOf(event) < headStream.events.indexOf(retract),
      ),
    ).toBe(true);
    const listed = (await s.api.get('/launches?limit=50')).body.launches.map((item: { token: Address }) => item.token);
    expect(listed).not.toContain(orphan.token);
    expect(listed).toContain(survivor.token);
    await leave(headStream);
  });

  it('starts a resumed stream with a retract event, then sends again what the client held at the head', async () => {
    const first = await stream('?types=launch,block');
    await received(first, (event) => event.event === 'block');
    const launched = await launch();
    const heard = await received(first, (event) => event.event === 'launch' && about(launched.token)(event));
    expect(atHead(heard)).toBe(true);
    const lastId = first.events.findLast(
      (event) => event.id !== null && first.events.indexOf(event) < first.events.indexOf(heard),
    )?.id;
    expect(lastId).toMatch(/^\d+$/);
    await leave(first);

    const resumed = await stream('?types=launch,block', { 'last-event-id': lastId as string });
    const opening = await received(resumed, () => true);
    expect(opening.event).toBe('retract');
    expect(opening.id).toBeNull();
    expect(data(opening)).toEqual({ block: Number(lastId), reason: 'resumed' });
    // The launch comes again: confirmed (with its id) if the index has it by now, else at the head.
    const again = await received(resumed, (event) => event.event === 'launch' && about(launched.token)(event));
    expect(data(again).block).toBe(launched.block);
    await leave(resumed);
  });

  it(`keeps at most ${PER_CLIENT} streams per client: one more is RATE_LIMITED with Retry-After and a fix, until one closes`, async () => {
    await vi.waitFor(() => expect(service.events.size).toBe(0), { timeout: 5_000, interval: 20 });
    const streams = [];
    for (let i = 0; i < PER_CLIENT; i++) {
      const connection = await stream('?types=block');
      expect(connection.response.status).toBe(200);
      streams.push(connection);
    }
    const refused = await fetch(`${service.url}/events?types=block`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = await refused.json();
    expect(body.error).toMatchObject({ code: 'RATE_LIMITED', fix: expect.any(String) });
    expect(service.events.size).toBe(PER_CLIENT);

    await leave(streams[0] as SseConnection);
    const again = await stream('?types=block');
    expect(again.response.status).toBe(200);
    for (const connection of [...streams.slice(1), again]) await leave(connection);
  });

  it('builds a buy of a launch heard at the head from its log, and runs a like buy once at the gas the first needed', async () => {
    const headStream = await stream('?types=launch');
    const client = service.chain.client;
    const reads = vi.spyOn(client, 'readContract');
    const estimates = vi.spyOn(client, 'estimateGas');
    const buyer = privateKeyToAccount(testAccounts()[BUYER]?.privateKey ?? '0x');
    const wallet = createWalletClient({ account: buyer, chain: devnetChain, transport: http(`${service.origin}/rpc`) });
    try {
      const buyAtHead = async () => {
        const launched = await launch();
        await received(headStream, (event) => event.event === 'launch' && about(launched.token)(event));
        expect(service.indexer.indexedBlock()).toBeLessThan(launched.block);
        const built = await s.api.post('/build/buy', {
          wallet: buyer.address,
          token: launched.token,
          amount: '0.01',
        });
        expect(built.status).toBe(200);
        expect(built.body.simulation).toMatchObject({ ran: true, ok: true });
        const { tx } = built.body;
        const hash = await wallet.sendTransaction({
          to: tx.to,
          data: tx.data,
          value: BigInt(tx.value),
          gas: BigInt(tx.gas),
        });
        await devnet.included(hash);
        const receipt = await s.api.client.getTransactionReceipt({ hash });
        expect(receipt.status).toBe('success');
        return { gas: BigInt(tx.gas) };
      };

      // The first buy of the function is estimated; the token and its pool come from the launch's log at the head,
      // not from the factory's record.
      const first = await buyAtHead();
      expect(estimates).toHaveBeenCalledTimes(1);
      expect(reads.mock.calls.some(([read]) => read.functionName === 'launchOf')).toBe(false);

      // A like buy is run once at that estimate: no estimate, the same limit, and it lands.
      estimates.mockClear();
      const second = await buyAtHead();
      expect(estimates).not.toHaveBeenCalled();
      expect(second.gas).toBe(first.gas);
    } finally {
      reads.mockRestore();
      estimates.mockRestore();
      await leave(headStream);
    }
  });

  it.each([['?confirmed=yes'], ['?confirmed='], ['?confirmed=ONLY']])(
    'refuses %s with INVALID_BODY naming confirmed',
    async (query) => {
      const answer = await fetch(`${service.url}/events${query}`);
      expect(answer.status).toBe(400);
      const body = await answer.json();
      expect(body.error).toMatchObject({ code: 'INVALID_BODY', field: 'confirmed', fix: expect.any(String) });
    },
  );
});
