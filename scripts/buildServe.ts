/**
 * Bundles the headless entry (`src-main/serve.ts`) into `out/serve/serve.js` for plain Node: starting through a
 * TypeScript loader costs over a second of module loading, the bundle starts in a fraction of that. Dependencies stay
 * external (native addons, the EVM), only our own code is bundled.
 */
import { buildSync } from 'esbuild';

export const SERVE_BUNDLE = 'out/serve/serve.js';

export function buildServe(root: string): void {
  buildSync({
    absWorkingDir: root,
    entryPoints: ['src-main/serve.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: SERVE_BUNDLE,
    logLevel: 'warning',
  });
}

if (import.meta.filename === process.argv[1]) buildServe(process.cwd());
