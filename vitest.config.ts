import { defineConfig } from 'vitest/config';

// One run for the whole monorepo: the global setup finds or starts PostgreSQL and
// NATS once (TEST_DATABASE_URL / TEST_NATS_URL, testcontainers, local binaries,
// then embedded) and every test file gets its own fresh database from it.
export default defineConfig({
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'services/*/test/**/*.test.ts',
      'bench/test/**/*.test.ts',
      'demo/test/**/*.test.ts',
      'tools/*/test/**/*.test.ts',
    ],
    globalSetup: ['./packages/service-kit/dist/testing/global-setup.js'],
    reporters: ['default', './scripts/summary-reporter.mjs'],
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: 'forks',
    fileParallelism: true,
  },
});
