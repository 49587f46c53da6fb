import { defineConfig } from 'vitest/config';

const integration = ['tests/integration/**/*.test.ts', 'tests/security/**/*.test.ts', 'tests/reliability/**/*.test.ts'];

/**
 * unit: pure functions and components, next to the code.
 * pglite / postgres: the same integration suites, each file on a fresh database of that kind.
 * `npm test` (scripts/test.ts) decides which projects run and fails when a mandatory one cannot.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'pglite',
          include: integration,
          env: { TEST_DATABASE: 'pglite' },
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'postgres',
          include: integration,
          env: { TEST_DATABASE: 'postgres' },
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
