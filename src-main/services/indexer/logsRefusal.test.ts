import {
  HttpRequestError,
  InvalidInputRpcError,
  LimitExceededRpcError,
  MethodNotFoundRpcError,
  RpcRequestError,
} from 'viem';
import { describe, expect, it } from 'vitest';
import { logsRefusal } from './logsRefusal';

/** An eth_getLogs error as viem raises it from a JSON-RPC error answer. */
const answered = (code: number, message: string) =>
  new RpcRequestError({ body: { method: 'eth_getLogs' }, error: { code, message }, url: 'http://rpc' });

describe('logsRefusal', () => {
  it('tells an RPC without eth_getLogs, in the public nodes’ wordings', () => {
    expect(
      logsRefusal(
        new MethodNotFoundRpcError(answered(-32601, 'the method eth_getLogs does not exist/is not available')),
      ),
    ).toBe('no-logs');
    expect(logsRefusal(new InvalidInputRpcError(answered(-32000, 'eth_getLogs is disabled')))).toBe('no-logs');
  });

  it('tells a rate limit', () => {
    expect(logsRefusal(new HttpRequestError({ url: 'http://rpc', status: 429, body: {} }))).toBe('rate-limited');
  });

  it('leaves range and result-count refusals to a smaller range', () => {
    expect(logsRefusal(new InvalidInputRpcError(answered(-32000, 'exceed maximum block range: 5000')))).toBeNull();
    expect(
      logsRefusal(new LimitExceededRpcError(answered(-32005, 'query returned more than 10000 results'))),
    ).toBeNull();
    expect(logsRefusal(new Error('header not found'))).toBeNull();
  });
});
