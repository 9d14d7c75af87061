import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectChain } from '../src-main/chain/connectChain';
import { ApiError } from '../src-main/core/errors';
import { createApp, leanRoutes } from '../src-main/http/createApp';
import { listenApi } from '../src-main/http/listenApi';
import { lineLogger } from '../src-main/log/createLogger';
import { composeServices, type Services } from '../src-main/startService';
import { openDatabase } from '../src-main/store/openDatabase';
import { type OpenApiAnswers, openApiAnswers } from './support/openApiAnswers';

/**
 * The check every HTTP test runs under (test/support/openApiAnswers.ts, on the service's listener) must catch an answer
 * off the OpenAPI document. The real app over the devnet, with services wrapped to answer wrongly on demand and one
 * route that exists only here, served with the check as startTestService serves it.
 */

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let dataDir: string;
let services: Services;
let server: Server;
let close: () => Promise<void>;
let base: string;
let answers: OpenApiAnswers;
/** What the wrapped services answer instead, while a test sets it. */
let brokenSettings: (() => Promise<unknown>) | undefined;
/** The settings as the service reads them. */
let realSettings: () => Promise<Record<string, unknown>>;
let servedAs: string | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'openapi-answers-'));
  const chain = await connectChain({ network: 'devnet', deploymentsDir: '/nonexistent' });
  services = composeServices(chain, openDatabase(':memory:'), {
    dataDir,
    network: 'devnet',
    rateLimits: false,
    logger: lineLogger(() => {}),
  });
  const settings = services.settings.get.bind(services.settings);
  realSettings = settings as never;
  services.settings.get = () => (brokenSettings ? (brokenSettings() as never) : settings());
  // The route serves through `serve` (which also marks a cached logo as used, and fetches a pruned one again).
  const media = services.media.serve.bind(services.media);
  services.media.serve = async (cid) => {
    const file = await media(cid);
    return file && servedAs ? { ...file, mime: servedAs } : file;
  };
  const app = createApp(services);
  // A route that exists only here: an error answer that is not the Error object.
  app.get('/api/v1/test-only/bad-error', (c) => c.json({ error: { code: 'NO_SUCH_CODE' } }, 400));
  answers = openApiAnswers({ report: () => {} });
  server = await listenApi(app.fetch, 0, leanRoutes(services), { checkAnswers: answers.check });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  services.media.setOrigin(base);
  await answers.load(`${base}/api/v1/openapi.json`);
  close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await chain.close();
  };
});

afterAll(async () => {
  await close?.();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The violations the requests `send` makes, taken out of the list (so the next test starts clean). */
async function violationsOf(send: () => Promise<unknown>): Promise<string[]> {
  answers.violations.splice(0);
  await send();
  return answers.violations.splice(0);
}

const get = async (path: string) => {
  const response = await fetch(`${base}${path}`);
  await response.arrayBuffer();
  return response.status;
};

describe('the OpenAPI check of answers', () => {
  it('passes answers that keep to the document, errors included', async () => {
    expect(
      await violationsOf(async () => {
        expect(await get('/api/v1/settings')).toBe(200);
        expect(await get('/api/v1/errors')).toBe(200);
        expect(await get('/api/v1/quote?token=0x1&side=buy&amount=1')).toBe(400);
        expect(await get('/api/v1/no-such-endpoint')).toBe(404);
      }),
    ).toEqual([]);
  });

  it('catches a success answer whose body breaks its schema', async () => {
    // One field of the wrong type, one missing.
    brokenSettings = async () => ({ ...(await realSettings()), apiVersion: 'one', chainId: undefined });
    try {
      const found = await violationsOf(async () => expect(await get('/api/v1/settings')).toBe(200));
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/^GET \/api\/v1\/settings answered 200: .*must have required property 'chainId'/);
      expect(found[0]).toMatch(/\/apiVersion must be (number|equal to one of the allowed values)/);
    } finally {
      brokenSettings = undefined;
    }
  });

  it('catches an error with a status the route does not document', async () => {
    brokenSettings = async () => {
      throw new ApiError('KEY_LIMIT', 'not an error GET /settings can give');
    };
    try {
      const found = await violationsOf(async () => expect(await get('/api/v1/settings')).toBe(400));
      expect(found).toEqual([
        expect.stringMatching(/answered 400: status 400 is not documented for GET \/api\/v1\/settings/),
      ]);
    } finally {
      brokenSettings = undefined;
    }
  });

  it('catches an error answer that is not the Error object', async () => {
    const found = await violationsOf(async () => expect(await get('/api/v1/test-only/bad-error')).toBe(400));
    expect(found).toEqual([expect.stringMatching(/\/error\/code must be equal to one of the allowed values/)]);
    expect(found[0]).toMatch(/must have required property 'message'/);
  });

  it('catches an image served as another type than the ones uploads take', async () => {
    const upload = await fetch(`${base}/api/v1/media/image`, {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: PNG,
    });
    const { url } = (await upload.json()) as { url: string };
    expect(await violationsOf(async () => expect(await get(new URL(url).pathname)).toBe(200))).toEqual([]);
    servedAs = 'text/html';
    try {
      const found = await violationsOf(async () => expect(await get(new URL(url).pathname)).toBe(200));
      expect(found).toEqual([expect.stringMatching(/an image served as text\/html/)]);
    } finally {
      servedAs = undefined;
    }
  });

  it('fails the test that owns the service: assertNone throws with every violation', async () => {
    brokenSettings = async () => ({ apiVersion: 1 });
    try {
      await get('/api/v1/settings');
      expect(() => answers.assertNone()).toThrow(/1 answer\(s\) off the OpenAPI document:\nGET \/api\/v1\/settings/);
    } finally {
      brokenSettings = undefined;
      answers.violations.splice(0);
    }
  });
});
