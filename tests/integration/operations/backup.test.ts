import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { createBackup, restoreBackup, tablesInRestoreOrder } from '../../../src/server/backup.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { type DatabaseHandle, openDatabase } from '../../../src/server/db/connection.ts';
import { seedContent } from '../../../src/server/db/seed.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { createLocalStorage } from '../../../src/server/storage/local-storage.ts';
import type { FileStorage } from '../../../src/server/storage/storage.ts';
import { postJson, signIn } from '../../helpers/accounts.ts';
import { runCli as cli, startServer } from '../../helpers/server-process.ts';
import { supportUser } from '../../helpers/support.ts';
import { png, postFiles } from '../../helpers/attachment-files.ts';
import {
  createTestApp,
  openTestDatabase,
  testDatabaseKind,
  type TestApp,
  withMigratedDatabase,
} from '../../helpers/test-app.ts';
import { pngOf, register, validCompany } from '../../helpers/registration.ts';

/** Every row of every table, as PostgreSQL renders it, in a stable order: what a restore must give back. */
async function everyRow(database: DatabaseHandle): Promise<Record<string, string[]>> {
  const dump: Record<string, string[]> = {};
  for (const table of tablesInRestoreOrder()) {
    const rows = await queryRows<{ j: string }>(
      database.db,
      sql.raw(`select row_to_json(t)::text as j from "${table}" t`),
    );
    dump[table] = rows.map((r) => r.j).sort();
  }
  return dump;
}

async function storedBytes(storage: FileStorage, key: string): Promise<Buffer> {
  const object = await storage.get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of object!.body) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** Some of everything: accounts and sessions, tickets and messages, a partner with its licence, mail, audit. */
async function makeData(t: TestApp) {
  const user = await supportUser(t);
  const admin = await supportUser(t, { role: 'admin' });
  const { ticketId } = await user.createTicket('General', 'My parcel to Nelson has not arrived.');
  expect(
    (await user.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'It had a blue ribbon.' })).statusCode,
  ).toBe(200);
  const photo = await postFiles(t, `/api/support/tickets/${ticketId}/messages`, user.headers, { messageBody: '' }, [
    { name: 'ribbon.png', data: await png() },
  ]);
  expect(photo.statusCode, photo.body).toBe(200);
  const attachmentId = photo.json().message.attachments[0].id as string;
  expect(
    (await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'We are on it.' })).statusCode,
  ).toBe(200);
  const company = await register(t, validCompany(), { bytes: pngOf(40_000), name: 'licence.png', type: 'image/png' });
  expect(company.statusCode).toBe(201);
  const companyId = company.json().id as string;
  expect((await postJson(t, `/api/admin/companies/${companyId}/approve`, {}, admin.headers)).statusCode).toBe(200);
  return { user, admin, companyId, ticketId, attachmentId };
}

const dirs: string[] = [];
const tempDir = (label: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bagspace-${label}-`));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('backup and restore', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No mail worker: nothing may change the source between the backup and the comparison.
    t = await createTestApp({ env: { REGISTRATIONS_PER_IP_PER_HOUR: '1000' }, mailWorker: false });
  });
  afterAll(() => t.close());

  it('restores every row and file into an empty database, and the app runs on the copy', async () => {
    const { user, companyId, ticketId, attachmentId } = await makeData(t);
    const sourceStorage = createLocalStorage(path.join(t.dataDir, 'files'));
    const out = path.join(tempDir('backup'), 'site.backup');
    const manifest = await createBackup({ database: t.database, storage: sourceStorage, out });
    expect(manifest.files).toEqual([
      `commercialLicenses/${companyId}.png`,
      `ticketAttachments/${attachmentId}.png`,
      `ticketAttachments/${attachmentId}.thumb.webp`,
    ]);
    expect(manifest.tables.users).toBe(2);
    expect(manifest.tables.ticket_messages).toBe(4);
    expect(manifest.tables.ticket_attachments).toBe(1);
    // Never overwritten.
    await expect(createBackup({ database: t.database, storage: sourceStorage, out })).rejects.toThrow('already exists');

    const copy = await openTestDatabase();
    const copyDir = tempDir('restored');
    const copyStorage = createLocalStorage(path.join(copyDir, 'files'));
    try {
      await restoreBackup({ database: copy.database, storage: copyStorage, from: out });
      expect(await everyRow(copy.database)).toEqual(await everyRow(t.database));
      for (const key of manifest.files)
        expect((await storedBytes(copyStorage, key)).equals(await storedBytes(sourceStorage, key)), key).toBe(true);

      // A second restore into the now non-empty target is refused, and changes nothing.
      await expect(restoreBackup({ database: copy.database, storage: copyStorage, from: out })).rejects.toThrow(
        'The target is not empty',
      );

      // The app on the copy: the same people sign in, see their tickets, and new rows get new ids.
      const app = await buildApp({
        config: loadConfig({ NODE_ENV: 'test', DATA_DIR: copyDir, PORT: '0', LOG_LEVEL: 'silent' }),
        database: copy.database,
        startMailWorker: false,
      });
      try {
        const copyT = { ...t, app, database: copy.database, dataDir: copyDir } as TestApp;
        const cookie = await signIn(copyT, user.email, user.password);
        const tickets = await app.inject({
          method: 'GET',
          url: '/api/support/tickets',
          headers: { cookie: `${t.config.sessions.cookieName}=${cookie}` },
        });
        expect(tickets.statusCode).toBe(200);
        expect(tickets.body).toContain(ticketId);
        const before = await queryRows<{ n: unknown }>(copy.database.db, sql`select max(id) as n from audit_log`);
        await copy.database.db.execute(
          sql`insert into audit_log (actor_id, actor_email, action, target_type, target_id, details) select actor_id, actor_email, action, target_type, target_id, details from audit_log limit 1`,
        );
        const after = await queryRows<{ n: unknown }>(copy.database.db, sql`select max(id) as n from audit_log`);
        expect(Number(after[0]!.n)).toBe(Number(before[0]!.n) + 1);
      } finally {
        await app.close();
      }
    } finally {
      await copy.close();
    }
  });
});

describe.runIf(testDatabaseKind === 'postgres')('a backup of the embedded database restored into PostgreSQL', () => {
  it('carries every row and file across (the path a growing install takes)', async () => {
    const dataDir = tempDir('pglite-source');
    const embedded = await openDatabase({ kind: 'pglite', dir: path.join(dataDir, 'db') });
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'silent',
      REGISTRATIONS_PER_IP_PER_HOUR: '1000',
    });
    await seedContent(embedded.db, { companyName: config.companyName, demo: true });
    const app = await buildApp({ config, database: embedded, startMailWorker: false });
    const source = { app, database: embedded, config, dataDir, close: async () => {} } as TestApp;
    const out = path.join(tempDir('backup'), 'embedded.backup');
    try {
      const { companyId } = await makeData(source);
      await createBackup({ database: embedded, storage: createLocalStorage(path.join(dataDir, 'files')), out });
      const target = await openTestDatabase();
      const targetStorage = createLocalStorage(path.join(tempDir('pg-files'), 'files'));
      try {
        const manifest = await restoreBackup({ database: target.database, storage: targetStorage, from: out });
        expect(manifest.source).toBe('pglite');
        expect(await everyRow(target.database)).toEqual(await everyRow(embedded));
        expect(await targetStorage.exists(`commercialLicenses/${companyId}.png`)).toBe(true);
      } finally {
        await target.close();
      }
    } finally {
      await app.close();
      await embedded.close();
    }
  });
});

describe.runIf(testDatabaseKind === 'pglite')('npm run cli -- backup and restore', () => {
  it('backs up while the server runs and restores into an empty DATA_DIR that a server then serves', async () => {
    const dataDir = withMigratedDatabase(tempDir('live'));
    const server = startServer({ DATA_DIR: dataDir, PORT: '0' });
    const out = path.join(tempDir('backup'), 'live.backup');
    const email = `kept-${Date.now()}@example.nz`;
    try {
      await server.ready;
      expect(
        (await cli(['create-user', '--email', email, '--password', 'Harbour-kept-kite-42'], { DATA_DIR: dataDir }))
          .code,
      ).toBe(0);
      const backup = await cli(['backup', '--out', out], { DATA_DIR: dataDir });
      expect(backup.stderr).toBe('');
      expect(backup.stdout).toMatch(/^Backed up \d+ rows in \d+ tables and 0 files to /);
    } finally {
      await server.stop();
    }

    const restoredDir = tempDir('restored-live');
    const restore = await cli(['restore', '--from', out], { DATA_DIR: restoredDir });
    expect(restore.stderr).toBe('');
    expect(restore.stdout).toMatch(/^Restored \d+ rows/);
    // Not twice, not over data.
    const again = await cli(['restore', '--from', out], { DATA_DIR: restoredDir });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('The target is not empty');

    const copy = startServer({ DATA_DIR: restoredDir, PORT: '0' });
    try {
      const base = await copy.ready;
      const res = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'Harbour-kept-kite-42' }),
      });
      expect(res.status).toBe(200);
    } finally {
      await copy.stop();
    }
  });
});
