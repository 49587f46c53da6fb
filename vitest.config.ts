import { configDefaults, defineConfig } from 'vitest/config';
import { SERVER_NODE_FLAGS } from './src/server/node-flags.ts';
import { INTEGRATION_GLOBS, oneDatabaseFiles, oneDatabaseProject } from './tests/one-database.ts';

const integration = INTEGRATION_GLOBS;
/**
 * Files that say "One database: <why>" run in one project only: PostgreSQL's when npm test runs it
 * (ONE_DATABASE=postgres), else PGlite's (tests/one-database.ts).
 */
const oneDatabase = oneDatabaseFiles(import.meta.dirname);
const onlyIn = (project: 'pglite' | 'postgres') => (oneDatabaseProject() === project ? [] : oneDatabase);

/**
 * Passwords made in the test processes are hashed at the tests' cost (argon2id, 1 MiB, one pass)
 * instead of the policy's 19 MiB and two passes: the PGlite project's CPU 405 -> 325 s. Only with
 * NODE_ENV=test (vitest's); the servers and command-line runs the tests start in
 * production mode, and the browser tests' server, hash at the policy's cost, and so do the tests of
 * the policy itself (decision 104).
 */
const PASSWORD_HASHING = 'test';

/**
 * Deadlines, not targets: a test that passes ends when its last effect comes, so these only bound a
 * test that would hang. They fit a 2-core machine shared with other work (the integration files
 * start servers, databases and mail servers: under a load of 10 to 15, a server's start took a
 * minute and a test that starts three of them passed 120 s).
 */
const TEST_TIMEOUT_MS = 300_000;
const HOOK_TIMEOUT_MS = 300_000;

/**
 * unit: pure functions and components, next to the code.
 * pglite / postgres: the same integration suites, each file on a fresh database of that kind; a
 * file whose subject does not depend on the database says so ("One database: …") and runs once, on
 * PostgreSQL when the run has it (tests/one-database.ts).
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
          exclude: [...configDefaults.exclude, ...onlyIn('pglite')],
          isolate: false,
          env: { TEST_DATABASE: 'pglite', PASSWORD_HASHING },
          globalSetup: ['tests/helpers/global-setup.ts'],
          testTimeout: TEST_TIMEOUT_MS,
          hookTimeout: HOOK_TIMEOUT_MS,
        },
      },
      {
        test: {
          name: 'postgres',
          include: integration,
          exclude: [...configDefaults.exclude, ...onlyIn('postgres')],
          isolate: false,
          env: { TEST_DATABASE: 'postgres', PASSWORD_HASHING },
          globalSetup: ['tests/helpers/global-setup.ts'],
          testTimeout: TEST_TIMEOUT_MS,
          hookTimeout: HOOK_TIMEOUT_MS,
        },
      },
    ],
  },
});
