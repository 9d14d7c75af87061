import { describe, expect, it } from 'vitest';
import { ApiError } from './errors';
import { describeCauses, ServiceError } from './serviceError';

describe('ServiceError', () => {
  it('keeps its cause as the standard Error cause, and has none when given none', () => {
    const disk = new Error('ENOSPC');
    const error = new ApiError('STORAGE_UNAVAILABLE', 'could not write', { cause: disk });
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.cause).toBe(disk);
    expect('cause' in new ApiError('NOT_FOUND', 'nothing')).toBe(false);
  });

  it('never puts the cause in the body a caller gets', () => {
    const error = new ApiError('INTERNAL', 'failed', { cause: new Error('secret path /home/me') });
    expect(JSON.stringify(error.toBody())).not.toContain('secret');
  });
});

describe('describeCauses', () => {
  it('gives the stack, then each cause down the chain', () => {
    const root = new TypeError('socket hang up');
    const middle = new ServiceError('the node did not answer', { cause: root });
    const top = new ApiError('INTERNAL', 'failed', { cause: middle });
    const lines = describeCauses(top).split('\n');
    expect(lines[0]).toBe('ApiError: failed');
    expect(lines.filter((line) => line.startsWith('  caused by'))).toEqual([
      '  caused by ServiceError: the node did not answer',
      '  caused by TypeError: socket hang up',
    ]);
  });

  it("shows viem's short message and details, not the full one that repeats the RPC URL", () => {
    const rpc = Object.assign(
      new Error('HTTP request failed.\n\nURL: https://bsc.example/SECRETKEY\nRequest body: {}'),
      {
        name: 'HttpRequestError',
        shortMessage: 'HTTP request failed.',
        details: 'fetch failed',
      },
    );
    const described = describeCauses(new ApiError('INTERNAL', 'failed', { cause: rpc }));
    expect(described).toContain('caused by HttpRequestError: HTTP request failed. (fetch failed)');
    expect(described).not.toContain('SECRETKEY');
    expect(describeCauses(rpc)).not.toContain('SECRETKEY');
  });

  it('stops at a cycle, and describes what is not an Error', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(describeCauses(a).match(/caused by/g)).toHaveLength(1);
    expect(describeCauses(new Error('x', { cause: 'plain text' }))).toContain('caused by plain text');
    expect(describeCauses('just a string')).toBe('just a string');
  });
});
