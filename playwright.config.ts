import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { SERVER_NODE_FLAGS } from './src/server/node-flags.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/helpers/chromium.ts';
import { E2E_OIDC_CLIENT } from './tests/helpers/oidc-e2e-client.ts';

/**
 * End-to-end tests in Debian's Chromium against the app started like `npm start`, on a fresh data
 * directory. The workers inherit E2E_DATA_DIR, so tests can read the mail outbox.
 */
const port = Number(process.env.E2E_PORT ?? 4310);
process.env.E2E_DATA_DIR ??= path.resolve('.tmp', `e2e-${process.pid}`);
const dataDir = process.env.E2E_DATA_DIR;
export const baseURL = `http://localhost:${port}`;
// Reply by email (decision 105): the server's SMTP receiver, on the next port; the workers inherit it.
process.env.E2E_SMTP_PORT ??= String(port + 1);
// Staff sign-in with an identity provider (decision 148): a real one, started by global-setup.ts on the port after.
process.env.E2E_OIDC_PORT ??= String(port + 2);
// The delivery card (decision 151): the delivery app's stand-in (scripts/delivery-app.ts), started by
// global-setup.ts on the port after that, with a secret of this run's own.
process.env.E2E_DELIVERY_PORT ??= String(port + 3);
process.env.E2E_DELIVERY_SECRET ??= `whsec_${randomBytes(32).toString('base64')}`;

// An admin for the support tests, made with the real CLI before the server starts (there is no
// other way to become admin, by design). Fresh credentials each run; the workers inherit them.
process.env.E2E_ADMIN_EMAIL ??= `ops-${process.pid}@example.nz`;
process.env.E2E_ADMIN_PASSWORD ??= `Harbour-${process.pid}-${Date.now().toString(36)}-kite`;

export default defineConfig({
  testDir: 'tests/e2e',
  // The e2e admin sets up its authenticator app once the server runs (tests/e2e/second-factor.ts).
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  // No retries: a test that passes only on a second try is a bug (decision 127).
  retries: 0,
  // Deadlines for a loaded 2-core machine (another process busy on one core): a test waits for
  // the effect it needs, and a wait that passes returns the moment the effect is there, so a
  // generous deadline costs a passing run nothing. Long multi-step tests set their own.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: '.tmp/playwright-report.json' }]],
  use: {
    baseURL,
    // Recording a trace for every test (to keep the failed ones') made the browser tests a third
    // slower: 170 → 115 s for four specs (decision 100). A failure still prints its error and the
    // page's accessibility snapshot; to look closer, run that spec again with --trace on.
    trace: 'off',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command:
      `rm -rf "${dataDir}" && node scripts/cli.ts create-user --admin ` +
      `--email "${process.env.E2E_ADMIN_EMAIL}" --password "${process.env.E2E_ADMIN_PASSWORD}" && ` +
      `node ${SERVER_NODE_FLAGS.join(' ')} scripts/start.js`,
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      PUBLIC_BASE_URL: baseURL,
      REGISTRATIONS_PER_IP_PER_HOUR: '1000',
      // Every browser test signs in from 127.0.0.1: the per-address limits would make one test's
      // failed sign-ins (the throttling test) block the others. Per-account limits stay at their defaults.
      LOGIN_FAILURES_PER_IP: '1000',
      ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '1000',
      LOG_LEVEL: 'warn',
      // Replies by mail come in through the receiver behind a "relay" whose Authentication-Results
      // the tests write (these machines have no DNS for a DMARC check of their own).
      REPLY_DOMAIN: 'reply.e2e.test',
      INBOUND_SMTP_PORT: process.env.E2E_SMTP_PORT,
      INBOUND_SMTP_HOST: '127.0.0.1',
      INBOUND_AUTHSERV_ID: 'relay.e2e.test',
      // The licence expiry worker looks every second: the licence spec waits for the hold it sets.
      LICENSE_EXPIRY_CHECK_MS: '1000',
      OIDC_ISSUER: `http://127.0.0.1:${process.env.E2E_OIDC_PORT}`,
      OIDC_CLIENT_ID: E2E_OIDC_CLIENT.id,
      OIDC_CLIENT_SECRET: E2E_OIDC_CLIENT.secret,
      OIDC_PROVIDER_NAME: 'Test Workspace',
      DELIVERY_CONTEXT_URL: `http://127.0.0.1:${process.env.E2E_DELIVERY_PORT}/deliveries/context`,
      DELIVERY_CONTEXT_SECRET: process.env.E2E_DELIVERY_SECRET,
    },
  },
});
