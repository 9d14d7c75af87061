/**
 * Bundles the headless entry (`src-main/serve.ts`) into `out/serve/serve.js` for plain Node: starting through a
 * TypeScript loader costs over a second of module loading, the bundle starts in a fraction of that. Dependencies stay
 * external (native addons, the EVM), only our own code is bundled. Beside it, `keyWorker.js`: the process that holds
 * the unlocked local key, which the service starts from the file next to its own (keyWorkerLaunchers.ts).
 */
import { buildSync } from 'esbuild';

export const SERVE_BUNDLE = 'out/serve/serve.js';

export function buildServe(root: string): void {
  buildSync({
    absWorkingDir: root,
    entryPoints: { serve: 'src-main/serve.ts', keyWorker: 'src-main/signer/keyWorker/keyWorkerEntry.ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outdir: 'out/serve',
    logLevel: 'warning',
  });
}

if (import.meta.filename === process.argv[1]) buildServe(process.cwd());
