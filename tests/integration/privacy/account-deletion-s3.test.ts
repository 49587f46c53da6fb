import { sql } from 'drizzle-orm';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERASED_USER } from '../../../src/contracts/account-deletion.ts';
import { users } from '../../../src/server/db/schema.ts';
import { createErasureWorker } from '../../../src/server/modules/privacy/erasure.worker.ts';
import type { FileStorage } from '../../../src/server/storage/storage.ts';
import { startS3rver } from '../../helpers/s3rver.ts';
import type { SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { adminUser, keysOf, userWithFiles } from './account-deletion-helpers.ts';

/** Erasure with STORAGE=s3 (s3rver on loopback): the person's files leave the bucket. */
let s3: Awaited<ReturnType<typeof startS3rver>>;
let t: TestApp;
let bucket: FileStorage;
let admin: SupportUser;

beforeAll(async () => {
  s3 = await startS3rver('erasure');
  bucket = s3.bucket;
  t = await createTestApp({ env: s3.env });
  admin = await adminUser(t);
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

const objects = async () => (await bucket.list('ticketAttachments/')).keys;

describe('erasure with files in an S3 bucket', () => {
  it('deletes the person’s files from the bucket and keeps a ticket marked for the record', async () => {
    const { user, tickets } = await userWithFiles(t, admin);
    const other = await userWithFiles(t, admin);
    await admin.post(`/api/admin/support/tickets/${tickets[0]!.ticketId}/keep-for-record`, { keep: true });
    for (const ticket of tickets) expect(keysOf(await objects(), ticket.attachmentId)).toHaveLength(2);

    expect((await user.post('/api/account/delete', { password: user.password })).statusCode).toBe(200);
    expect((await admin.post(`/api/admin/users/${user.id}/erase`)).statusCode).toBe(200);
    await t.app.erasureWorker.runOnce();

    const left = await objects();
    for (const ticket of tickets) expect(keysOf(left, ticket.attachmentId)).toEqual([]);
    for (const ticket of other.tickets) expect(keysOf(left, ticket.attachmentId)).toHaveLength(2);
    const kept = await admin.get(`/api/admin/support/tickets/${tickets[0]!.ticketId}`);
    expect(kept.json().ticket.userEmail).toBe(ERASED_USER);
  });

  it('a file the store fails to delete is not forgotten: no row names it, and the sweep removes it', async () => {
    const { user, tickets } = await userWithFiles(t, admin);
    expect((await user.post('/api/account/delete', { password: user.password })).statusCode).toBe(200);
    await t.database.db
      .update(users)
      .set({ eraseAfter: sql`now()` })
      .where(eq(users.id, user.id));
    const warnings: object[] = [];
    const failing = createErasureWorker({
      db: t.database.db,
      storage: {
        delete: async () => {
          throw new Error('the store is down');
        },
      },
      log: { info() {}, error() {}, warn: (details) => warnings.push(details) },
      pollMs: 60_000,
    });
    expect(await failing.runOnce()).toBe(1);
    expect(failing.stats().filesLeft).toBe(4);
    expect(warnings).toHaveLength(4);
    for (const ticket of tickets) expect(keysOf(await objects(), ticket.attachmentId)).toHaveLength(2);

    const swept = await t.app.attachments.sweep();
    expect(swept.removedFiles).toBe(4);
    for (const ticket of tickets) expect(keysOf(await objects(), ticket.attachmentId)).toEqual([]);
  });
});
