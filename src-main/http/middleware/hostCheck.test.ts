import { Hono } from 'hono';
import { expect, it } from 'vitest';
import { silentLogger } from '../../log/createLogger';
import { errorHandler } from '../errorHandler';
import { hostCheck } from './hostCheck';

const app = new Hono();
app.use('*', hostCheck());
app.get('/', (c) => c.text('ok'));
app.onError(errorHandler(silentLogger()));

const statusFor = async (host: string) => (await app.request('http://x/', { headers: { host } })).status;

it('answers loopback names with or without a port', async () => {
  for (const host of ['127.0.0.1', '127.0.0.1:8787', 'localhost', 'LOCALHOST:1', '[::1]', '[::1]:8787']) {
    expect(await statusFor(host), host).toBe(200);
  }
});

// Without the HTTP server's own refusal in front: these must be refused by the check itself.
it('refuses names that only begin like a loopback name, and ports that are not numbers', async () => {
  for (const host of [
    '[::1].evil.com',
    '127.0.0.1:80.evil.com',
    'localhost.evil.com',
    '127.0.0.1.evil.com:8787',
    'localhost:8787:1',
    '[::1]:x',
    'evil.com',
    '',
  ]) {
    expect(await statusFor(host), host).toBe(403);
  }
});
