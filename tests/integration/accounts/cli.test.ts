import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../../src/contracts/auth.ts';
import { buildApp } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { type DatabaseHandle, openDatabase } from '../../../src/server/db/connection.ts';
import { runCli, runCliHere, startServer } from '../../helpers/server-process.ts';
import { openTestDatabase, type TestDatabase, testDatabaseKind, withMigratedDatabase } from '../../helpers/test-app.ts';

/**
 * The command line, against the database kind under test: the embedded database in a DATA_DIR, or a
 * PostgreSQL database that a running app also uses. What a command does is tested in this process
 * (cli); the command line as an operator runs it, a child process with its exit code and output,
 * where that is the subject (cliProcess).
 */
let dataDir: string;
let pg: TestDatabase | undefined;

beforeAll(async () => {
  dataDir = withMigratedDatabase(fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-cli-')));
  if (testDatabaseKind === 'postgres') pg = await openTestDatabase();
});
afterAll(async () => {
  await pgApp?.app.close();
  await pg?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const cliEnv = () => ({ DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url! } : {}) });
type CliOptions = { stdin?: string; env?: Record<string, string> };
const cli = (args: string[], options: CliOptions = {}) =>
  runCliHere(args, { ...cliEnv(), ...options.env }, options.stdin);
const cliProcess = (args: string[], options: CliOptions = {}) =>
  runCli(args, { ...cliEnv(), ...options.env }, options.stdin);

/**
 * Runs `work` against the app on the CLI's database. The embedded database is opened only around
 * the work (the CLI cannot run beside it); PostgreSQL stays open, as in production.
 */
let pgApp: { app: FastifyInstance } | undefined;
async function withApp<T>(work: (app: FastifyInstance) => Promise<T>): Promise<T> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', ...cliEnv() });
  if (pg) {
    pgApp ??= { app: await buildApp({ config, database: pg.database }) };
    return work(pgApp.app);
  }
  const database: DatabaseHandle = await openDatabase(config.database);
  const app = await buildApp({ config, database });
  try {
    return await work(app);
  } finally {
    await app.close();
    await database.close();
  }
}

const login = (app: FastifyInstance, email: string, password: string) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
const sessionOf = (app: FastifyInstance, cookie: string) =>
  app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: `session=${cookie}` } });

describe('npm run cli', () => {
  it('create-user makes a verified account that can sign in at once; --admin makes an admin', async () => {
    const res = await cliProcess([
      'create-user',
      '--email',
      'Ops@Example.nz',
      '--password',
      'Kauri-Tree-2049',
      '--admin',
    ]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toBe('Created ops@example.nz (admin, verified).');
    await withApp(async (app) => {
      const signIn = await login(app, 'ops@example.nz', 'Kauri-Tree-2049');
      expect(signIn.statusCode).toBe(200);
      expect(signIn.json().user).toMatchObject({ email: 'ops@example.nz', role: 'admin', emailVerified: true });
    });
  });

  it('create-user --unverified makes an account that is signed out with the spec message until verify-email', async () => {
    const res = await cli(['create-user', '--email', 'new@example.nz', '--password-stdin', '--unverified'], {
      stdin: 'Pohutukawa-Summer-7\n',
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('new@example.nz (user, not verified)');
    await withApp(async (app) => {
      const signIn = await login(app, 'new@example.nz', 'Pohutukawa-Summer-7');
      expect(signIn.statusCode).toBe(403);
      expect(signIn.json().error.message).toBe(AUTH_MESSAGES.unverified);
    });
    expect((await cli(['verify-email', '--email', 'new@example.nz'])).code).toBe(0);
    await withApp(async (app) =>
      expect((await login(app, 'new@example.nz', 'Pohutukawa-Summer-7')).statusCode).toBe(200),
    );
  });

  it('set-password ends the sessions of the account and the new password works', async () => {
    expect((await cli(['create-user', '--email', 'pw@example.nz', '--password', 'Old-Harbour-Bridge-1'])).code).toBe(0);
    const cookie = await withApp(
      async (app) => (await login(app, 'pw@example.nz', 'Old-Harbour-Bridge-1')).cookies[0]!.value,
    );
    const res = await cli(['set-password', '--email', 'pw@example.nz', '--password', 'New-Harbour-Bridge-2']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('ended 1 session(s)');
    await withApp(async (app) => {
      expect((await sessionOf(app, cookie)).statusCode).toBe(401);
      expect((await login(app, 'pw@example.nz', 'Old-Harbour-Bridge-1')).statusCode).toBe(401);
      expect((await login(app, 'pw@example.nz', 'New-Harbour-Bridge-2')).statusCode).toBe(200);
    });
  });

  it('set-role changes what the next request sees, without signing in again', async () => {
    expect((await cli(['create-user', '--email', 'role@example.nz', '--password', 'Tui-Song-Morning'])).code).toBe(0);
    const cookie = await withApp(
      async (app) => (await login(app, 'role@example.nz', 'Tui-Song-Morning')).cookies[0]!.value,
    );
    expect((await cli(['set-role', '--email', 'role@example.nz', '--role', 'admin'])).stdout).toContain(
      'role@example.nz (admin, verified)',
    );
    await withApp(async (app) => expect((await sessionOf(app, cookie)).json().user.role).toBe('admin'));
    const bad = await cli(['set-role', '--email', 'role@example.nz', '--role', 'owner']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('role: must be user or admin');
  });

  it('disable-user refuses the old cookie at once and stops sign-in; enable-user lets the account back in', async () => {
    expect((await cli(['create-user', '--email', 'gone@example.nz', '--password', 'Weka-Stole-My-Keys'])).code).toBe(0);
    const cookie = await withApp(async (app) => {
      const res = await login(app, 'gone@example.nz', 'Weka-Stole-My-Keys');
      expect((await sessionOf(app, res.cookies[0]!.value)).statusCode).toBe(200);
      return res.cookies[0]!.value;
    });
    const res = await cli(['disable-user', '--email', 'gone@example.nz']);
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toBe('Disabled gone@example.nz; ended 1 session(s).');
    await withApp(async (app) => {
      expect((await sessionOf(app, cookie)).statusCode).toBe(401);
      expect((await login(app, 'gone@example.nz', 'Weka-Stole-My-Keys')).statusCode).toBe(401);
    });
    expect((await cli(['enable-user', '--email', 'gone@example.nz'])).code).toBe(0);
    await withApp(async (app) =>
      expect((await login(app, 'gone@example.nz', 'Weka-Stole-My-Keys')).statusCode).toBe(200),
    );
  });

  it('fails with a readable message and a non-zero code', async () => {
    const cases: Array<[string[], number, string]> = [
      [[], 1, 'Usage: npm run cli'],
      [['launch-rockets'], 2, 'Unknown command "launch-rockets".'],
      [['create-user', '--password', 'Kauri-Tree-2049'], 2, 'create-user needs --email.'],
      [['create-user', '--email', 'x@example.nz'], 2, 'create-user needs --password or --password-stdin.'],
      [['create-user', '--email', 'x@example.nz', '--pasword', 'typo'], 2, "Unknown option '--pasword'"],
      [['create-user', '--email', 'not-an-email', '--password', 'Kauri-Tree-2049'], 1, 'email: Invalid email format'],
      [
        ['create-user', '--email', 'x@example.nz', '--password', 'short'],
        1,
        'password: Password must be at least 8 characters',
      ],
      [['create-user', '--email', 'x@example.nz', '--password', 'Password123'], 1, AUTH_MESSAGES.passwordTooCommon],
      [
        ['create-user', '--email', 'ops@example.nz', '--password', 'Kauri-Tree-2049'],
        1,
        'An account for ops@example.nz already exists.',
      ],
      [['disable-user', '--email', 'nobody@example.nz'], 1, 'There is no account for nobody@example.nz.'],
    ];
    for (const [args, code, message] of cases) {
      const res = await cli(args);
      expect(res.code, args.join(' ')).toBe(code);
      expect(res.stdout + res.stderr, args.join(' ')).toContain(message);
      expect(res.stderr).not.toMatch(/\n\s+at /); // no stack trace
    }
    // As a process: the exit code and the message, without a stack trace.
    const unknown = await cliProcess(['launch-rockets']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "launch-rockets".');
    const config = await cliProcess(['verify-email', '--email', 'ops@example.nz'], {
      env: { DATABASE_URL: 'mysql://nope' },
    });
    expect(config.code).toBe(1);
    expect(config.stderr).toContain('DATABASE_URL must be a postgres:// or postgresql:// connection URL');
    expect(config.stderr).not.toMatch(/\n\s+at /);
  });
});

describe.runIf(testDatabaseKind === 'pglite')('npm run cli beside a running server (embedded database)', () => {
  it('works through the server’s local socket: the account signs in at once, disabling it ends its session', async () => {
    const server = startServer({ DATA_DIR: dataDir, PORT: '0' });
    try {
      const base = await server.ready;
      expect(server.output()).toContain(`psql -h ${dataDir} -U postgres`);
      const socket = path.join(dataDir, '.s.PGSQL.5432');
      expect(fs.statSync(socket).isSocket()).toBe(true);
      // Only the data directory's owner may connect.
      expect(fs.statSync(socket).mode & 0o077).toBe(0);

      const email = `beside-${Date.now()}@example.nz`;
      const password = 'Harbour-beside-kite-42';
      const created = await cliProcess(['create-user', '--admin', '--email', email, '--password', password]);
      expect(created.stderr).toBe('');
      expect(created.stdout).toContain(`Created ${email} (admin, verified).`);

      const signIn = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      expect(signIn.status).toBe(200);
      const cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
      const session = () => fetch(`${base}/api/auth/session`, { headers: { cookie } }).then((r) => r.status);
      expect(await session()).toBe(200);

      // An operator's psql reaches the same database.
      const psql = spawnSync(
        'psql',
        ['-h', dataDir, '-U', 'postgres', '-At', '-c', `select role from users where email = '${email}'`],
        {
          encoding: 'utf8',
        },
      );
      if (psql.error === undefined) expect(psql.stdout.trim()).toBe('admin');

      const disabled = await cli(['disable-user', '--email', email]);
      expect(disabled.stdout).toContain(`Disabled ${email}; ended 1 session(s).`);
      expect(await session()).toBe(401);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    // Stopped, the server has removed its socket, and the command line opens the database itself.
    expect(fs.existsSync(path.join(dataDir, '.s.PGSQL.5432'))).toBe(false);
    expect((await cli(['verify-email', '--email', 'ops@example.nz'])).code).toBe(0);
  });
});
