import fs from 'node:fs';
import path from 'node:path';
import { count, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETION_TEXT, ERASED_USER, erasedEmail } from '../../../src/contracts/account-deletion.ts';
import { AUTH_MESSAGES } from '../../../src/contracts/auth.ts';
import { DataExportSchema } from '../../../src/contracts/privacy.schemas.ts';
import {
  companies,
  notificationEvents,
  notificationOptOuts,
  users as usersTable,
} from '../../../src/server/db/schema.ts';
import { encodeForm, validCompany } from '../../helpers/registration.ts';
import { createErasureWorker } from '../../../src/server/modules/privacy/erasure.worker.ts';
import { postJson, sessionStatus, signIn, withCookie } from '../../helpers/accounts.ts';
import { readOutbox } from '../../helpers/mail.ts';
import { openSse } from '../../helpers/sse-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { adminUser, keysOf, userWithFiles } from './account-deletion-helpers.ts';

/** Deleting an account and erasing it (docs/product.md §2.14), with files on local disk. */
let t: TestApp;
let admin: SupportUser;
let base: string;
const silent = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  t = await createTestApp({ env: { REGISTRATIONS_PER_IP_PER_HOUR: '100' } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await adminUser(t);
});
afterAll(() => t.close());

const filesOnDisk = () => {
  const dir = path.join(t.dataDir, 'files', 'ticketAttachments');
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => `ticketAttachments/${f}`) : [];
};
const userRow = async (id: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/admin/users?q=`, headers: admin.headers }))
    .json<{ users: Array<{ id: string; email: string; disabled: boolean; deletion?: unknown }> }>()
    .users.find((u) => u.id === id);

describe('asking to delete the account', () => {
  it('with a wrong password changes nothing', async () => {
    const user = await supportUser(t);
    const res = await user.post('/api/account/delete', { password: 'not-my-password' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ password: AUTH_MESSAGES.currentPasswordWrong });
    expect(await sessionStatus(t, user.cookie)).toBe(200);
    expect((await userRow(user.id))?.deletion ?? null).toBeNull();
    expect((await user.post('/api/account/delete', {})).statusCode).toBe(400);
  });

  it('disables the account at once: sessions and live streams end, a Deactivation ticket, a mail, the audit', async () => {
    const user = await supportUser(t);
    const second = await signIn(t, user.email, user.password);
    const stream = await openSse(`${base}/api/support/tickets/stream?open=true`, withCookie(t, second));
    await stream.waitFor((events) => events.some((e) => e.event === 'tickets'));

    const res = await user.post('/api/account/delete', { password: user.password });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ message: string; eraseAfter: string; ticketNo: number }>();
    const days = (Date.parse(body.eraseAfter) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect(String(res.headers['set-cookie'])).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
    await Promise.race([
      stream.ended,
      new Promise((_, reject) => setTimeout(() => reject(new Error('stream still open')), 3000)),
    ]);
    for (const cookie of [user.cookie, second]) expect(await sessionStatus(t, cookie)).toBe(401);
    expect((await postJson(t, '/api/auth/login', { email: user.email, password: user.password })).statusCode).toBe(401);

    const tickets = await admin.get(`/api/admin/support/tickets?open=true&q=${body.ticketNo}`);
    const [ticket] = tickets.json<{ tickets: Array<{ id: string; reason: string; userEmail: string }> }>().tickets;
    expect(ticket).toMatchObject({ reason: 'Deactivation', userEmail: user.email });
    const thread = await admin.get(`/api/admin/support/tickets/${ticket!.id}`);
    expect(thread.body).toContain('I asked to delete my account on');

    await t.app.mailWorker.runOnce();
    const mails = (await readOutbox(t.dataDir)).filter((m) => m.to === user.email);
    expect(mails.map((m) => m.subject)).toEqual([`Your ${t.config.companyName} account is closed`]);
    // The team answers and closes the Deactivation ticket: nothing more is mailed to the closed account.
    await admin.post(`/api/admin/support/tickets/${ticket!.id}/messages`, {
      messageBody: 'Done, sorry to see you go.',
    });
    await admin.post(`/api/admin/support/tickets/${ticket!.id}/close`);
    await t.database.db.update(notificationEvents).set({ dueAt: sql`now()` });
    await t.app.mailWorker.runOnce();
    expect((await readOutbox(t.dataDir)).filter((m) => m.to === user.email)).toHaveLength(1);
    expect(await userRow(user.id)).toMatchObject({ disabled: true, deletion: { erasedAt: null } });
    // An admin cannot enable it again.
    const enable = await admin.post(`/api/admin/users/${user.id}/enable`);
    expect(enable.statusCode).toBe(409);
    expect(enable.json().error.message).toBe(DELETION_TEXT.cannotEnable);
  });

  it('is refused to an admin, and the admin route refuses accounts that did not ask and the admin’s own', async () => {
    const other = await supportUser(t, { role: 'admin' });
    const res = await other.post('/api/account/delete', { password: other.password });
    expect(res.statusCode).toBe(403);
    expect(await sessionStatus(t, other.cookie)).toBe(200);
    const bystander = await supportUser(t);
    const notAsked = await admin.post(`/api/admin/users/${bystander.id}/erase`);
    expect(notAsked.statusCode).toBe(409);
    expect(notAsked.json().error.message).toBe(DELETION_TEXT.eraseNotRequested);
    expect((await admin.post(`/api/admin/users/${admin.id}/erase`)).statusCode).toBe(403);
    expect(await t.app.erasureWorker.runOnce()).toBe(0);
    expect(await sessionStatus(t, bystander.cookie)).toBe(200);
  });
});

describe('erasure', () => {
  it('erases the person: address and password, files gone, kept tickets as Deleted user, others gone', async () => {
    const { user, tickets } = await userWithFiles(t, admin);
    const [kept, dropped] = tickets as [(typeof tickets)[0], (typeof tickets)[0]];
    const bystander = await supportUser(t);
    await bystander.createTicket('General', 'Unrelated question.');
    const exportBefore = DataExportSchema.parse((await bystander.get('/api/account/export')).json());
    const keep = await admin.post(`/api/admin/support/tickets/${kept.ticketId}/keep-for-record`, { keep: true });
    expect(keep.statusCode, keep.body).toBe(200);
    expect(keep.json().ticket.keepForRecord).toBe(true);
    expect(keysOf(filesOnDisk(), kept.attachmentId)).toHaveLength(2);
    // A partner application with their address as its contact, and a mail setting of theirs.
    const company = { ...validCompany(), contactPersonEmail: user.email.toUpperCase() };
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/companies', ...(await encodeForm(company)) })).statusCode,
    ).toBe(201);
    await t.app.inject({
      method: 'PUT',
      url: '/api/account/notifications',
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: { ticketReplies: false },
    });

    expect((await user.post('/api/account/delete', { password: user.password })).statusCode).toBe(200);
    expect(await t.app.erasureWorker.runOnce()).toBe(0); // not due for 30 days
    const now = await admin.post(`/api/admin/users/${user.id}/erase`);
    expect(now.statusCode, now.body).toBe(200);
    await t.app.erasureWorker.runOnce();

    expect(await userRow(user.id)).toMatchObject({ email: ERASED_USER, deletion: { erasedAt: expect.any(String) } });
    const login = await postJson(t, '/api/auth/login', { email: user.email, password: user.password });
    expect(login.statusCode).toBe(401);
    const erasedLogin = await postJson(t, '/api/auth/login', { email: erasedEmail(user.id), password: '!' });
    expect(erasedLogin.statusCode).toBe(401);
    for (const ticket of tickets) expect(keysOf(filesOnDisk(), ticket.attachmentId)).toEqual([]);

    const keptView = await admin.get(`/api/admin/support/tickets/${kept.ticketId}`);
    expect(keptView.statusCode).toBe(200);
    expect(keptView.body).toContain(ERASED_USER);
    expect(keptView.body).not.toContain(user.email);
    const messages = await admin.get(`/api/admin/support/tickets/${kept.ticketId}`);
    expect(messages.body).toContain('Photo');
    expect(messages.body).not.toContain(kept.attachmentId);
    expect((await admin.get(`/api/admin/support/tickets/${dropped.ticketId}`)).statusCode).toBe(404);
    const search = await admin.get(`/api/admin/support/tickets?q=${encodeURIComponent(user.email)}`);
    expect(search.json().tickets).toEqual([]);

    const outbox = await admin.get(`/api/admin/mail?q=${encodeURIComponent(user.email)}`);
    expect(outbox.body).not.toContain(user.email);
    const audit = await admin.get(`/api/admin/audit?targetType=user&targetId=${user.id}`);
    expect(audit.body).not.toContain(user.email);
    expect(audit.body).toContain('account.erased');
    const [application] = await t.database.db
      .select({
        companyName: companies.companyName,
        name: companies.contactPersonName,
        email: companies.contactPersonEmail,
        phone: companies.contactPersonPhoneNumber,
      })
      .from(companies)
      .where(eq(companies.phoneNumber, company.phoneNumber));
    expect(application).toEqual({ companyName: company.companyName, name: null, email: null, phone: null });
    const left = await t.database.db
      .select({ n: count() })
      .from(notificationOptOuts)
      .where(eq(notificationOptOuts.userId, user.id));
    expect(left[0]!.n).toBe(0);
    const exportAfter = DataExportSchema.parse((await bystander.get('/api/account/export')).json());
    expect({ ...exportAfter, exportedAt: '', sessions: [] }).toEqual({ ...exportBefore, exportedAt: '', sessions: [] });
  });

  it('a side conversation the team had with them about another ticket stays, without their address, closed', async () => {
    const traveller = await supportUser(t);
    const customer = await supportUser(t);
    const { ticketId } = await customer.createTicket('General', 'Did the traveller take my parcel?');
    const started = await admin.post(`/api/admin/support/tickets/${ticketId}/side-conversations`, {
      to: traveller.email.toUpperCase(),
      subject: 'The parcel to Nelson',
      messageBody: 'Did you take the parcel on your flight?',
    });
    expect(started.statusCode, started.body).toBe(200);
    expect((await traveller.post('/api/account/delete', { password: traveller.password })).statusCode).toBe(200);
    expect((await admin.post(`/api/admin/users/${traveller.id}/erase`)).statusCode).toBe(200);
    await t.app.erasureWorker.runOnce();

    const sides = await admin.get(`/api/admin/support/tickets/${ticketId}/side-conversations`);
    expect(sides.body).not.toContain(traveller.email);
    expect(sides.json().conversations).toMatchObject([
      {
        counterpart: ERASED_USER,
        state: 'closed',
        subject: 'The parcel to Nelson',
        messages: [{ body: 'Did you take the parcel on your flight?' }],
      },
    ]);
    const audit = await admin.get(`/api/admin/audit`);
    expect(audit.body).not.toContain(traveller.email);
  });

  it('an account that cannot be erased stays due, is retried, and does not hold up the others', async () => {
    const [stuck, next] = [await supportUser(t), await supportUser(t)];
    for (const user of [stuck, next]) {
      expect((await user.post('/api/account/delete', { password: user.password })).statusCode).toBe(200);
    }
    // Another row already holds the address the stuck account would get: its erasure fails (unique email).
    const squatter = await supportUser(t);
    await t.database.db
      .update(usersTable)
      .set({ email: erasedEmail(stuck.id) })
      .where(eq(usersTable.id, squatter.id));
    await t.database.db
      .update(usersTable)
      .set({ eraseAfter: sql`now() - interval '1 minute'` })
      .where(eq(usersTable.id, stuck.id));
    await t.database.db
      .update(usersTable)
      .set({ eraseAfter: sql`now()` })
      .where(eq(usersTable.id, next.id));
    const errors: unknown[] = [];
    const worker = createErasureWorker({
      db: t.database.db,
      storage: { delete: async () => {} },
      log: { ...silent, error: (details: object) => errors.push(details) },
      pollMs: 60_000,
    });
    expect(await worker.runOnce()).toBe(1);
    expect(errors).toHaveLength(1);
    expect(await userRow(next.id)).toMatchObject({ email: ERASED_USER });
    expect(await userRow(stuck.id)).toMatchObject({ email: stuck.email, deletion: { erasedAt: null } });
    await t.database.db.update(usersTable).set({ email: squatter.email }).where(eq(usersTable.id, squatter.id));
    expect(await worker.runOnce()).toBe(1);
    expect(await userRow(stuck.id)).toMatchObject({ email: ERASED_USER });
  });

  it('two workers at once erase each due account once, without errors', async () => {
    const users = await Promise.all([1, 2, 3, 4].map(() => userWithFiles(t, admin)));
    for (const { user } of users) {
      expect((await user.post('/api/account/delete', { password: user.password })).statusCode).toBe(200);
    }
    // Due now, without waking the app's own worker: only the two below take them.
    const ids = users.map(({ user }) => user.id);
    await t.database.db
      .update(usersTable)
      .set({ eraseAfter: sql`now()` })
      .where(inArray(usersTable.id, ids));
    const errors: unknown[] = [];
    const log = { ...silent, error: (details: object) => errors.push(details) };
    const workers = [1, 2].map(() =>
      createErasureWorker({ db: t.database.db, storage: { delete: async () => {} }, log, pollMs: 60_000 }),
    );
    const counts = await Promise.all(workers.map((w) => w.runOnce()));
    expect(counts[0]! + counts[1]!).toBe(users.length);
    expect(errors).toEqual([]);
    for (const { user } of users) {
      const row = await userRow(user.id);
      expect(row).toMatchObject({ email: ERASED_USER });
    }
    const audit = await admin.get('/api/admin/audit?targetType=user');
    for (const { user } of users) {
      const entries = audit
        .json<{ entries: Array<{ action: string; targetId: string }> }>()
        .entries.filter((e) => e.targetId === user.id && e.action === 'account.erased');
      expect(entries).toHaveLength(1);
    }
  });
});
