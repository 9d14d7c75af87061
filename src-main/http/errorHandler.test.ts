import { Hono } from 'hono';
import { expect, it } from 'vitest';
import { ApiError } from '../core/errors';
import { ServiceError } from '../core/serviceError';
import { lineLogger } from '../log/createLogger';
import { errorHandler } from './errorHandler';

const log: string[] = [];
const app = new Hono();
const rpcDown = new ServiceError('the node did not answer', { cause: new TypeError('connect ECONNREFUSED 10.0.0.7') });
app.get('/unexpected', () => {
  throw new Error('the store broke', { cause: rpcDown });
});
app.get('/internal', () => {
  throw new ApiError('INTERNAL', 'no free token address was found', { cause: rpcDown });
});
app.get('/known', () => {
  throw new ApiError('CHAIN_UNREACHABLE', 'the pool could not be read', { cause: rpcDown });
});
app.onError(errorHandler(lineLogger((line) => log.push(line))));

it('logs an INTERNAL with its whole cause chain, and tells the caller none of it', async () => {
  for (const path of ['/unexpected', '/internal']) {
    log.length = 0;
    const answer = await app.request(`http://x${path}`);
    expect(answer.status).toBe(500);
    const body = await answer.text();
    expect(JSON.parse(body).error.code).toBe('INTERNAL');
    expect(body).not.toMatch(/ECONNREFUSED|did not answer|\bat /);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(new RegExp(`^INTERNAL GET ${path}: `));
    expect(log[0]).toContain('caused by ServiceError: the node did not answer');
    expect(log[0]).toContain('caused by TypeError: connect ECONNREFUSED 10.0.0.7');
  }
});

it('keeps the code of its own errors and logs their cause, without sending it', async () => {
  log.length = 0;
  const answer = await app.request('http://x/known');
  expect(answer.status).toBe(503);
  expect(await answer.text()).not.toContain('did not answer');
  expect(log).toEqual(['CHAIN_UNREACHABLE GET /known: the node did not answer']);
});

it('keeps the frames of the errors it logs, and makes none for a refusal it only answers', () => {
  const frames = (error: Error) => (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line)).length;
  // Logged with their frames (see errorAnswer): a failure of ours, and any error with a cause underneath.
  expect(frames(new ApiError('INTERNAL', 'the store broke'))).toBeGreaterThan(0);
  expect(frames(new ApiError('CHAIN_UNREACHABLE', 'the pool could not be read'))).toBeGreaterThan(0);
  expect(frames(new ApiError('INVALID_AMOUNT', 'amount is not a number', { cause: rpcDown }))).toBeGreaterThan(0);
  // A refusal of the caller's request is answered, never logged: V8 capturing its frames was most of its cost.
  const refused = new ApiError('RATE_LIMITED', 'more than 120 quotes from 127.0.0.1 in the last minute');
  expect(frames(refused)).toBe(0);
  expect(refused.stack).toBe('ApiError: more than 120 quotes from 127.0.0.1 in the last minute');
  expect(frames(new ApiError('INVALID_AMOUNT', 'amount is not a number'))).toBe(0);
  // And other errors made after it keep theirs.
  expect(frames(new Error('after'))).toBeGreaterThan(0);
});
