import { defineConfig } from 'vitest/config';

/*
 * Three projects, all run by `npm test`:
 * - unit: pure code beside its source (the client package's in clients/ts/src too, and the few cross-module checks
 *   named *.unit.test.ts), in worker threads that keep their imports from one file to the next (pure code holds no
 *   state worth isolating), with no chain, server or browser: `npm run test:unit`, seconds.
 * - chain: the embedded EVM, the contracts, the service over real HTTP (the client package's clients/ts/test too),
 *   the Ledger emulator. One EdrContext per process: EDR crashes under worker threads, so every file runs in its own
 *   fork.
 * - ui: a real Chromium driving the built web UI, also in forks.
 * chain and ui read the built web UI (out/web), which test/globalSetup.ts builds once per run.
 */
const UNIT = [
  'src-main/**/*.test.ts',
  'src-shared/**/*.test.ts',
  'src-renderer/**/*.test.{ts,tsx}',
  'test/**/*.unit.test.ts',
  'clients/ts/src/**/*.test.ts',
];

export default defineConfig({
  test: {
    // Much of a chain or browser test's time is spent waiting on blocks, polls and pages: two files at once keep
    // both cores busy.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT, pool: 'threads', isolate: false } },
      {
        extends: true,
        test: {
          name: 'chain',
          include: ['test/**/*.test.ts', 'clients/ts/test/**/*.test.ts'],
          exclude: ['test/ui/**', 'test/**/*.unit.test.ts'],
          pool: 'forks',
          globalSetup: ['test/globalSetup.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'ui', include: ['test/ui/**/*.test.ts'], pool: 'forks', globalSetup: ['test/globalSetup.ts'] },
      },
    ],
  },
});
