import { configDefaults, defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';
import { findPgBouncer } from './scripts/pgbouncer.ts';

/**
 * The service's suite once more through PgBouncer in transaction pooling, on PostgreSQL, where
 * the machine has both (CI installs both, and a missing one fails the run there).
 */
const pooled =
  process.env.DATABASE_URL && (findPgBouncer() !== null || process.env.CI)
    ? [
        {
          test: {
            name: 'server-pooled',
            include: ['test/server/**/*.test.ts'],
            // Files that never reach PostgreSQL would only run again here, saying nothing new: the
            // command line's tests start the program with DATABASE_URL emptied, on a PGlite folder
            // (22 s of the run), and the router's, the answer cache's and the failing-database
            // tests use no database at all.
            exclude: [
              ...configDefaults.exclude,
              'test/server/cli.test.ts',
              'test/server/routing.test.ts',
              'test/server/kept.test.ts',
              'test/server/hardening/unavailable.test.ts',
            ],
            environment: 'node',
            // Loaded modules shared between files, as in the service's own run below.
            isolate: false,
            globalSetup: ['test/server/support/pooler-setup.ts'],
            env: { INBOX_TEST_POOLED: '1' },
            testTimeout: 30_000,
            hookTimeout: 60_000,
          },
        },
      ]
    : [];

export default defineConfig({
  test: {
    // Two files at a time, end-to-end ones too (each starts its own service and browser). Vitest
    // takes the projects' files one project after another (the end-to-end files first, stress
    // last), so the two at a time are mostly two browser files, or two service files. A run is
    // bound by the two cores, not by waiting (BENCHMARKS.md gives what its processes use).
    maxWorkers: 2,
    // Firefox's remote agent drops every handle of a document the moment the page navigates
    // away; a call puppeteer-core still has in flight on one (a visibility or position check
    // around a click that submits a form) then rejects where nothing awaits it. That says nothing
    // of the product, and the test goes on against the new page; every other error fails the run.
    onUnhandledError: (error) =>
      !/^Protocol error \(script\.callFunction\): no such handle\b/.test(error.message ?? ''),
    projects: [
      {
        plugins: [WxtVitest()],
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          setupFiles: ['test/support/setup.ts'],
          // The files share a worker's loaded modules, and with the same environment its page,
          // rather than load the extension again for each file (most of a run's time). Each test
          // ends what it started: the shared set-up puts the fake browser's APIs and the clock
          // back, unmounts what was rendered and blanks the page; a background a test starts
          // stops with it, and what the worker kept in memory goes with it. No file mocks a
          // module: `vi.mock` in one file would reach every file that loads the module after it.
          isolate: false,
          // Beside a browser test on a two-core machine, a popup test can take several seconds.
          testTimeout: 15_000,
        },
      },
      {
        plugins: [WxtVitest()],
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.{ts,tsx}'],
          environment: 'node',
          setupFiles: ['test/support/setup.ts'],
          // Loaded modules shared between files, kept apart as the unit project's are.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/e2e/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
      {
        test: {
          name: 'stress',
          include: ['test/stress/**/*.test.ts'],
          environment: 'node',
          // The recovery test loads the extension built for end-to-end tests into Chromium.
          globalSetup: ['test/e2e/support/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          // One file at a time, and after every other project's files: each of these loads the
          // machine on purpose, and would turn the timing of a browser test beside it into chance.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'server',
          include: ['test/server/**/*.test.ts'],
          environment: 'node',
          // The service's files share a worker's loaded modules (the server's code and PGlite
          // among them) instead of loading them again for each of some 30 files: each file starts
          // the services it needs, closes them, and mocks, stubs and fakes nothing.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...pooled,
    ],
  },
});
