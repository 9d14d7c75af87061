import { type Address, type Hash, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { devnetTestClient } from './support/devnetTestClient';
import { type ServiceDrivers, serviceDrivers } from './support/serviceDrivers';
import { openSse, received, type SseConnection, type SseEvent } from './support/sseReader';
import { startTestService, type TestService } from './support/startTestService';

let service: TestService;
let s: ServiceDrivers;
const open: SseConnection[] = [];

beforeAll(async () => {
  service = await startTestService();
  s = await serviceDrivers(service);
});
afterAll(async () => {
  for (const connection of open) connection.close();
  await service?.dispose();
});

async function stream(query = '', headers: Record<string, string> = {}): Promise<SseConnection> {
  const connection = await openSse(`${service.url}/events${query}`, headers);
  open.push(connection);
  return connection;
}

let count = 0;
/** Launches a token through /rpc as a wallet would; with a first buy when asked. */
async function launch(firstBuy = 0n): Promise<{ token: Address; pool: Address; hash: Hash }> {
  const n = ++count;
  const result = await s.launcher.launch({
    creator: 2 + (n % 3),
    saltSeed: `events-${n}`,
    name: `Streamed ${n}`,
    symbol: `STR${n}`,
    firstBuy,
  });
  if (result.result !== 'ok' || !result.hash || !result.pool) throw new Error(`launch failed: ${result.result}`);
  return { token: result.token, pool: result.pool, hash: result.hash };
}

async function buy(token: Address, pool: Address, trader = 8): Promise<Hash> {
  const pair = s.contracts.wbnb as Address;
  const bought = await s.driver.trade(
    trader,
    'buyExactIn',
    s.driver.params({ token, pair, pool }, parseEther('0.2'), 0n),
    parseEther('0.2'),
  );
  if (bought.result !== 'ok' || !bought.hash) throw new Error(`buy failed: ${bought.result}`);
  return bought.hash;
}

async function indexedHead(): Promise<number> {
  const head = Number(await s.api.client.getBlockNumber({ cacheTime: 0 }));
  await service.indexer.waitFor(head);
  return head;
}

const about = (token: Address) => (event: SseEvent) => JSON.parse(event.data).token === token;
const blockEvent = (block: number) => (event: SseEvent) => event.event === 'block' && event.id === String(block);

describe('GET /events', () => {
  it('starts with the indexed block, then sends each launch as GET /launches lists it and each trade as the token page does', async () => {
    const head = await indexedHead();
    const connection = await stream();
    expect(connection.response.status).toBe(200);
    expect(connection.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const first = await received(connection, () => true);
    expect(first.event).toBe('block');
    expect(first.id).toBe(String(head));
    expect(JSON.parse(first.data)).toMatchObject({ block: head, hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });

    const launched = await launch(parseEther('0.3'));
    const launchEvent = await received(connection, (e) => e.event === 'launch' && about(launched.token)(e));
    const listed = (await s.api.get('/launches?limit=1')).body.launches[0];
    expect(JSON.parse(launchEvent.data)).toEqual(listed);
    const receipt = await s.api.client.getTransactionReceipt({ hash: launched.hash });
    const block = Number(receipt.blockNumber);
    expect(launchEvent.id).toMatch(new RegExp(`^${block}-\\d+$`));
    // The first buy follows its launch, at the launch's place, part 1.
    const firstBuy = await received(connection, (e) => e.event === 'trade' && about(launched.token)(e));
    expect(firstBuy.id).toBe(`${launchEvent.id}-1`);
    await received(connection, blockEvent(block));

    const hash = await buy(launched.token, launched.pool);
    const tradeEvent = await received(connection, (e) => e.event === 'trade' && JSON.parse(e.data).tx === hash);
    const trades = (await s.api.get(`/tokens/${launched.token}/trades`)).body.trades;
    expect(JSON.parse(tradeEvent.data)).toEqual({ ...trades[0], token: launched.token });
    expect(JSON.parse(firstBuy.data)).toEqual({ ...trades[1], token: launched.token });
    expect(trades[1].firstBuy).toBe(true);

    // Chain order, each once, and a block event closes every block that had events.
    const ids = connection.events.map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
    connection.close();
  });

  it('resumes after a disconnect from Last-Event-ID or after= with nothing missed and nothing repeated', async () => {
    await indexedHead();
    const connection = await stream();
    const a = await launch();
    const seen = await received(connection, (e) => e.event === 'launch' && about(a.token)(e));
    connection.close();
    await connection.ended;

    // Missed while away: a launch with a first buy, and a trade.
    const b = await launch(parseEther('0.1'));
    const traded = await buy(a.token, a.pool, 9);
    const head = await indexedHead();

    for (const resume of [
      () => stream('', { 'last-event-id': seen.id as string }),
      () => stream(`?after=${seen.id}`),
    ]) {
      const again = await resume();
      await received(again, blockEvent(head));
      const missed = again.events.filter((event) => event.event !== 'block');
      expect(missed.map((event) => [event.event, JSON.parse(event.data).token])).toEqual([
        ['launch', b.token],
        ['trade', b.token],
        ['trade', a.token],
      ]);
      expect(JSON.parse(missed[2]?.data as string).tx).toBe(traded);
      expect(again.events.some((event) => event.id === seen.id)).toBe(false);
      again.close();
    }

    // Resumed from a block event, then live: only what comes after.
    const fromBlock = await stream('', { 'last-event-id': String(head) });
    const c = await launch();
    const live = await received(fromBlock, (e) => e.event === 'launch');
    expect(JSON.parse(live.data).token).toBe(c.token);
    expect(fromBlock.events[0]).toBe(live);
    fromBlock.close();
  });

  it('sends only the types and the token asked for', async () => {
    await indexedHead();
    const launchesOnly = await stream('?types=launch');
    const x = await launch(parseEther('0.1'));
    const y = await launch();
    const onlyY = await stream(`?token=${y.token.toLowerCase()}&types=trade,block`);
    await received(onlyY, (e) => e.event === 'block');
    await buy(x.token, x.pool);
    const boughtY = await buy(y.token, y.pool);
    await received(onlyY, (e) => e.event === 'trade' && JSON.parse(e.data).tx === boughtY);
    await received(launchesOnly, (e) => about(y.token)(e));
    await indexedHead();
    // A block event comes after each batch; give the streams that batch's events.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(new Set(launchesOnly.events.map((event) => event.event))).toEqual(new Set(['launch']));
    expect(launchesOnly.events.map((event) => JSON.parse(event.data).token)).toEqual([x.token, y.token]);
    const trades = onlyY.events.filter((event) => event.event === 'trade');
    expect(trades.map((event) => JSON.parse(event.data).tx)).toEqual([boughtY]);
    launchesOnly.close();
    onlyY.close();
  });

  it.each([
    ['?types=launch,swap', {}, 'INVALID_BODY', 'types'],
    ['?types=', {}, 'INVALID_BODY', 'types'],
    ['?token=0x1234', {}, 'INVALID_ADDRESS', 'token'],
    ['?after=12-x', {}, 'INVALID_CURSOR', 'after'],
    ['', { 'last-event-id': 'yesterday' }, 'INVALID_CURSOR', 'Last-Event-ID'],
    ['?after=5', { 'last-event-id': '1-2-3' }, 'INVALID_CURSOR', 'Last-Event-ID'],
  ])('refuses %s %o with %s before any stream starts', async (query, headers, code, field) => {
    const answer = await fetch(`${service.url}/events${query}`, { headers });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await answer.json();
    expect(body.error).toMatchObject({ code, field, fix: expect.any(String) });
  });

  it('keeps 100 subscribers, each of which gets a launch once, and forgets each that leaves', async () => {
    const before = await stream('?types=block');
    await received(before, () => true);
    const crowd = await Promise.all(Array.from({ length: 100 }, () => stream('?types=launch')));
    const launched = await launch();
    for (const connection of crowd) {
      const got = await received(connection, about(launched.token));
      expect(connection.events).toEqual([got]);
    }
    for (const connection of crowd) connection.close();
    before.close();
    const reachable = await fetch(`${service.url}/status`);
    expect(reachable.status).toBe(200);
    await vi.waitFor(() => expect(service.events.size).toBe(0), { timeout: 5_000, interval: 20 });
  });

  it('goes back with the index when the chain is reorganized: a lower block event, then the surviving chain', async () => {
    const devnet = service.chain.devnet;
    if (!devnet) throw new Error('needs the devnet');
    const chain = devnetTestClient(devnet);
    const kept = await indexedHead();
    const connection = await stream();
    const snapshot = await chain.snapshot();
    const orphan = await launch();
    await received(connection, about(orphan.token));
    await chain.revert({ id: snapshot });
    const survivor = await launch();
    await received(connection, about(survivor.token));
    const sequence = connection.events.map((event) => (event.event === 'block' ? Number(event.id) : event.event));
    const back = sequence.lastIndexOf(kept);
    expect(back).toBeGreaterThan(0);
    expect(sequence.indexOf('launch', back)).toBeGreaterThan(back);
    connection.close();
  });
});
