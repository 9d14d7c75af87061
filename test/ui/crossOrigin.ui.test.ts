import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { startTestService, type TestService } from '../support/startTestService';
import { APP_TOKEN, launchChromium, webUiOptions } from '../support/webUi';

/**
 * Issue 16, in a real browser: a page served from a second origin on loopback (another port of 127.0.0.1, so the
 * browser counts it same-site and sends the victim's cookie along) tries every way a page has to write without asking
 * first: fetch with text/plain, no-cors fetch, a Blob with no type, sendBeacon, and HTML forms (text/plain and
 * urlencoded). Every request reaches the service and is refused; the stored state shows nothing written. The same
 * signed bodies sent afterwards by a bot are taken, so nothing but the way in was wrong with them.
 */

let service: TestService;
let attacker: Server;
let attackerOrigin: string;
let browser: Browser;
let context: BrowserContext;
let db: Database.Database;

const account = (index: number) => privateKeyToAccount(testAccounts()[index]?.privateKey ?? '0x');
const VICTIM = 12;
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

beforeAll(async () => {
  service = await startTestService(undefined, webUiOptions);
  db = new Database(join(service.dataDir, 'app.sqlite'), { readonly: true });
  attacker = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>Free tokens</title><iframe name="sink"></iframe>');
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
  browser = await launchChromium();
  context = await browser.newContext();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await new Promise((resolve) => attacker?.close(resolve));
  db?.close();
  await service?.dispose();
});

/** A challenge of `path` signed by the wallet, as a page that phished the signature would hold it. */
async function signed(path: string, wallet: number) {
  const challenge = (await (await fetch(`${service.origin}${path}?address=${account(wallet).address}`)).json()) as {
    nonce: string;
    message: string;
  };
  return { nonce: challenge.nonce, signature: await account(wallet).signMessage({ message: challenge.message }) };
}

const count = (table: string) => db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
const mediaFiles = () => {
  try {
    return readdirSync(join(service.dataDir, 'media')).length;
  } catch {
    return 0;
  }
};
async function localKey() {
  const answer = await fetch(`${service.origin}/app/signer.status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${APP_TOKEN}` },
    body: '{}',
  });
  return ((await answer.json()) as { result: { localKey: unknown } }).result.localKey;
}
const stored = async () => ({
  keys: count('api_keys'),
  referrers: count('referrers'),
  sessions: count('sessions'),
  intents: count('intents'),
  media: mediaFiles(),
  localKey: await localKey(),
});

/** The victim is signed in to the app in this browser: its session cookie goes with every request to the service. */
async function signInVictim() {
  const answer = await fetch(`${service.origin}/api/auth/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: service.origin },
    body: JSON.stringify(await signed('/api/auth/challenge', VICTIM)),
  });
  expect(answer.status).toBe(200);
  const [name, value] = (answer.headers.get('set-cookie') ?? '').split(';')[0]?.split('=') ?? [];
  await context.addCookies([
    { name: name as string, value: value as string, url: service.origin, httpOnly: true, sameSite: 'Strict' },
  ]);
}

/** Answers of the service the page's requests got, as the browser saw them (opaque ones included). */
function watchAnswers(page: Page, sent: { method: string; url: string }[] = []) {
  const answers: { method: string; url: string; status: number }[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(service.origin)) sent.push({ method: request.method(), url: request.url() });
  });
  page.on('response', (response) => {
    if (response.url().startsWith(service.origin)) {
      answers.push({ method: response.request().method(), url: response.url(), status: response.status() });
    }
  });
  return answers;
}

it('lets a page on another origin write nothing: fetch, no-cors, Blob, sendBeacon and forms are all refused', async () => {
  await signInVictim();
  const key = await signed('/api/v1/keys/challenge', VICTIM);
  const referral = await signed('/api/v1/referrals/challenge', VICTIM);
  const session = await signed('/api/auth/challenge', 13);
  const before = await stored();
  const sessionsBefore = before.sessions;

  const page = await context.newPage();
  const sent: { method: string; url: string }[] = [];
  const answers = watchAnswers(page, sent);
  await page.goto(`${attackerOrigin}/`);
  const api = `${service.origin}/api/v1`;
  const attempts = await page.evaluate(
    async ({ api, origin, key, referral, session, png, victim }) => {
      const json = (value: unknown) => JSON.stringify(value);
      const tries: [string, RequestInit][] = [
        [`${api}/keys`, { method: 'POST', mode: 'no-cors', body: json({ ...key, label: 'planted' }) }],
        [
          `${api}/keys`,
          { method: 'POST', headers: { 'content-type': 'text/plain' }, body: json({ ...key, label: 'cors' }) },
        ],
        [`${api}/referrals/register`, { method: 'POST', mode: 'no-cors', body: json(referral) }],
        [
          `${api}/intents`,
          {
            method: 'POST',
            mode: 'no-cors',
            credentials: 'include',
            body: json({ kind: 'prepare_buy', wallet: victim }),
          },
        ],
        [
          `${api}/media/image`,
          {
            method: 'POST',
            mode: 'no-cors',
            body: new Blob([Uint8Array.from(atob(png), (c) => c.charCodeAt(0))]),
          },
        ],
        [`${origin}/api/auth/session`, { method: 'POST', mode: 'no-cors', body: json(session) }],
        [
          `${origin}/app/signer.importKey`,
          { method: 'POST', mode: 'no-cors', body: json({ privateKey: `0x${'11'.repeat(32)}`, passphrase: 'x' }) },
        ],
      ];
      const outcomes: string[] = [];
      for (const [url, init] of tries) {
        outcomes.push(
          await fetch(url, init).then(
            (response) => response.type,
            (error: Error) => `refused by the browser: ${error.message}`,
          ),
        );
      }
      // A beacon is a no-cors POST the page never waits for.
      navigator.sendBeacon(`${api}/referrals/register`, new Blob([json(referral)], { type: 'text/plain' }));
      // Forms: text/plain can carry a JSON-looking body ({"nonce":..., "pad":"="}), urlencoded cannot.
      const submit = (action: string, enctype: string, name: string, value: string) =>
        new Promise<void>((resolve) => {
          const form = document.createElement('form');
          form.method = 'POST';
          form.action = action;
          form.enctype = enctype;
          form.target = 'sink';
          const input = document.createElement('input');
          input.name = name;
          input.value = value;
          form.append(input);
          document.body.append(form);
          document.querySelector('iframe')?.addEventListener('load', () => resolve(), { once: true });
          form.submit();
        });
      const body = json({ ...key, label: 'form' });
      await submit(`${api}/keys`, 'text/plain', `${body.slice(0, -1)},"pad":"`, '"}');
      await submit(`${api}/referrals/register`, 'application/x-www-form-urlencoded', 'nonce', referral.nonce);
      return outcomes;
    },
    { api, origin: service.origin, key, referral, session, png: PNG_BASE64, victim: account(VICTIM).address },
  );
  // The browser sent each one (no-cors answers are opaque; the cors one fails to read, as it must).
  expect(attempts.slice(0, 1)).toEqual(['opaque']);
  expect(attempts.slice(2)).toEqual(['opaque', 'opaque', 'opaque', 'opaque', 'opaque']);
  // Wait for the beacon, the last request still in flight.
  await expect.poll(() => answers.filter((a) => a.url === `${api}/referrals/register`).length).toBe(3);
  // Ten writes left the page; the browser shows the answer of each but the cors one, which failed its CORS check
  // (that one wrote nothing either: see the stored state below).
  expect(sent.filter((request) => request.method === 'POST').length).toBe(10);
  const writes = answers.filter((answer) => answer.method === 'POST');
  expect(writes.length).toBe(9);
  for (const answer of writes) expect(answer.status, answer.url).toBe(403);
  expect(await stored()).toEqual(before);
  expect(count('sessions')).toBe(sessionsBefore);
  await page.close();

  // A bot sending the very same signed bodies as JSON is served: the page failed for its origin alone.
  const asBot = (path: string, body: unknown) =>
    fetch(`${api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  expect((await asBot('/keys', { ...key, label: 'bot' })).status).toBe(201);
  expect((await asBot('/referrals/register', referral)).status).toBe(200);
  expect(count('api_keys')).toBe(before.keys + 1);
  expect(count('referrers')).toBe(before.referrers + 1);
});

it("answers a signed-in read asked by a page elsewhere with CSRF_REQUIRED, while the app's own page reads", async () => {
  const page = await context.newPage();
  const answers = watchAnswers(page);
  await page.goto(`${attackerOrigin}/`);
  const url = `${service.origin}/api/v1/keys`;
  await page.evaluate((url) => fetch(url, { mode: 'no-cors', credentials: 'include' }).then(() => undefined), url);
  expect(answers.filter((answer) => answer.url === url).map((answer) => answer.status)).toEqual([403]);
  // Nor may it have challenges made in anyone's name (it could not read them, only fill the table).
  const challenges = count('challenges');
  const challenge = `${service.origin}/api/v1/keys/challenge?address=${account(VICTIM).address}`;
  await page.evaluate((url) => fetch(url, { mode: 'no-cors' }).then(() => undefined), challenge);
  expect(answers.filter((answer) => answer.url === challenge).map((answer) => answer.status)).toEqual([403]);
  expect(count('challenges')).toBe(challenges);
  // The app's own page, with the same cookie, sends the header and gets the victim's keys.
  await page.goto(`${service.origin}/`);
  const own = await page.evaluate(
    (url) =>
      fetch(url, { headers: { 'x-mm-csrf': '1' } }).then(async (r) => ({ status: r.status, body: await r.json() })),
    url,
  );
  expect(own.status).toBe(200);
  expect(own.body.wallet).toBe(account(VICTIM).address);
  await page.close();
});
