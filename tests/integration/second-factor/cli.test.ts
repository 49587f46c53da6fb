import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { generateSecret } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECOND_FACTOR_MESSAGES as M } from '../../../src/contracts/second-factor.ts';
import { buildApp } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { type DatabaseHandle, openDatabase } from '../../../src/server/db/connection.ts';
import { SECRET_INVALID } from '../../../src/server/modules/second-factor/second-factor.cli.ts';
import { currentStep, totpAt } from '../../helpers/second-factor.ts';
import { runCli, runCliHere } from '../../helpers/server-process.ts';
import { openTestDatabase, type TestDatabase, testDatabaseKind, withMigratedDatabase } from '../../helpers/test-app.ts';

/**
 * The command line's second-factor commands, on the database kind under test: create-user --admin
 * --totp-secret, set-totp, reset-second-factor, help. What they do is tested in this process (cli);
 * help as an operator runs it, a child process (cliProcess).
 */
let dataDir: string;
let pg: TestDatabase | undefined;
beforeAll(async () => {
  dataDir = withMigratedDatabase(fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-cli-2fa-')));
  if (testDatabaseKind === 'postgres') pg = await openTestDatabase();
});
afterAll(async () => {
  await pg?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const cliEnv = () => ({ DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url! } : {}) });
const cli = (args: string[]) => runCliHere(args, cliEnv());
const cliProcess = (args: string[]) => runCli(args, cliEnv());

/** The app on the CLI's database, opened only around the work on the embedded one (one user at a time). */
async function withApp<T>(work: (app: FastifyInstance) => Promise<T>): Promise<T> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', ...cliEnv() });
  const database: DatabaseHandle = pg ? pg.database : await openDatabase(config.database);
  const app = await buildApp({ config, database });
  try {
    return await work(app);
  } finally {
    await app.close();
    if (!pg) await database.close();
  }
}

const login = (app: FastifyInstance, body: object) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: body });

describe('npm run cli: second factor', () => {
  it('help lists the commands', async () => {
    const res = await cliProcess(['help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('--totp-secret BASE32');
    expect(res.stdout).toMatch(/^ {2}set-totp +--email E --secret BASE32 /m);
    expect(res.stdout).toMatch(/^ {2}reset-second-factor --email E /m);
  });

  it('create-user --admin --totp-secret enrols the app at once; set-totp replaces it; reset-second-factor ends sessions', async () => {
    const first = generateSecret();
    const email = 'robot@example.nz';
    const password = 'Kauri-Robot-2049';
    const created = await cli([
      'create-user',
      '--email',
      email,
      '--password',
      password,
      '--admin',
      '--totp-secret',
      first,
    ]);
    expect([created.code, created.stderr]).toEqual([0, '']);
    expect(created.stdout.trim()).toBe(`Created ${email} (admin, verified) with an authenticator app (TOTP).`);
    expect(created.stdout + created.stderr).not.toContain(first);

    await withApp(async (app) => {
      expect((await login(app, { email, password })).json().error.fields).toEqual({ otp: M.otpRequired });
      const res = await login(app, { email, password, otp: await totpAt(first), session: 'token' });
      expect(res.statusCode, res.body).toBe(200);
    });

    const second = generateSecret();
    const set = await cli(['set-totp', '--email', email, '--secret', second.toLowerCase()]);
    expect([set.code, set.stdout.trim()]).toEqual([0, `Enrolled an authenticator app (TOTP) for ${email}.`]);
    await withApp(async (app) => {
      const step = currentStep();
      expect((await login(app, { email, password, otp: await totpAt(first, step + 1) })).statusCode).toBe(401);
      expect((await login(app, { email, password, otp: await totpAt(second, step + 1) })).statusCode).toBe(200);
    });

    const reset = await cli(['reset-second-factor', '--email', email]);
    expect(reset.code).toBe(0);
    expect(reset.stdout.trim()).toMatch(
      new RegExp(
        `^Reset the second factor of ${email}: removed 1 factor\\(s\\) and 0 recovery code\\(s\\); ended [1-9]\\d* session\\(s\\)\\.$`,
      ),
    );
    await withApp(async (app) => {
      // Password alone again: a session that must set a factor up before the console opens.
      const res = await login(app, { email, password });
      expect(res.statusCode).toBe(200);
      const cookie = res.cookies.find((c) => c.name === 'session')!.value;
      const audit = await app.inject({
        method: 'GET',
        url: '/api/admin/audit',
        headers: { cookie: `session=${cookie}` },
      });
      expect([audit.statusCode, audit.json().error.message]).toEqual([403, M.enrolRequired]);
    });
  });

  it('refuses a bad secret before creating anything, a secret for a plain user, and --totp-secret without --admin', async () => {
    const bad = await cli([
      'create-user',
      '--email',
      'short@example.nz',
      '--password',
      'Kauri-Short-2049',
      '--admin',
      '--totp-secret',
      'JBSWY3DPEHPK3PXP',
    ]);
    expect([bad.code, bad.stderr.trim()]).toEqual([1, SECRET_INVALID]);
    await withApp(async (app) => {
      const res = await login(app, { email: 'short@example.nz', password: 'Kauri-Short-2049' });
      expect(res.statusCode).toBe(401);
    });

    await cli(['create-user', '--email', 'plain@example.nz', '--password', 'Kauri-Plain-2049']);
    const plain = await cli(['set-totp', '--email', 'plain@example.nz', '--secret', generateSecret()]);
    expect([plain.code, plain.stderr.trim()]).toEqual([
      1,
      'Only admins have a second factor: make the account an admin first (set-role).',
    ]);
    const noAdmin = await cli([
      'create-user',
      '--email',
      'x@example.nz',
      '--password',
      'Kauri-X-2049',
      '--totp-secret',
      generateSecret(),
    ]);
    expect(noAdmin.code).toBe(2);
    expect(noAdmin.stderr).toContain('--totp-secret is for admins: add --admin.');
    const noSecret = await cli(['set-totp', '--email', 'plain@example.nz']);
    expect([noSecret.code, noSecret.stderr.split('\n')[0]]).toEqual([2, 'set-totp needs --secret BASE32.']);
  });
});
