import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { passphraseCipher } from '../../src-main/signer/localKey/keyCipher';
import {
  FUZZ_SEED,
  type FuzzBody,
  fuzzBody,
  fuzzPathParam,
  fuzzQuery,
  fuzzString,
  fuzzValue,
  REQUEST_TIMEOUT_MS,
  type Template,
} from '../support/fuzzInputs';
import { startTradingFixture, type TradingFixture } from '../support/tradingFixture';

/**
 * Every operation of the service's own OpenAPI document (so a new endpoint is fuzzed without touching this file), and
 * the app channel, take random and adversarial input. Each answer must be a 2xx, or a 4xx carrying the Error object
 * with a code of GET /errors, or a 503 whose code the error table lists as 503; never another 5xx, never a hang.
 */

const APP_TOKEN = 'fuzz-app-token-00000000000000000000';
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const ONE_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

interface Operation {
  method: string;
  /** The path template with its server's base, e.g. /api/v1/tokens/{address}. */
  path: string;
  query: string[];
  pathParams: string[];
  bodyFields: string[];
  /** The upload takes raw bytes, not JSON. */
  raw: boolean;
}

interface Request {
  /** The operation fuzzed ("POST /api/v1/build/buy"), to count which ones got past validation. */
  op?: string;
  method: string;
  url: string;
  body: FuzzBody;
}

let f: TradingFixture;
let settingsDir: string;
let operations: Operation[];
let codes: Map<string, number>;
let valid: string[];
let template: Template;
/** Operations that answered 2xx at least once: the fuzz is worth little if it never gets past the first check. */
const reached = new Set<string>();

beforeAll(async () => {
  settingsDir = mkdtempSync(join(tmpdir(), 'companion-fuzz-'));
  f = await startTradingFixture({
    rateLimits: false,
    appToken: APP_TOKEN,
    keyCipher: passphraseCipher({ n: 2 ** 10, r: 8, p: 1 }),
    settingsFile: join(settingsDir, 'settings.json'),
  });
  const errors = (await (await fetch(`${f.service.url}/errors`)).json()) as {
    errors: { code: string; status: number }[];
  };
  codes = new Map(errors.errors.map((e) => [e.code, e.status]));
  operations = listOperations(await (await fetch(`${f.service.url}/openapi.json`)).json());
  const trader = testAccounts()[4]?.address ?? '';
  valid = [f.bnbToken.token, f.usdtToken.token, trader, trader.toLowerCase(), 'buy', 'sell', 'in', 'out', '1', '0.01'];
  const png = Buffer.from(ONE_PIXEL_PNG, 'base64');
  const image = await fetch(`${f.service.url}/media/image`, {
    method: 'POST',
    headers: { 'content-type': 'image/png' },
    body: png,
  });
  const intent = await fetch(`${f.service.url}/intents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-token': APP_TOKEN },
    body: JSON.stringify({ kind: 'prepare_buy', wallet: trader }),
  });
  expect([image.status, intent.status]).toEqual([200, 201]);
  const imageUrl = ((await image.json()) as { url: string }).url;
  valid.push(((await intent.json()) as { id: string }).id);
  // Values by field name that the service accepts, so "valid but for one field" reaches quoting, simulation and storage.
  template = {
    wallet: trader,
    address: trader,
    token: f.bnbToken.token,
    amount: '0.01',
    side: 'buy',
    exact: 'in',
    slippageBps: 50,
    referrer: null,
    limit: 5,
    kind: 'prepare_buy',
    label: 'fuzz',
    name: 'Fuzz',
    symbol: 'FZ',
    pair: 'BNB',
    path: '/',
    marketCapUsd: '10000',
    image: imageUrl,
    hash: `0x${'ab'.repeat(32)}`,
    reason: 'fuzz',
  };
}, 120_000);

afterAll(async () => {
  await f?.service.dispose();
  if (settingsDir) rmSync(settingsDir, { recursive: true, force: true });
});

type Json = Record<string, any>;

/** The operations of an OpenAPI 3.1 document, each with its parameters and its JSON body's field names. */
function listOperations(document: Json): Operation[] {
  const base = document.servers?.[0]?.url ?? '';
  const resolve = (schema: Json | undefined): Json | undefined =>
    schema?.$ref ? document.components.schemas[String(schema.$ref).split('/').pop() as string] : schema;
  const list: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      const parameters = (op.parameters ?? []) as { in: string; name: string }[];
      const content = (op.requestBody?.content ?? {}) as Json;
      const json = resolve(content['application/json']?.schema);
      list.push({
        method: method.toUpperCase(),
        path: `${op.servers?.[0]?.url ?? base}${path}`,
        query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        bodyFields: Object.keys(json?.properties ?? {}),
        raw: Object.keys(content).some((type) => type.startsWith('image/')),
      });
    }
  }
  return list;
}

/** Requests for one operation: path parameters, query and body all fuzzed. */
function requestsFor(op: Operation): fc.Arbitrary<Request> {
  const params = fc.tuple(...op.pathParams.map(() => fuzzPathParam(valid)));
  const body: fc.Arbitrary<FuzzBody> = op.raw
    ? fc.record({
        body: fc.oneof(fc.uint8Array({ maxLength: 64 }), fuzzString(), fc.constant(undefined)),
        contentType: fc.constantFrom(undefined, 'image/png', 'image/svg+xml', 'application/json', 'text/html'),
      })
    : op.method === 'GET'
      ? fc.constant({ body: undefined, contentType: undefined })
      : fuzzBody(op.bodyFields, valid, template);
  return fc.record({ params, query: fuzzQuery(op.query, valid, template), body }).map(({ params, query, body }) => {
    let path = op.path;
    op.pathParams.forEach((name, i) => {
      path = path.replace(`{${name}}`, params[i] as string);
    });
    return {
      op: `${op.method} ${op.path}`,
      method: op.method,
      url: `${f.service.origin}${path}${query ? `?${query}` : ''}`,
      body,
    };
  });
}

interface Answer {
  status: number;
  text: string;
}

async function send(request: Request, headers: Record<string, string> = {}): Promise<Answer> {
  const init: RequestInit = {
    method: request.method,
    headers: {
      ...headers,
      ...(request.body.contentType !== undefined ? { 'content-type': request.body.contentType } : {}),
    },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  };
  if (request.body.body !== undefined) init.body = request.body.body;
  const response = await fetch(request.url, init);
  if (response.ok && request.op) reached.add(request.op);
  if (response.ok && response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) {
    // An event stream answers for as long as it is read: its first bytes say it started; cancelling closes it.
    const reader = response.body.getReader();
    const first = await reader.read();
    await reader.cancel();
    return { status: response.status, text: new TextDecoder().decode(first.value) };
  }
  return { status: response.status, text: await response.text() };
}

/** Why the answer breaks the contract, or null when it keeps it. */
function violation(answer: Answer, known: (code: string) => boolean): string | null {
  if (answer.status < 400) return null;
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `status ${answer.status} without a JSON body: ${answer.text.slice(0, 200)}`;
  }
  const code = body?.error?.code;
  if (typeof code !== 'string' || typeof body.error.message !== 'string') {
    return `status ${answer.status} without the Error object: ${answer.text.slice(0, 200)}`;
  }
  if (!known(code)) return `unknown code ${code} (status ${answer.status})`;
  if (answer.status >= 500 && !(answer.status === 503 && codes.get(code) === 503)) {
    return `status ${answer.status} ${code}: ${answer.text.slice(0, 300)}`;
  }
  return null;
}

const describeRequest = (r: Request) =>
  `${r.method} ${r.url.slice(0, 300)} [${r.body.contentType}] ${
    r.body.body instanceof Uint8Array
      ? `bytes ${Buffer.from(r.body.body).toString('hex')}`
      : String(r.body.body).slice(0, 300)
  }`;

/** Runs the property with the fixed seed; a failure names the seed and the request so it can be replayed. */
async function check(arbitrary: fc.Arbitrary<Request>, known: (code: string) => boolean, headers = {}) {
  const result = await fc.check(
    fc.asyncProperty(arbitrary, async (request) => {
      const answer = await send(request, headers).catch((cause: Error) => ({ status: 0, text: cause.message }));
      const wrong = answer.status === 0 ? `no answer: ${answer.text}` : violation(answer, known);
      if (wrong) throw new Error(`${wrong}\n  request: ${describeRequest(request)}`);
    }),
    { numRuns: RUNS, seed: FUZZ_SEED, endOnFailure: true },
  );
  if (result.failed) {
    throw new Error(
      `FUZZ_SEED=${FUZZ_SEED} path=${result.counterexamplePath}: ${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}`,
    );
  }
}

describe('fuzzing every operation of the OpenAPI document', () => {
  it('covers every endpoint the document lists', () => {
    // A sanity floor: if the document could not be read, the loop below would pass vacuously.
    expect(operations.length).toBeGreaterThanOrEqual(20);
    expect(operations.map((o) => `${o.method} ${o.path}`)).toContain('POST /api/v1/build/buy');
    expect(operations.map((o) => `${o.method} ${o.path}`)).toContain('POST /api/auth/session');
  });

  it('answers each with a 2xx or a coded 4xx, never a 5xx or a hang', async () => {
    for (const op of operations) await check(requestsFor(op), (code) => codes.has(code));
    const deep = [
      'GET /api/v1/quote',
      'POST /api/v1/build/buy',
      'POST /api/v1/build/sell',
      'POST /api/v1/build/launch',
    ];
    expect(deep.filter((op) => reached.has(op)).length).toBeGreaterThan(0);
  }, 240_000);

  it('answers other methods on the same paths with a coded error, never a 5xx or a hang', async () => {
    // HEAD answers have no body by definition, and TRACE/CONNECT are refused by fetch itself.
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS');
    for (const op of operations) {
      await check(
        fc.tuple(requestsFor(op), method).map(([request, other]) => ({
          ...request,
          method: other,
          body: other === 'GET' ? { body: undefined, contentType: undefined } : request.body,
        })),
        (code) => codes.has(code),
      );
    }
  }, 240_000);
});

/**
 * Found by this fuzz (FUZZ_SEED=43 FUZZ_RUNS=200): both answered 500 INTERNAL until launchService refused them as the
 * caller's numbers. Kept as plain cases so they never come back.
 */
describe('POST /build/launch with amounts past the pool math', () => {
  const launch = async (fields: Record<string, unknown>) => {
    const body = { wallet: template.wallet, name: 'Big', symbol: 'BIG', marketCapUsd: '10000', image: template.image };
    const answer = await send({
      method: 'POST',
      url: `${f.service.url}/build/launch`,
      body: { body: JSON.stringify({ ...body, ...fields }), contentType: 'application/json' },
    });
    expect(
      violation(answer, (code) => codes.has(code)),
      answer.text.slice(0, 200),
    ).toBeNull();
    return JSON.parse(answer.text) as { error?: { code: string; field?: string } };
  };

  // A firstBuy of 2^255 wei or more overflowed the swap math's int256.
  it('refuses a first buy above 2^255 wei as INVALID_LAUNCH on firstBuy', async () => {
    expect((await launch({ firstBuy: String(2n ** 240n) })).error).toMatchObject({
      code: 'INVALID_LAUNCH',
      field: 'firstBuy',
    });
  });

  // A cap openingTick accepts could still need more liquidity than a position holds (uint128).
  it('refuses a market cap whose liquidity overflows a pool position as INVALID_LAUNCH on the cap', async () => {
    expect((await launch({ marketCapUsd: String(2n ** 160n) })).error).toMatchObject({
      code: 'INVALID_LAUNCH',
      field: 'marketCapUsd',
    });
  });
});

describe('fuzzing the app channel', () => {
  // The channel has codes of its own beside the API's (UNKNOWN_OPERATION, INVALID_INPUT, the signers' codes), listed
  // nowhere as one table: a code must still be there, in the same UPPER_SNAKE form.
  const appCode = (code: string) => codes.has(code) || /^[A-Z][A-Z_]+$/.test(code);
  const OPERATIONS = [
    'app.info',
    'signer.status',
    'signer.importKey',
    'signer.unlock',
    'signer.lock',
    'signer.use',
    'ledger.use',
    'ledger.configuration',
    'tx.send',
    'tx.wait',
    'message.sign',
    'activity.list',
    'settings.get',
    'settings.save',
    'settings.thirdPartyFetches',
  ];
  const FIELDS = [
    'privateKey',
    'passphrase',
    'kind',
    'path',
    'tx',
    'id',
    'message',
    'limit',
    'from',
    'count',
    'wallet',
    'on',
  ];

  it('answers known and unknown operations with a result or a coded error, never a 5xx or a hang', async () => {
    const op = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...OPERATIONS) },
      { weight: 1, arbitrary: fuzzPathParam(['__proto__', 'constructor', 'hasOwnProperty', 'toString']) },
    );
    const body = fc.oneof(
      fuzzBody(FIELDS, valid),
      fc.record({
        body: fuzzValue().map((v) => JSON.stringify(v) ?? ''),
        contentType: fc.constant('application/json'),
      }),
    );
    const arbitrary = fc
      .record({ op, body })
      .map(({ op, body }) => ({ method: 'POST', url: `${f.service.origin}/app/${op}`, body }) satisfies Request);
    await check(arbitrary, appCode, { authorization: `Bearer ${APP_TOKEN}` });
    await check(arbitrary, appCode, { authorization: `Bearer ${APP_TOKEN}`, origin: f.service.origin });
  }, 120_000);
});

describe('memory across many requests', () => {
  // A leak detector, not a benchmark: per-request state kept by mistake (a map keyed by request, an unbounded cache)
  // grows by far more than the bound over 2000 requests; ordinary GC noise stays well under it.
  const MiB = 1024 * 1024;
  // The live heap after full collections: without them heapUsed also counts garbage not yet collected, which the
  // over-long query values alone (17 KB each, thousands of them) push past the bound with no leak at all.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const settle = async () => {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 200));
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };

  it('does not grow by more than 64 MiB over 2000 fuzzed requests after a warm-up', async () => {
    const all = fc.oneof(...operations.map((op) => requestsFor(op)));
    const batch = (n: number, seed: number) => fc.sample(all, { numRuns: n, seed });
    const run = async (requests: Request[]) => {
      // Eight at a time: enough to keep the service busy without queueing behind one slow build.
      for (let i = 0; i < requests.length; i += 8) {
        const answers = await Promise.all(
          requests.slice(i, i + 8).map((r) => send(r).catch((cause: Error) => ({ status: 0, text: cause.message }))),
        );
        for (const [j, answer] of answers.entries()) {
          const wrong = answer.status === 0 ? `no answer: ${answer.text}` : violation(answer, (c) => codes.has(c));
          if (wrong)
            throw new Error(`FUZZ_SEED=${FUZZ_SEED}: ${wrong}\n  ${describeRequest(requests[i + j] as Request)}`);
        }
      }
    };
    await run(batch(200, FUZZ_SEED + 1));
    const before = await settle();
    await run(batch(2000, FUZZ_SEED + 2));
    const after = await settle();
    expect(after - before).toBeLessThan(64 * MiB);
  }, 240_000);
});
