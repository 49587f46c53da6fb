import { defineConfig } from 'vitest/config';
import { SERVER_NODE_FLAGS } from './src/server/node-flags.ts';

const integration = ['tests/integration/**/*.test.ts', 'tests/security/**/*.test.ts', 'tests/reliability/**/*.test.ts'];

/**
 * Passwords made in the test processes are hashed at the tests' cost (argon2id, 1 MiB, one pass)
 * instead of the policy's 19 MiB and two passes: the PGlite project's CPU 405 -> 325 s. Only with
 * NODE_ENV=test (vitest's); the servers and command-line runs the tests start in
 * production mode, and the browser tests' server, hash at the policy's cost, and so do the tests of
 * the policy itself (decision 104).
 */
const PASSWORD_HASHING = 'test';

/**
 * unit: pure functions and components, next to the code.
 * pglite / postgres: the same integration suites, each file on a fresh database of that kind.
 * `npm test` (scripts/test.ts) decides which projects run and fails when a mandatory one cannot.
 *
 * Three files at a time (vitest's default on 2 cores is one): the integration files spend much of
 * their time waiting on databases, child servers and timers, so on 2 cores three workers took the
 * whole run from 21.4 to 12.5 minutes (docs/decisions/100-test-run-time.md). VITEST_MAX_WORKERS
 * overrides it.
 *
 * The integration files share their worker's loaded modules (isolate: false): each file still gets
 * its own app and database, but loading the server's modules again for every file was a quarter of
 * the suite's CPU (decision 100). Module state in tests/helpers must not outlive its file.
 */
export default defineConfig({
  test: {
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 3),
    // The test workers run with the server's Node flags (src/server/node-flags.ts), so what they
    // test behaves as it does under `npm start`.
    execArgv: [...SERVER_NODE_FLAGS],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          environment: 'node',
          env: { PASSWORD_HASHING },
        },
      },
      {
        test: {
          name: 'pglite',
          include: integration,
          isolate: false,
          env: { TEST_DATABASE: 'pglite', PASSWORD_HASHING },
          globalSetup: ['tests/helpers/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'postgres',
          include: integration,
          isolate: false,
          env: { TEST_DATABASE: 'postgres', PASSWORD_HASHING },
          globalSetup: ['tests/helpers/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
