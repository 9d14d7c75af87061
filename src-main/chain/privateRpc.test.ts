import { type Hex, keccak256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { PrivateRpcError, privateRpc } from './privateRpc';

const RAW: Hex = '0x02f86b827a6980843b9aca00843b9aca0082520894000000000000000000000000000000000000dead0180c0';
const URL = 'https://rpc.builder.example/key/secret-123';

/** A fetch that records what was posted and answers `status` with `body` (or throws `error`). */
function answering(status: number, body: unknown, error?: unknown) {
  const posted: { url: string; body: unknown }[] = [];
  const fetchFn = (async (url: string, init: RequestInit) => {
    posted.push({ url, body: JSON.parse(String(init.body)) });
    if (error) throw error;
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
  }) as unknown as typeof fetch;
  return { posted, fetchFn };
}

async function failureOf(send: Promise<void>): Promise<PrivateRpcError> {
  const error = await send.then(
    () => undefined,
    (cause: unknown) => cause,
  );
  expect(error).toBeInstanceOf(PrivateRpcError);
  return error as PrivateRpcError;
}

describe('privateRpc', () => {
  it('posts one eth_sendRawTransaction and takes any answer that is not an error', async () => {
    const { posted, fetchFn } = answering(200, { jsonrpc: '2.0', id: 1, result: keccak256(RAW) });
    await privateRpc(URL, { fetch: fetchFn }).send(RAW);
    expect(posted).toEqual([
      { url: URL, body: { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [RAW] } },
    ]);
  });

  it('masks the key in the URL it shows', () => {
    expect(privateRpc(URL).shownUrl).toBe('https://rpc.builder.example/…');
  });

  it('tells a refusal (a JSON-RPC error, a 4xx, an answer that is not JSON-RPC) from an endpoint that is away', async () => {
    const cases: [number, unknown, 'refused' | 'unreachable', RegExp][] = [
      [200, { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'nonce too low' } }, 'refused', /nonce too low/],
      [403, 'invalid api key', 'refused', /HTTP 403 invalid api key/],
      [200, '<html>hello</html>', 'refused', /not JSON-RPC/],
      [200, { jsonrpc: '2.0', id: 1 }, 'refused', /not JSON-RPC/],
      [503, 'maintenance', 'unreachable', /HTTP 503 maintenance/],
    ];
    for (const [status, body, reason, message] of cases) {
      const failure = await failureOf(privateRpc(URL, { fetch: answering(status, body).fetchFn }).send(RAW));
      expect(failure.reason).toBe(reason);
      expect(failure.message).toMatch(message);
      expect(failure.message).not.toContain('secret-123');
    }
  });

  it('says what kept it from reaching the endpoint: nothing listening, no such host, no answer in time', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const noHost = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } });
    const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    const expected: [unknown, RegExp][] = [
      [refused, /connection was refused/],
      [noHost, /host name does not resolve/],
      [timeout, /no answer within 3 s \(it may still include the transaction\)/],
    ];
    for (const [error, message] of expected) {
      const failure = await failureOf(
        privateRpc(URL, { timeoutMs: 3_000, fetch: answering(0, null, error).fetchFn }).send(RAW),
      );
      expect(failure.reason).toBe('unreachable');
      expect(failure.message).toMatch(message);
      expect(failure.cause).toBe(error);
    }
  });
});
