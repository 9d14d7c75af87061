import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSON_OPTIONS, rehearsalPerson, until, uploadLogo } from '../support/rehearsalPerson';
import { openSse, type SseConnection, type SseEvent } from '../support/sseReader';
import { startTestService, type TestService } from '../support/startTestService';

/**
 * A sniper on GET /events at BSC's cadence, with the 3 confirmations the service waits for off the devnet: how many
 * blocks after the launch's own block it hears of the launch, on the default stream (head events) and on
 * `?confirmed=only` (the stream as it was before head events).
 */
let service: TestService;
const streams: SseConnection[] = [];
interface Heard {
  headWhenHeard?: bigint;
  confirmed?: boolean;
}
const outcome: { launchBlock?: bigint; atHead: Heard; confirmedOnly: Heard } = { atHead: {}, confirmedOnly: {} };

/** Notes the chain's head when the first launch comes, and whether it came confirmed. */
const listener = (heard: Heard) => (event: SseEvent) => {
  if (event.event !== 'launch' || heard.headWhenHeard !== undefined) return;
  heard.confirmed = JSON.parse(event.data).confirmed !== false;
  void service.chain.client.getBlockNumber({ cacheTime: 0 }).then((head) => {
    heard.headWhenHeard = head;
  });
};

beforeAll(async () => {
  service = await startTestService(undefined, {
    ...PERSON_OPTIONS,
    blockTimeMs: 750,
    confirmations: 3,
    rateLimits: false,
  });
  streams.push(await openSse(`${service.url}/events?types=launch`, {}, listener(outcome.atHead)));
  streams.push(await openSse(`${service.url}/events?types=launch&confirmed=only`, {}, listener(outcome.confirmedOnly)));
  const person = await rehearsalPerson(service, 7);
  const launched = await person.buildAndSend(
    '/build/launch',
    { name: 'Heard Late', symbol: 'LATE', marketCapPair: '30', image: await uploadLogo(service) },
    'launch',
  );
  expect(launched.main.settled.status).toBe('confirmed');
  outcome.launchBlock = BigInt(launched.main.settled.block as number);
  await until('the launch on both streams', async () =>
    outcome.atHead.headWhenHeard !== undefined && outcome.confirmedOnly.headWhenHeard !== undefined ? true : undefined,
  );
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await service?.dispose();
});

describe('GET /events at 750 ms blocks with 3 confirmations', () => {
  it('sends the launch at the head, within a block of it, marked confirmed: false', () => {
    const late = (outcome.atHead.headWhenHeard as bigint) - (outcome.launchBlock as bigint);
    console.log(
      `launch in block ${outcome.launchBlock}, heard at head ${outcome.atHead.headWhenHeard}: ${late} blocks late`,
    );
    expect(outcome.atHead.confirmed).toBe(false);
    expect(late).toBeLessThanOrEqual(1n);
  });

  it('with confirmed=only, sends the launch once three blocks are on top of it, never before', () => {
    const late = (outcome.confirmedOnly.headWhenHeard as bigint) - (outcome.launchBlock as bigint);
    console.log(`confirmed only: heard at head ${outcome.confirmedOnly.headWhenHeard}: ${late} blocks late`);
    expect(outcome.confirmedOnly.confirmed).toBe(true);
    expect(late).toBeGreaterThanOrEqual(3n);
    expect(late).toBeLessThanOrEqual(4n);
  });
});
