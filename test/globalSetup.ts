import { join } from 'node:path';
import { build } from 'vite';

/**
 * Builds the web UI once for the whole run (the browser tests serve it), as `npm start` serves it in headless mode.
 * Set SKIP_WEB_BUILD=1 to reuse out/web while iterating on tests only.
 */
export default async function setup(): Promise<void> {
  if (process.env.SKIP_WEB_BUILD === '1') return;
  await build({ configFile: join(import.meta.dirname, '..', 'vite.web.config.ts'), logLevel: 'warn' });
}
