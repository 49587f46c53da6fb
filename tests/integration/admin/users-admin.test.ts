import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

type Row = { id: string; email: string; role: string; emailVerified: boolean; disabled: boolean; self: boolean };
const find = async (q: string) => {
  const res = await admin.get(`/api/admin/users?q=${encodeURIComponent(q)}`);
  expect(res.statusCode).toBe(200);
  return res.json() as { users: Row[]; more: boolean };
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
    expect((await find(admin.email)).users).toMatchObject([{ email: admin.email, role: 'admin', self: true }]);
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
  it('makes an account admin and takes it away again; a removed admin loses the console and its live inbox at once', async () => {
    const colleague = await apiClient(t, { role: 'user' });
    expect((await colleague.get('/api/admin/audit')).statusCode).toBe(403);

    const promote = await admin.post(`/api/admin/users/${colleague.id}/role`, { role: 'admin' });
    expect(promote.json().user.role).toBe('admin');
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

    const demote = await admin.post(`/api/admin/users/${colleague.id}/role`, { role: 'user' });
    expect(demote.json().user.role).toBe('user');
    await Promise.race([
      inbox.ended,
      new Promise((_, reject) => setTimeout(() => reject(new Error('inbox stream still open')), 3000)),
    ]);
    expect((await colleague.get('/api/admin/audit')).statusCode).toBe(403);
    expect((await auditOf(admin, 'user', colleague.id)).map((e) => e.details)).toEqual([
      { email: colleague.email, from: 'admin', to: 'user' },
      { kind: 'totp', label: 'Authenticator app' },
      { email: colleague.email, from: 'user', to: 'admin' },
    ]);
  });

  it('never changes the role of the admin doing it', async () => {
    const res = await admin.post(`/api/admin/users/${admin.id}/role`, { role: 'user' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe(USER_MESSAGES.notYourOwnRole);
    expect((await find(admin.email)).users[0]!.role).toBe('admin');
  });

  it('refuses an unknown role', async () => {
    const user = await createUser(t, { email: uniqueEmail(), password: strongPassword() });
    expect((await admin.post(`/api/admin/users/${user.id}/role`, { role: 'owner' })).statusCode).toBe(400);
  });
});
