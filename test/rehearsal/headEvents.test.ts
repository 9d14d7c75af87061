import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSON_OPTIONS, rehearsalPerson, until, uploadLogo } from '../support/rehearsalPerson';
import { openSse, type SseConnection } from '../support/sseReader';
import { startTestService, type TestService } from '../support/startTestService';

/**
 * A sniper on GET /events at BSC's cadence, with the 3 confirmations the service waits for off the devnet: how many
 * blocks after the launch's own block it hears of the launch. What BSC bots need (the head) stays a known failure for
 * the issue that adds head events.
 */
let service: TestService;
let stream: SseConnection;
const outcome: { launchBlock?: bigint; headWhenHeard?: bigint } = {};

beforeAll(async () => {
  service = await startTestService(undefined, {
    ...PERSON_OPTIONS,
    blockTimeMs: 750,
    confirmations: 3,
    rateLimits: false,
  });
  stream = await openSse(`${service.url}/events?types=launch`, {}, (event) => {
    if (event.event === 'launch' && outcome.headWhenHeard === undefined) {
      void service.chain.client.getBlockNumber({ cacheTime: 0 }).then((head) => {
        outcome.headWhenHeard = head;
      });
    }
  });
  const person = await rehearsalPerson(service, 7);
  const launched = await person.buildAndSend(
    '/build/launch',
    { name: 'Heard Late', symbol: 'LATE', marketCapPair: '30', image: await uploadLogo(service) },
    'launch',
  );
  expect(launched.main.settled.status).toBe('confirmed');
  outcome.launchBlock = BigInt(launched.main.settled.block as number);
  await until('the launch on the stream', async () => (outcome.headWhenHeard !== undefined ? true : undefined));
});
afterAll(async () => {
  stream?.close();
  await service?.dispose();
});

describe('GET /events at 750 ms blocks with 3 confirmations', () => {
  it('sends the launch once three blocks are on top of it, never before', () => {
    const late = (outcome.headWhenHeard as bigint) - (outcome.launchBlock as bigint);
    console.log(`launch in block ${outcome.launchBlock}, heard at head ${outcome.headWhenHeard}: ${late} blocks late`);
    expect(late).toBeGreaterThanOrEqual(3n);
    expect(late).toBeLessThanOrEqual(4n);
  });

  it.fails('known failure, issue 29: a sniper hears the launch at the head, within a block of it', () => {
    expect((outcome.headWhenHeard as bigint) - (outcome.launchBlock as bigint)).toBeLessThanOrEqual(1n);
  });
});
