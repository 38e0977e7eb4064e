import { configDefaults, defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';
import { findPgBouncer } from './scripts/pgbouncer.ts';

/**
 * The run in three rounds, one after another (`sequence.groupOrder`), each with the files at a time
 * that keep two cores busy without turning a browser's timing into chance:
 * - the end-to-end files, two at a time (each starts its own service and browser);
 * - the files that run in Vitest's own processes (unit, integration, the service's suite on both
 *   backends and through the pooler), three at a time: a service's file waits on PostgreSQL and
 *   the pooler often enough that a third one fills the cores (the four projects took 241 s two at
 *   a time, 208 s three at a time and 224 s four at a time);
 * - the stress files, one at a time.
 */
const BROWSER_ROUND = 0;
const STRESS_ROUND = 2;

/**
 * What each project of the in-process round says: Vitest refuses a round whose projects ask for
 * different numbers of files at a time.
 */
const IN_PROCESS_ROUND = { maxWorkers: 3, sequence: { groupOrder: 1 } };

/** The end-to-end file that spends most of its time waiting: it runs in the second round. */
const WAITING_E2E = 'test/e2e/firefox-live.test.ts';

/**
 * Node flags of the end-to-end files' workers. PGlite's engine is WebAssembly, which V8 compiles
 * fast (Liftoff) and then again, for the functions it runs often, into optimized code (TurboFan)
 * on other threads. Each end-to-end file runs in a process of its own, which lives too short for
 * that second compile to pay for itself:
 * - a process that starts a test service and asks 50 counts took 3.7-3.8 s of CPU with it and
 *   2.0-2.4 s without it;
 * - six end-to-end files took 100-101 s of CPU with it and 82-87 s without it.
 * The in-process projects' workers live for their whole round and keep V8's default (their round
 * took 224 s without the second compile, 208 s with it), as does the service wherever it runs as
 * a program (`npm start`, the benchmarks, the processes the stress tests start).
 */
const E2E_NODE_FLAGS = ['--liftoff-only'];

/** What both end-to-end projects say, whichever round they run in. */
const E2E_PROJECT = {
  environment: 'node' as const,
  execArgv: E2E_NODE_FLAGS,
  globalSetup: ['test/e2e/support/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 90_000,
};

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
            ...IN_PROCESS_ROUND,
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
    // The end-to-end round's files at a time; the other rounds say their own.
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
          ...IN_PROCESS_ROUND,
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
          ...IN_PROCESS_ROUND,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          exclude: [...configDefaults.exclude, WAITING_E2E],
          ...E2E_PROJECT,
          sequence: { groupOrder: BROWSER_ROUND },
        },
      },
      {
        test: {
          // Its browser idles for over a minute, beside the in-process files rather than beside
          // another browser's: a core is not left idle for that minute.
          name: 'e2e-waiting',
          include: [WAITING_E2E],
          ...E2E_PROJECT,
          ...IN_PROCESS_ROUND,
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
          sequence: { groupOrder: STRESS_ROUND },
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
          ...IN_PROCESS_ROUND,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...pooled,
    ],
  },
});
