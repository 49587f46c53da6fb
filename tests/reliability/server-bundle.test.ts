import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureBuild, SERVER_BUNDLE, serverBundleStaleness } from '../../scripts/ensure-build.js';
import { AUTH_MESSAGES } from '../../src/contracts/auth.ts';
import { createDatabase, dropDatabase, randomDatabaseName } from '../helpers/postgres.ts';
import { startServer } from '../helpers/server-process.ts';
import { testDatabaseKind } from '../helpers/test-app.ts';

/**
 * `npm start` runs the server's bundle (scripts/build-server.ts, decision 158), and so do the
 * servers the other tests start: it must find what lies outside it where the sources do (the
 * migrations, the common passwords, the pages' build, PGlite's engine and files), and load each
 * database's driver and the migrator from chunks of its own. The sources' entry (`src/server/main.ts`,
 * which `npm run dev` and an operator may run) makes the same first start here.
 */
const dataDirs: string[] = [];
function freshDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-bundle-start-'));
  dataDirs.push(dir);
  return dir;
}
afterAll(() => dataDirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

beforeAll(() => {
  // What npm test and npm start do first: nothing when the bundle is current.
  ensureBuild();
  expect(serverBundleStaleness()).toBeNull();
}); // A build on a loaded 2-core machine takes up to a minute; the suite's deadline bounds it.

/** A first start from the bundle: migrations, demo content, a page, and the common passwords list. */
async function firstStart(env: Record<string, string>, script = path.relative(process.cwd(), SERVER_BUNDLE)) {
  const server = startServer({ PORT: '0', ...env }, { script });
  try {
    const url = await server.ready;
    const page = await fetch(`${url}/faqs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<!DOCTYPE html>');
    const faqs = await (await fetch(`${url}/api/faqs?type=general`)).json();
    expect(faqs.faqs.length).toBeGreaterThan(2);
    const signup = await fetch(`${url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ email: 'bundle@example.nz', password: 'Password1' }),
    });
    expect(signup.status).toBe(400);
    expect((await signup.json()).error.fields.password).toBe(AUTH_MESSAGES.passwordTooCommon);
    return server.output();
  } finally {
    expect(await server.stop()).toBe(0);
  }
}

describe.runIf(testDatabaseKind === 'pglite')('the server bundle on the embedded database', () => {
  it('creates, migrates and seeds an empty data directory, serves it, and lends it to the command line', async () => {
    const output = await firstStart({ DATA_DIR: freshDataDir() });
    expect(output).toContain('Database: embedded (PGlite)');
    expect(output).toContain('Command line and psql:');
  }); // PGlite's initdb and every migration: a cold start.

  it('makes the same first start from the sources (src/server/main.ts)', async () => {
    const output = await firstStart({ DATA_DIR: freshDataDir() }, 'src/server/main.ts');
    expect(output).toContain('Database: embedded (PGlite)');
  });
});

describe.runIf(testDatabaseKind === 'postgres')('the server bundle on PostgreSQL', () => {
  it('migrates an empty database, seeds it and serves it', async () => {
    const name = randomDatabaseName(inject('postgresRunPrefix'));
    const url = await createDatabase(name);
    try {
      const output = await firstStart({ DATA_DIR: freshDataDir(), DATABASE_URL: url });
      expect(output).toContain('Database: PostgreSQL');
    } finally {
      await dropDatabase(name);
    }
  });
});
