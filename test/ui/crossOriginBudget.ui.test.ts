import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { type Hex, parseEther, parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import type { Answer } from '../../src-main/http/answerCheck';
import { DEFAULT_RATE_LIMITS } from '../../src-main/http/createApp';
import { startTestService, type TestService } from '../support/startTestService';
import { APP_TOKEN, launchChromium, openApp, screenshot, webUiOptions } from '../support/webUi';

/**
 * Issue 30, in a real browser: a page served from a second origin on loopback (another port of 127.0.0.1) plays its
 * best moves against the devnet's /rpc and the shared quote budget, with the spec's rate limits on. It fires 125
 * `<img>` GETs at /api/v1/quote (what made the app's own quotes RATE_LIMITED before), and posts a JSON-RPC batch to
 * /rpc every way a page can without a preflight (no-cors fetch, sendBeacon), and once with a preflight: mine a block,
 * move the chain's clock a million seconds, send a transfer signed with a public test key, and eth_sendTransaction.
 * Afterwards the chain has not moved, nothing was sent, the quote budget of the machine is whole, and the app's own
 * page quotes with 200. The same batch sent by a bot as JSON then does all it says: the page was refused for its
 * origin alone.
 */

let service: TestService;
let attacker: Server;
let attackerOrigin: string;
let browser: Browser;
let token: string;
/** Every answer the service gave, as its listener wrote it: what reached it, whatever the browser let the page see. */
const served: Answer[] = [];

const VICTIM = privateKeyToAccount(testAccounts()[11]?.privateKey ?? '0x');
/** A fresh address the page wants the victim's BNB sent to. */
const THIEF = '0x00000000000000000000000000000000007e1ef0';
const STOLEN = parseEther('7');
const A_MILLION_SECONDS = 1_000_000;

async function rpc(method: string, params: unknown[] = []): Promise<any> {
  const answer = await fetch(`${service.origin}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await answer.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** What the page could change: the head's number and time, the victim's nonce, the thief's balance. */
async function chainState() {
  const head = await rpc('eth_getBlockByNumber', ['latest', false]);
  return {
    block: BigInt(head.number),
    time: BigInt(head.timestamp),
    victimNonce: BigInt(await rpc('eth_getTransactionCount', [VICTIM.address, 'latest'])),
    thiefBalance: BigInt(await rpc('eth_getBalance', [THIEF, 'latest'])),
  };
}

beforeAll(async () => {
  service = await startTestService(undefined, {
    ...webUiOptions,
    rateLimits: DEFAULT_RATE_LIMITS,
    seed: true,
    onAnswer: (answer) => served.push(answer),
  });
  await service.seeded;
  // A launch of the devnet's seed, once the indexer has it: the app's page quotes it from its real pool.
  for (let tries = 0; tries < 300 && !token; tries++) {
    const { launches } = (await (await fetch(`${service.url}/launches`)).json()) as { launches: { token: string }[] };
    if (launches[0]) token = launches[0].token;
    else await new Promise((wait) => setTimeout(wait, 100));
  }
  attacker = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>Free tokens</title>');
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => attacker?.close(resolve));
  await service?.dispose();
});

/** What left the page for the service, as the browser sent it. */
function watch(page: Page) {
  const sent: { method: string; url: string }[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(service.origin)) sent.push({ method: request.method(), url: request.url() });
  });
  return sent;
}

it("lets a page elsewhere neither move the devnet nor spend the quote budget; the app's own page quotes", async () => {
  expect(token).toMatch(/^0x[0-9a-fA-F]{40}$/);
  const head = await rpc('eth_getBlockByNumber', ['latest', false]);
  const raw: Hex = await VICTIM.signTransaction({
    chainId: 31337,
    type: 'eip1559',
    to: THIEF,
    value: STOLEN,
    nonce: Number(await rpc('eth_getTransactionCount', [VICTIM.address, 'latest'])),
    gas: 21_000n,
    maxFeePerGas: BigInt(head.baseFeePerGas ?? 0) * 2n + parseGwei('1'),
    maxPriorityFeePerGas: parseGwei('1'),
  });
  const batch = [
    { jsonrpc: '2.0', id: 1, method: 'evm_mine', params: [] },
    { jsonrpc: '2.0', id: 2, method: 'evm_increaseTime', params: [A_MILLION_SECONDS] },
    { jsonrpc: '2.0', id: 3, method: 'eth_sendRawTransaction', params: [raw] },
    {
      jsonrpc: '2.0',
      id: 4,
      method: 'eth_sendTransaction',
      params: [{ from: VICTIM.address, to: THIEF, value: `0x${STOLEN.toString(16)}` }],
    },
    { jsonrpc: '2.0', id: 5, method: 'evm_mine', params: [] },
  ];
  const before = await chainState();

  const page = await browser.newPage();
  const sent = watch(page);
  const servedBefore = served.length;
  await page.goto(`${attackerOrigin}/`);
  const IMAGES = 125;
  const outcomes = await page.evaluate(
    async ({ origin, token, batch, images }) => {
      const loads: Promise<void>[] = [];
      for (let i = 0; i < images; i++) {
        const image = new Image();
        loads.push(
          new Promise((settled) => {
            image.onload = image.onerror = () => settled();
          }),
        );
        image.src = `${origin}/api/v1/quote?token=${token}&side=buy&amount=0.0${i + 1}`;
        document.body.append(image);
      }
      await Promise.all(loads);
      const body = JSON.stringify(batch);
      const tries: RequestInit[] = [
        // text/plain: no preflight.
        { method: 'POST', mode: 'no-cors', body },
        // no-cors drops a JSON Content-Type: the body still goes as text/plain.
        { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'application/json' }, body },
        // As JSON, which needs a preflight this server never grants.
        { method: 'POST', headers: { 'content-type': 'application/json' }, body },
      ];
      const outcomes: string[] = [];
      for (const init of tries) {
        outcomes.push(
          await fetch(`${origin}/rpc`, init).then(
            (response) => response.type,
            (error: Error) => `refused by the browser: ${error.message}`,
          ),
        );
      }
      navigator.sendBeacon(`${origin}/rpc`, new Blob([body], { type: 'text/plain' }));
      return outcomes;
    },
    { origin: service.origin, token, batch, images: IMAGES },
  );
  expect(outcomes.slice(0, 2)).toEqual(['opaque', 'opaque']);
  expect(outcomes[2]).toMatch(/^refused by the browser/);
  // Every image and every write reached the service and was refused there, the preflight too (the beacon is the last
  // one in flight); the JSON one never left the page.
  expect(sent.filter((request) => request.url.includes('/api/v1/quote?')).length).toBe(IMAGES);
  await expect.poll(() => served.slice(servedBefore).filter((answer) => answer.path === '/rpc').length).toBe(4);
  const toPage = served.slice(servedBefore);
  expect(toPage.filter((answer) => answer.path === '/api/v1/quote').map((answer) => answer.status)).toEqual(
    Array(IMAGES).fill(403),
  );
  expect(
    toPage.filter((answer) => answer.path === '/rpc').map((answer) => `${answer.method} ${answer.status}`),
  ).toEqual(['POST 403', 'POST 403', 'OPTIONS 403', 'POST 403']);
  await page.close();

  // Nothing moved: no block, no time, no transaction.
  expect(await chainState()).toEqual(before);
  // Nor was any quote counted: this machine's whole minute is left (the page sent from the same 127.0.0.1).
  const botQuote = await fetch(`${service.url}/quote?token=${token}&side=buy&amount=0.01`);
  expect(botQuote.status).toBe(200);
  expect(botQuote.headers.get('ratelimit')).toBe(`"quotes";r=${DEFAULT_RATE_LIMITS.quotesPerMinute - 1};t=60`);
  // The clock was not moved for the next block either.
  await rpc('evm_mine');
  const next = await chainState();
  expect(next.time - before.time).toBeLessThan(3600n);

  // The app's own page quotes the token, in its own budget, at each size and theme.
  for (const [width, height, theme] of [
    [1440, 900, 'light'],
    [1440, 900, 'dark'],
    [1024, 700, 'light'],
    [1024, 700, 'dark'],
  ] as const) {
    const { page: own, errors } = await openApp(browser, service.origin, `/token/${token}`, {
      viewport: { width, height },
      colorScheme: theme,
    });
    const quoted = own.waitForResponse((response) => response.url().includes('/api/v1/quote?'));
    await own.getByTestId('trade-amount').fill('0.01');
    const answer = await quoted;
    expect(answer.status()).toBe(200);
    expect(await answer.request().headerValue('x-app-token')).toBe(APP_TOKEN);
    expect(answer.headers()['ratelimit-policy']).toBe(
      `"quotes";q=${DEFAULT_RATE_LIMITS.quotesPerMinute};w=60;pk=:${Buffer.from('app').toString('base64')}:`,
    );
    await own.getByTestId('quote-pay').waitFor();
    expect(await own.getByTestId('quote-pay').textContent()).toMatch(/^0\.01\s*BNB/);
    await screenshot(own, `screens/origins-quote-after-attack-${width}-${theme}`);
    expect(errors).toEqual([]);
    await own.close();
  }

  // The very same batch from a bot, as JSON, does what it says: the page was refused for its origin alone.
  const replay = await fetch(`${service.origin}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(batch),
  });
  const results = (await replay.json()) as { id: number; result?: unknown; error?: unknown }[];
  expect(results.map((result) => result.id)).toEqual([1, 2, 3, 4, 5]);
  expect(results[2]?.result).toMatch(/^0x[0-9a-f]{64}$/);
  const after = await chainState();
  expect(after.block).toBeGreaterThan(next.block + 1n);
  // A million seconds on from the wall clock, less the few seconds the devnet's head ran ahead of it (blocks mined
  // within one second are a second apart): far beyond the hour the page's attempt was held to above.
  expect(after.time - next.time).toBeGreaterThan(BigInt(A_MILLION_SECONDS) - 3600n);
  expect(after.victimNonce).toBe(before.victimNonce + 1n);
  expect(after.thiefBalance).toBe(STOLEN);
}, 120_000);
