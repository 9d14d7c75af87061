import { connect } from 'node:net';
import { compileErrors, validate } from '@readme/openapi-parser';
import { createWalletClient, encodeFunctionData, http, toFunctionSelector } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { ServiceConfig } from '../src-main/chain/generated/contracts';
import { devnetChain } from '../src-main/chain/networks';
import { ERRORS } from '../src-main/core/errors';
import { JSON_BODY_LIMIT } from '../src-main/http/middleware/jsonBody';
import { readSpec, sharedSpec, specErrors } from './support/spec';
import { startTestService, type TestService } from './support/startTestService';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.dispose();
});

async function getJson(path: string, init?: RequestInit): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${service.url}${path}`, init);
  return { status: response.status, body: await response.json(), headers: response.headers };
}

function post(path: string, body: string) {
  return getJson(path, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
}

/**
 * A request written byte for byte on a socket, with the Host header we choose or none at all (fetch and node:http
 * both fill in a Host of their own).
 */
function withHost(
  host: string | null,
  path: string,
  method = 'GET',
  body = '',
): Promise<{ status: number; body: any }> {
  const url = new URL(path, service.origin);
  // HTTP/1.1 requires a Host (Node answers 400 without one), so the request without any is HTTP/1.0.
  const version = host === null ? 'HTTP/1.0' : 'HTTP/1.1';
  const head = [
    `${method} ${url.pathname} ${version}`,
    ...(host === null ? [] : [`Host: ${host}`]),
    'Connection: close',
  ];
  if (body) head.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), '127.0.0.1', () => socket.end(`${head.join('\r\n')}\r\n\r\n${body}`));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('end', () => {
      const status = Number(text.split(' ')[1]);
      resolve({ status, body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) });
    });
  });
}

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const int = z.number().int();

/** The spec's Settings table, field by field. */
const specSettings = z.object({
  apiVersion: z.literal(1),
  chainId: int,
  network: z.string(),
  contracts: z
    .object({
      factory: address,
      router: address,
      permit2: address,
      quoter: address,
      wbnb: address,
      siteFeeRecipient: address,
      referrals: address.nullable(),
    })
    .catchall(address.nullable()),
  fees: z.object({ siteFeeBps: int, referrerBps: int, lifetimeReferralBps: int }).strict(),
  launch: z
    .object({
      paused: z.boolean(),
      launchFeeWei: z.string().regex(/^\d+$/),
      feeTiers: z.array(z.object({ bps: int, label: z.string(), default: z.boolean().optional() }).strict()),
      defaultFeeTier: int,
      defaultSupply: z.string(),
    })
    .strict(),
  pairs: z.array(z.object({ address, decimals: int, symbol: z.string(), native: z.boolean().optional() }).strict()),
  limits: z
    .object({ tradeDeadlineSeconds: int, permitDays: int, maxSlippageBps: int, defaultSlippageBps: int })
    .strict(),
});

describe('GET /settings', () => {
  it('answers every field of the spec with its type and the devnet values', async () => {
    const { status, body } = await getJson('/settings');
    expect(status).toBe(200);
    const settings = specSettings.parse(body);
    expect(settings).toMatchObject({
      chainId: 31337,
      network: 'devnet',
      fees: { siteFeeBps: 100, referrerBps: 20, lifetimeReferralBps: 1500 },
      launch: {
        paused: false,
        launchFeeWei: '0',
        feeTiers: [
          { bps: 100, label: '0.01%' },
          { bps: 500, label: '0.05%' },
          { bps: 2500, label: '0.25%' },
          { bps: 10000, label: '1%', default: true },
        ],
        defaultFeeTier: 10000,
        defaultSupply: '1000000000',
      },
      limits: { tradeDeadlineSeconds: 1200, permitDays: 30, maxSlippageBps: 5000, defaultSlippageBps: 50 },
      contracts: { permit2: '0x000000000022D473030F116dDEE9F6B43aC78BA3' },
    });
    // Every contract the service uses is deployed on the devnet, the referral vault included.
    for (const [key, value] of Object.entries(settings.contracts)) expect(value, key).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const bnb = settings.pairs.find((pair) => pair.symbol === 'BNB');
    expect(bnb).toEqual({ address: settings.contracts.wbnb, decimals: 18, symbol: 'BNB', native: true });
    expect(settings.pairs.find((pair) => pair.symbol === 'USDT')?.decimals).toBe(18);
  });

  it('reads the fee rates live: a change on chain shows after the next block', async () => {
    const operator = privateKeyToAccount(testAccounts()[0]?.privateKey ?? '0x');
    const wallet = createWalletClient({
      account: operator,
      chain: devnetChain,
      transport: http(`${service.origin}/rpc`),
    });
    const { body: before } = await getJson('/settings');
    await wallet.writeContract({
      address: before.contracts.config,
      abi: ServiceConfig.abi,
      functionName: 'setFees',
      args: [150, 30, 1000],
    });
    const { body: after } = await getJson('/settings');
    expect(after.fees).toEqual({ siteFeeBps: 150, referrerBps: 30, lifetimeReferralBps: 1000 });
    await wallet.writeContract({
      address: before.contracts.config,
      abi: ServiceConfig.abi,
      functionName: 'setFees',
      args: [100, 20, 1500],
    });
    expect((await getJson('/settings')).body.fees).toEqual(before.fees);
  });
});

describe('GET /errors', () => {
  it('is the spec error table, code for code, with status, retry, meaning and fix, and nothing else', async () => {
    const { status, body } = await getJson('/errors');
    expect(status).toBe(200);
    const spec = specErrors();
    expect(spec.length).toBeGreaterThan(70);
    const served: { code: string; status: number; retry: boolean; meaning: string; fix: string }[] = body.errors;
    expect(served.slice(0, spec.length).map((e) => e.code)).toEqual(spec.map((e) => e.code));
    for (const [i, row] of spec.entries()) {
      const entry = served[i];
      expect({ code: entry?.code, status: entry?.status, retry: entry?.retry, meaning: entry?.meaning }).toEqual(row);
      expect(entry?.fix.length).toBeGreaterThan(5);
    }
    // Error codes come only from the spec's table.
    expect(served.map((e) => e.code)).toEqual(spec.map((e) => e.code));
  });

  it('comes from the same table the code throws from', async () => {
    const { body } = await getJson('/errors');
    expect(body.errors.length).toBe(Object.keys(ERRORS).length);
  });

  it("keeps the repository's spec identical to the team's shared spec", () => {
    const shared = sharedSpec();
    if (shared !== undefined) expect(readSpec()).toBe(shared);
  });
});

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document generated from the routes', async () => {
    const { status, body } = await getJson('/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    expect(Object.keys(body.paths)).toEqual(expect.arrayContaining(['/settings', '/errors']));
    const result = await validate(structuredClone(body));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('matches the checked-in snapshot, so any change to the API shows in review', async () => {
    const { body } = await getJson('/openapi.json');
    await expect(JSON.stringify(body, null, 2)).toMatchFileSnapshot('./__snapshots__/openapi.json');
  });
});

describe('request errors', () => {
  it('answers unknown paths with NOT_FOUND, for any method', async () => {
    expect((await getJson('/nope')).body.error.code).toBe('NOT_FOUND');
    expect((await getJson('/nope')).status).toBe(404);
    expect((await post('/nope', '{}')).body.error.code).toBe('NOT_FOUND');
    expect((await getJson('/settings', { method: 'DELETE' })).body.error.code).toBe('NOT_FOUND');
    const outside = await fetch(`${service.origin}/api/v2/settings`);
    expect(outside.status).toBe(404);
    expect(((await outside.json()) as any).error.code).toBe('NOT_FOUND');
  });

  it('refuses bodies that are not JSON with INVALID_JSON', async () => {
    for (const body of ['{bad', '{"a":1', "{'a':1}", 'undefined', '{"a":1}}']) {
      const { status, body: answer } = await post('/build/buy', body);
      expect(status, body).toBe(400);
      expect(answer.error.code, body).toBe('INVALID_JSON');
      expect(answer.error.fix).toBeTruthy();
    }
  });

  it('refuses JSON that is not an object with INVALID_BODY', async () => {
    for (const body of ['[]', '[{"wallet":"0x"}]', 'null', '42', '"text"', 'true', '', '   ']) {
      const { status, body: answer } = await post('/build/buy', body);
      expect(status, body).toBe(400);
      expect(answer.error.code, body).toBe('INVALID_BODY');
    }
  });

  it(`refuses bodies over ${JSON_BODY_LIMIT} bytes with BODY_TOO_LARGE`, async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(JSON_BODY_LIMIT) });
    const { status, body } = await post('/build/buy', big);
    expect(status).toBe(413);
    expect(body.error.code).toBe('BODY_TOO_LARGE');
    // Without a Content-Length (streamed), the limit holds too.
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(8192)));
        controller.close();
      },
    });
    const streamed = await fetch(`${service.url}/build/buy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as any).error.code).toBe('BODY_TOO_LARGE');
  });

  it('refuses a Host that is not a loopback name (DNS rebinding) and accepts the loopback ones', async () => {
    for (const host of ['evil.example', 'evil.example:8787', '127.0.0.1.evil.example', '192.168.1.10:8787', '', null]) {
      const { status, body } = await withHost(host, '/api/v1/settings');
      expect(status, String(host)).toBe(403);
      expect(body.error.code, String(host)).toBe('ORIGIN_NOT_ALLOWED');
    }
    const port = new URL(service.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'LOCALHOST']) {
      expect((await withHost(host, '/api/v1/settings')).status, host).toBe(200);
    }
  });

  it('sends the Error object with a fix on every error', async () => {
    const { body } = await getJson('/nope');
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error).toEqual({ code: 'NOT_FOUND', message: expect.any(String), fix: expect.any(String) });
  });
});

describe('POST /rpc on the devnet', () => {
  async function rpc(body: unknown) {
    const response = await fetch(`${service.origin}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return (await response.json()) as any;
  }

  it('answers reads, single and batched', async () => {
    expect(await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: '0x7a69',
    });
    const batch = await rpc([
      { jsonrpc: '2.0', id: 'a', method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 'b', method: 'eth_blockNumber', params: [] },
    ]);
    expect(batch.map((r: { id: string }) => r.id)).toEqual(['a', 'b']);
    expect(batch[1].result).toMatch(/^0x[0-9a-f]+$/);
  });

  it('answers a reverting call as BSC nodes do: code 3 with the revert data as hex', async () => {
    const { body: settings } = await getJson('/settings');
    const data = encodeFunctionData({ abi: ServiceConfig.abi, functionName: 'setLaunchesPaused', args: [true] });
    const stranger = '0x00000000000000000000000000000000c0ffee02';
    const answer = await rpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_call',
      params: [{ from: stranger, to: settings.contracts.config, data }, 'latest'],
    });
    expect(answer.error.code).toBe(3);
    expect(answer.error.data).toBe(toFunctionSelector('NotOwner()'));
  });

  it('refuses methods that would change the chain behind the journal, and malformed requests', async () => {
    for (const method of ['eth_sendTransaction', 'hardhat_setBalance', 'evm_revert', 'evm_snapshot', 'eth_accounts']) {
      const answer = await rpc({ jsonrpc: '2.0', id: 1, method, params: [] });
      expect(answer.error.code, method).toBe(-32601);
    }
    expect((await rpc('{bad')).error.code).toBe(-32700);
    expect((await rpc([])).error.code).toBe(-32600);
    expect((await rpc({ jsonrpc: '2.0', id: 1 })).error.code).toBe(-32600);
    expect(
      (await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: ['nothex'] })).error.code,
    ).toBe(-32602);
    expect(
      (await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: ['0x1234'] })).error.code,
    ).toBe(-32602);
  });

  it('is behind the Host check too', async () => {
    const call = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}';
    expect((await withHost('evil.example', '/rpc', 'POST', call)).status).toBe(403);
  });
});
