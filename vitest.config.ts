import { defineConfig } from 'vitest/config';

// One EdrContext per process: EDR crashes under worker threads, so every test file runs in its own fork.
export default defineConfig({
  test: {
    pool: 'forks',
    include: ['src-main/**/*.test.ts', 'src-shared/**/*.test.ts', 'src-renderer/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
