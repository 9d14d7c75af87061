import { describe, expect, it } from 'vitest';
import { CompanionError, errorOfAnswer, retryOf } from './companionError';
import { retryAfterMs } from './errorRetry';

const answer = (status: number, headers: Record<string, string> = {}) =>
  new Response(null, { status, statusText: 'Nope', headers });

describe('retry', () => {
  it("follows the spec's retry column, waiting what Retry-After says or 5 s", () => {
    expect(retryOf('RATE_LIMITED', '17')).toEqual({ afterMs: 17_000 });
    expect(retryOf('CHAIN_UNREACHABLE', null)).toEqual({ afterMs: 5_000 });
    expect(retryOf('UPLOADS_BUSY', '0')).toEqual({ afterMs: 0 });
    expect(retryOf('INVALID_AMOUNT', '5')).toBe(false);
    expect(retryOf('ALREADY_BOUND', null)).toBe(false);
  });

  it('classifies a code the document does not list by whether Retry-After came', () => {
    expect(retryOf('NEW_THING_UNAVAILABLE', '3')).toEqual({ afterMs: 3_000 });
    expect(retryOf('NEW_THING_INVALID', null)).toBe(false);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('  9 ', now)).toBe(9_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});

describe('errorOfAnswer', () => {
  it("carries the spec's error object with its status", () => {
    const error = errorOfAnswer(answer(429, { 'retry-after': '12' }), {
      error: { code: 'RATE_LIMITED', message: 'too many', fix: 'Wait 12 seconds (Retry-After), then send again.' },
    });
    expect(error).toBeInstanceOf(CompanionError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', message: 'too many', retry: { afterMs: 12_000 } });
    const field = errorOfAnswer(answer(400), {
      error: { code: 'INVALID_ADDRESS', message: 'bad', fix: 'Send 0x…', field: 'wallet', detail: { x: 1 } },
    });
    expect(field).toMatchObject({ field: 'wallet', detail: { x: 1 }, fix: 'Send 0x…', retry: false });
  });

  it('is HTTP_<status> for a body that is not the error object', () => {
    expect(errorOfAnswer(answer(502), '<html>bad gateway</html>')).toMatchObject({
      status: 502,
      code: 'HTTP_502',
      retry: false,
    });
    expect(errorOfAnswer(answer(503, { 'retry-after': '2' }), undefined)).toMatchObject({ retry: { afterMs: 2_000 } });
  });
});
