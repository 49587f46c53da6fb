import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../src/server/db/sql.ts';
import { USER_MESSAGES } from '../../../src/contracts/users.ts';
import {
  createUser,
  postJson,
  sessionStatus,
  signIn,
  strongPassword,
  uniqueEmail,
  withCookie,
} from '../../helpers/accounts.ts';
import { linkIn, readOutbox, waitForMails } from '../../helpers/mail.ts';
import { openSse } from '../../helpers/sse-client.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { apiClient, type ApiClient, auditOf } from '../../helpers/admin-client.ts';
import { SECOND_FACTOR_MESSAGES } from '../../../src/contracts/second-factor.ts';
import { totpAt } from '../../helpers/second-factor.ts';

/** The Users screen: find, resend verification, disable and enable, make or remove admin. */

let t: TestApp;
let base: string;
let admin: ApiClient;
beforeAll(async () => {
  // Heartbeats every 15 s (the default): a stream that ends sooner was ended by the sessions.ended event.
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await apiClient(t);
});
afterAll(() => t.close());

type Row = {
  id: string;
  email: string;
  role: string;
  roles: string[];
  emailVerified: boolean;
  disabled: boolean;
  self: boolean;
};
const find = async (q: string) => {
  const res = await admin.get(`/api/admin/users?q=${encodeURIComponent(q)}`);
  expect(res.statusCode).toBe(200);
  return res.json() as { users: Row[]; more: boolean; roleOptions: { auditorReadsHeldMail: boolean } };
};

describe('finding accounts', () => {
  it('finds by any part of the email, case-insensitively, with verified, role and disabled, and no secrets', async () => {
    const email = uniqueEmail('harbour-master');
    const user = await createUser(t, { email, verified: false });
    const res = await admin.get(`/api/admin/users?q=${encodeURIComponent(email.slice(0, 20).toUpperCase())}`);
    expect(res.json().users).toEqual([
      {
        id: user.id,
        email,
        role: 'user',
        roles: [],
        emailVerified: false,
        disabled: false,
        createdAt: expect.any(String),
        self: false,
        // The owner did not ask to delete it (docs/product.md §2.14).
        deletion: null,
      },
    ]);
    expect(res.json().more).toBe(false);
    expect(res.body).not.toMatch(/argon2|password/i);
    expect((await find(admin.email)).users).toMatchObject([
      { email: admin.email, role: 'admin', roles: ['admin'], self: true },
    ]);
    expect((await find('%')).users).toEqual([]);
  });
});

describe('resending verification', () => {
  it('mails a fresh link to an unverified account and is audited; refuses verified and disabled accounts', async () => {
    const unverified = await createUser(t, { verified: false });
    const res = await admin.post(`/api/admin/users/${unverified.id}/resend-verification`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(USER_MESSAGES.verificationSent(unverified.email));
    const [mail] = await waitForMails(t.dataDir, unverified.email);
    const link = linkIn(mail!, `${t.config.publicBaseUrl}/verify-email`);
    expect(
      (await postJson(t, '/api/auth/verify-email', { token: new URL(link).searchParams.get('token') })).statusCode,
    ).toBe(200);
    expect((await auditOf(admin, 'user', unverified.id))[0]).toMatchObject({
      action: 'user.resend-verification',
      details: { email: unverified.email },
    });

    const again = await admin.post(`/api/admin/users/${unverified.id}/resend-verification`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(USER_MESSAGES.alreadyVerified);

    const disabled = await createUser(t, { verified: false });
    await admin.post(`/api/admin/users/${disabled.id}/disable`);
    const mailsBefore = (await readOutbox(t.dataDir)).length;
    const refused = await admin.post(`/api/admin/users/${disabled.id}/resend-verification`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(USER_MESSAGES.disabled);
    expect((await readOutbox(t.dataDir)).length).toBe(mailsBefore);
  });
});

describe('disabling', () => {
  it('ends every session and open live stream of the account at once, and enabling lets them sign in again', async () => {
    const user = await createUser(t);
    const cookies = [await signIn(t, user.email, user.password), await signIn(t, user.email, user.password)];
    const stream = await openSse(`${base}/api/support/tickets/stream?open=true`, withCookie(t, cookies[0]!));
    expect(stream.status).toBe(200);
    await stream.waitFor((events) => events.some((e) => e.event === 'tickets'));

    const res = await admin.post(`/api/admin/users/${user.id}/disable`);
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ id: user.id, disabled: true });
    for (const cookie of cookies) expect(await sessionStatus(t, cookie)).toBe(401);
    // The stream closes within moments, long before its 15 s heartbeat.
    await Promise.race([
      stream.ended,
      new Promise((_, reject) => setTimeout(() => reject(new Error('stream still open')), 3000)),
    ]);
    expect((await postJson(t, '/api/auth/login', { email: user.email, password: user.password })).statusCode).not.toBe(
      200,
    );
    expect((await auditOf(admin, 'user', user.id))[0]).toMatchObject({
      action: 'user.disable',
      details: { email: user.email, endedSessions: 2 },
    });

    const enable = await admin.post(`/api/admin/users/${user.id}/enable`);
    expect(enable.json().user.disabled).toBe(false);
    expect(await sessionStatus(t, await signIn(t, user.email, user.password))).toBe(200);
    expect((await auditOf(admin, 'user', user.id))[0]!.action).toBe('user.enable');
  });

  it('never disables the admin doing it', async () => {
    const res = await admin.post(`/api/admin/users/${admin.id}/disable`);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe(USER_MESSAGES.notYourself);
    expect(await sessionStatus(t, admin.cookie)).toBe(200);
  });

  it('answers 404 for an unknown account', async () => {
    expect((await admin.post('/api/admin/users/0b7c6a9e-1f2d-4e3c-8b5a-6d7e8f9a0b1c/disable')).statusCode).toBe(404);
  });
});

describe('signing out everywhere', () => {
  it('ends every session and live stream of the account at once, and they can sign in again', async () => {
    const user = await createUser(t);
    const cookies = [await signIn(t, user.email, user.password), await signIn(t, user.email, user.password)];
    const stream = await openSse(`${base}/api/support/tickets/stream?open=true`, withCookie(t, cookies[0]!));
    expect(stream.status).toBe(200);
    await stream.waitFor((events) => events.some((e) => e.event === 'tickets'));

    const res = await admin.post(`/api/admin/users/${user.id}/sign-out`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      user: { id: user.id, disabled: false },
      message: USER_MESSAGES.signedOut(user.email, 2),
    });
    for (const cookie of cookies) expect(await sessionStatus(t, cookie)).toBe(401);
    // The stream closes within moments (the sessions.ended event), long before its 15 s heartbeat.
    await Promise.race([
      stream.ended,
      new Promise((_, reject) => setTimeout(() => reject(new Error('stream still open')), 3000)),
    ]);
    expect((await auditOf(admin, 'user', user.id))[0]).toMatchObject({
      action: 'user.sign-out',
      details: { email: user.email, endedSessions: 2 },
    });
    // Not disabled: the person signs in again.
    expect(await sessionStatus(t, await signIn(t, user.email, user.password))).toBe(200);
  });

  it('leaves the admin doing it to their account page, and answers 404 for an unknown account', async () => {
    const own = await admin.post(`/api/admin/users/${admin.id}/sign-out`);
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toBe(USER_MESSAGES.notYourSessions);
    expect(await sessionStatus(t, admin.cookie)).toBe(200);
    expect((await admin.post('/api/admin/users/0b7c6a9e-1f2d-4e3c-8b5a-6d7e8f9a0b1c/sign-out')).statusCode).toBe(404);
  });
});

describe('roles', () => {
  it('gives an account the admin role and takes it away again; a removed admin loses the console and its live inbox at once', async () => {
    const colleague = await apiClient(t, { role: 'user' });
    expect((await colleague.get('/api/admin/audit')).statusCode).toBe(403);

    const promote = await admin.post(`/api/admin/users/${colleague.id}/roles`, { roles: ['admin'] });
    expect(promote.json().user).toMatchObject({ role: 'admin', roles: ['admin'] });
    expect(promote.json().message).toBe(USER_MESSAGES.rolesSaved(colleague.email));
    // The new admin's session has not passed a second factor (docs/product.md §2.15): the console
    // stays shut until they set one up, which this very session may do.
    const shut = await colleague.get('/api/admin/audit');
    expect([shut.statusCode, shut.json().error.message]).toEqual([403, SECOND_FACTOR_MESSAGES.enrolRequired]);
    const enrolment = await colleague.post('/api/admin/second-factor/totp');
    expect(enrolment.statusCode, enrolment.body).toBe(200);
    const confirmed = await colleague.post('/api/admin/second-factor/totp/confirm', {
      factorId: enrolment.json().factorId,
      code: await totpAt(enrolment.json().secret),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await colleague.get('/api/admin/audit')).statusCode).toBe(200);
    const inbox = await openSse(`${base}/api/admin/support/tickets/stream?open=true`, colleague.headers);
    expect(inbox.status).toBe(200);
    await inbox.waitFor((events) => events.some((e) => e.event === 'tickets'));

    const demote = await admin.post(`/api/admin/users/${colleague.id}/roles`, { roles: [] });
    expect(demote.json().user).toMatchObject({ role: 'user', roles: [] });
    await Promise.race([
      inbox.ended,
      new Promise((_, reject) => setTimeout(() => reject(new Error('inbox stream still open')), 3000)),
    ]);
    expect((await colleague.get('/api/admin/audit')).statusCode).toBe(403);
    expect((await auditOf(admin, 'user', colleague.id)).map((e) => [e.action, e.details])).toEqual([
      ['user.roles', { email: colleague.email, from: ['admin'], to: [] }],
      ['admin.second-factor.enrolled', { kind: 'totp', label: 'Authenticator app' }],
      ['user.roles', { email: colleague.email, from: [], to: ['admin'] }],
    ]);
  });

  it('takes a new role on the next request, and closes the live streams it no longer opens', async () => {
    const person = await apiClient(t, { roles: ['agent'] });
    // An agent: the inbox, not the partner applications or the accounts.
    expect((await person.get('/api/admin/support/tickets')).statusCode).toBe(200);
    expect((await person.get('/api/admin/companies')).statusCode).toBe(403);
    expect((await person.get('/api/admin/users')).statusCode).toBe(403);
    const inbox = await openSse(`${base}/api/admin/support/tickets/stream?open=true`, person.headers);
    expect(inbox.status).toBe(200);
    await inbox.waitFor((events) => events.some((e) => e.event === 'tickets'));

    // Now a partner reviewer only: applications open, the inbox (and its stream) shut.
    const changed = await admin.post(`/api/admin/users/${person.id}/roles`, { roles: ['partner-reviewer'] });
    expect(changed.json().user.roles).toEqual(['partner-reviewer']);
    await Promise.race([
      inbox.ended,
      new Promise((_, reject) => setTimeout(() => reject(new Error('inbox stream still open')), 3000)),
    ]);
    expect((await person.get('/api/admin/support/tickets')).statusCode).toBe(403);
    expect((await person.get('/api/admin/companies')).statusCode).toBe(200);

    // Several roles at once: what either allows.
    await admin.post(`/api/admin/users/${person.id}/roles`, { roles: ['partner-reviewer', 'lead'] });
    expect((await person.get('/api/admin/support/tickets')).statusCode).toBe(200);
    expect((await person.get('/api/admin/companies')).statusCode).toBe(200);
    expect((await find(person.email)).users[0]).toMatchObject({ roles: ['lead', 'partner-reviewer'] });
  });

  it('lets an admin change their own roles, but the last admin keeps theirs', async () => {
    const addLead = await admin.post(`/api/admin/users/${admin.id}/roles`, { roles: ['admin', 'lead'] });
    expect(addLead.statusCode, addLead.body).toBe(200);
    // Every other enabled admin of this database gives the role up (the admin doing it stays).
    const others = await queryRows<{ id: string }>(
      t.database.db,
      sql`select u.id from users u join staff_roles r on r.user_id = u.id and r.role = 'admin'
          where u.disabled_at is null and u.id <> ${admin.id}::uuid`,
    );
    for (const { id } of others) {
      const res = await admin.post(`/api/admin/users/${id}/roles`, { roles: ['agent'] });
      expect(res.statusCode, res.body).toBe(200);
    }
    const alone = await admin.post(`/api/admin/users/${admin.id}/roles`, { roles: ['lead'] });
    expect(alone.statusCode).toBe(403);
    expect(alone.json().error.message).toBe(USER_MESSAGES.lastAdmin);
    expect((await find(admin.email)).users[0]!.roles).toEqual(['admin', 'lead']);

    // With a second admin, giving it up is allowed: the users page is then shut to them.
    const successor = await apiClient(t, { roles: ['agent'] });
    expect((await admin.post(`/api/admin/users/${successor.id}/roles`, { roles: ['admin'] })).statusCode).toBe(200);
    expect((await admin.post(`/api/admin/users/${admin.id}/roles`, { roles: ['lead'] })).statusCode).toBe(200);
    expect((await admin.get('/api/admin/users')).statusCode).toBe(403);
    expect((await admin.get('/api/admin/support/tickets')).statusCode).toBe(200);
    // Put back for the tests after this one.
    expect((await successor.post(`/api/admin/users/${admin.id}/roles`, { roles: ['admin'] })).statusCode).toBe(200);
  });

  it('lets auditors read held mail whole only when the admin allows it', async () => {
    const auditor = await apiClient(t, { roles: ['auditor'] });
    const lead = await apiClient(t, { roles: ['lead'] });
    // An id that is no mail: 404 once past the access check, 403 when the role may not read held mail.
    const held = (who: ApiClient) => who.get('/api/admin/mail/incoming/987654321');
    expect((await auditor.get('/api/admin/mail/incoming')).statusCode).toBe(200);
    expect((await held(auditor)).statusCode).toBe(403);
    expect((await held(lead)).statusCode).toBe(404);
    expect((await find(auditor.email)).roleOptions).toEqual({ auditorReadsHeldMail: false });

    const allowed = await admin.put('/api/admin/role-options', { auditorReadsHeldMail: true });
    expect(allowed.json()).toEqual({ auditorReadsHeldMail: true });
    // The auditor's next request reads it; writing stays shut.
    expect((await held(auditor)).statusCode).toBe(404);
    expect((await auditor.post('/api/admin/mail/incoming/987654321/discard')).statusCode).toBe(403);
    expect((await auditor.put('/api/admin/role-options', { auditorReadsHeldMail: true })).statusCode).toBe(403);

    await admin.put('/api/admin/role-options', { auditorReadsHeldMail: false });
    expect((await held(auditor)).statusCode).toBe(403);
    expect((await auditOf(admin, 'settings', 'staff/role-options')).map((e) => e.details)).toEqual([
      { auditorReadsHeldMail: false },
      { auditorReadsHeldMail: true },
    ]);
  });

  it('refuses an unknown role, or one twice', async () => {
    const user = await createUser(t, { email: uniqueEmail(), password: strongPassword() });
    expect((await admin.post(`/api/admin/users/${user.id}/roles`, { roles: ['owner'] })).statusCode).toBe(400);
    const twice = await admin.post(`/api/admin/users/${user.id}/roles`, { roles: ['agent', 'agent'] });
    expect(twice.statusCode).toBe(400);
    expect((await find(user.email)).users[0]!.roles).toEqual([]);
  });
});
