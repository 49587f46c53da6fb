import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../../src/contracts/account.ts';
import { AUTH_MESSAGES } from '../../../src/contracts/auth.ts';
import { sessions, users } from '../../../src/server/db/schema.ts';
import {
  createUser,
  postJson,
  sessionStatus,
  signIn,
  strongPassword,
  uniqueEmail,
  withCookie,
} from '../../helpers/accounts.ts';
import { linkIn, tokenFrom, waitForMail, waitForMails } from '../../helpers/mail.ts';
import { openSse } from '../../helpers/sse-client.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** /api/account: the profile, the sessions list and signing sessions out, and the email change (docs/product.md §2.13). */

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: withCookie(t, cookie) });
const signInFrom = async (email: string, password: string, userAgent: string, ip: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    headers: { 'content-type': 'application/json', 'user-agent': userAgent },
    remoteAddress: ip,
  });
  expect(res.statusCode).toBe(200);
  return res.cookies.find((c) => c.name === t.config.sessions.cookieName)!.value;
};
type Listed = {
  id: string;
  device: string;
  place: string | null;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
};
const listSessions = async (cookie: string) => {
  const res = await get('/api/account/sessions', cookie);
  expect(res.statusCode).toBe(200);
  return (res.json() as { sessions: Listed[] }).sessions;
};

describe('the profile', () => {
  it('shows email, verified and member since, and needs a session', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    const res = await get('/api/account', cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      email: user.email,
      name: null,
      emailVerified: true,
      role: 'user',
      memberSince: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      pendingEmail: null,
    });
    expect(res.headers['cache-control']).toBe('no-store');
    expect((await t.app.inject({ method: 'GET', url: '/api/account' })).statusCode).toBe(401);
  });
});

describe('sessions', () => {
  it('lists browser and system, the network prefix (never the address), and flags this one; ids are not the key', async () => {
    const user = await createUser(t);
    const desk = await signInFrom(user.email, user.password, FIREFOX, '203.0.113.77');
    const phone = await signInFrom(user.email, user.password, IPHONE, '2001:db8:85a3:1234::9');
    const listed = await listSessions(desk);
    expect(listed).toHaveLength(2);
    const mine = listed.find((s) => s.current)!;
    const other = listed.find((s) => !s.current)!;
    expect(mine).toMatchObject({ device: 'Firefox 128 on Windows 10', place: '203.0.113.0/24' });
    expect(other).toMatchObject({ device: 'Safari 17 on iOS 17.5', place: '2001:db8:85a3::/48' });
    const body = JSON.stringify(listed);
    expect(body).not.toContain('203.0.113.77');
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    for (const row of rows) expect(body).not.toContain(row.tokenHash);
    for (const token of [desk, phone]) {
      expect(body).not.toContain(token);
      expect(body).not.toContain(createHash('sha256').update(token).digest('hex'));
    }
    expect(rows.map((r) => r.ipPrefix).sort()).toEqual(['2001:db8:85a3::/48', '203.0.113.0/24']);
  });

  it("signs one other device out, and its live stream gets 'ended' and closes while this one's stays open", async () => {
    const user = await createUser(t);
    const desk = await signInFrom(user.email, user.password, FIREFOX, '198.51.100.4');
    const phone = await signInFrom(user.email, user.password, IPHONE, '198.51.100.5');
    const phoneStream = await openSse(`${base}/api/support/tickets/stream?open=true`, withCookie(t, phone));
    const deskStream = await openSse(`${base}/api/support/tickets/stream?open=true`, withCookie(t, desk));
    await phoneStream.waitFor((events) => events.some((e) => e.event === 'tickets'));
    await deskStream.waitFor((events) => events.some((e) => e.event === 'tickets'));

    const other = (await listSessions(desk)).find((s) => !s.current)!;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/account/sessions/${other.id}`,
      headers: withCookie(t, desk),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: ACCOUNT_MESSAGES.sessionEnded });
    expect(await sessionStatus(t, phone)).toBe(401);
    expect(await sessionStatus(t, desk)).toBe(200);
    // Heartbeats come every 15 s: a stream that ends now was ended by the sessions.ended event.
    await Promise.race([
      phoneStream.ended,
      new Promise((_, reject) => setTimeout(() => reject(new Error('the ended session’s stream is still open')), 3000)),
    ]);
    expect(phoneStream.events.map((e) => e.event)).toContain('ended');
    expect(deskStream.events.map((e) => e.event)).not.toContain('ended');
    const stillOpen = await Promise.race([deskStream.ended.then(() => false), Promise.resolve(true)]);
    expect(stillOpen).toBe(true);
    phoneStream.close();
    deskStream.close();

    // Once ended, the same id is unknown; the session in use is ended with Sign Out instead.
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/account/sessions/${other.id}`,
      headers: withCookie(t, desk),
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe(ACCOUNT_MESSAGES.sessionNotFound);
    const current = (await listSessions(desk)).find((s) => s.current)!;
    const self = await t.app.inject({
      method: 'DELETE',
      url: `/api/account/sessions/${current.id}`,
      headers: withCookie(t, desk),
    });
    expect(self.statusCode).toBe(400);
    expect(self.json().error.message).toBe(ACCOUNT_MESSAGES.sessionIsCurrent);
    expect(await sessionStatus(t, desk)).toBe(200);
  });

  it("cannot end another account's session, even knowing its id", async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const aliceCookie = await signIn(t, alice.email, alice.password);
    const bobCookie = await signIn(t, bob.email, bob.password);
    const bobsId = (await listSessions(bobCookie))[0]!.id;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/account/sessions/${bobsId}`,
      headers: withCookie(t, aliceCookie),
    });
    expect(res.statusCode).toBe(404);
    expect(await sessionStatus(t, bobCookie)).toBe(200);
  });

  it('signs out everywhere else, keeping this session', async () => {
    const user = await createUser(t);
    const cookies = [];
    for (let i = 0; i < 3; i++) cookies.push(await signIn(t, user.email, user.password));
    const res = await postJson(t, '/api/account/sessions/revoke-others', {}, withCookie(t, cookies[0]!));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: ACCOUNT_MESSAGES.otherSessionsEnded(2), ended: 2 });
    expect(await Promise.all(cookies.map((c) => sessionStatus(t, c)))).toEqual([200, 401, 401]);
    const none = await postJson(t, '/api/account/sessions/revoke-others', {}, withCookie(t, cookies[0]!));
    expect(none.json()).toEqual({ message: ACCOUNT_MESSAGES.otherSessionsEnded(0), ended: 0 });
  });
});

describe('changing the email address', () => {
  it('mails a link to the new address and a notice to the old; sign-in uses the old address until the link is followed', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    const other = await signIn(t, user.email, user.password);
    const newEmail = uniqueEmail('moved');
    const res = await postJson(
      t,
      '/api/account/email',
      { newEmail: newEmail.toUpperCase(), currentPassword: user.password },
      withCookie(t, cookie),
    );
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: ACCOUNT_MESSAGES.emailChangeRequested });
    const [link] = await waitForMails(t.dataDir, newEmail);
    expect(link!.subject).toBe('Confirm your new email address for Bagspace');
    const notice = await waitForMail(t.dataDir, user.email, 'Your Bagspace email address may change');
    expect(notice.text).toContain(newEmail);
    expect((await get('/api/account', cookie)).json()).toMatchObject({ email: user.email, pendingEmail: newEmail });

    // Not yet: the old address still signs in, the new one does not.
    expect(await signIn(t, user.email, user.password)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await postJson(t, '/api/auth/login', { email: newEmail, password: user.password })).statusCode).toBe(401);

    const token = tokenFrom(linkIn(link!, `${t.config.publicBaseUrl}/confirm-email?token=`));
    const confirmed = await postJson(t, '/api/auth/confirm-email-change', { token });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ message: ACCOUNT_MESSAGES.emailChanged });
    const changed = await waitForMail(t.dataDir, user.email, 'Your Bagspace email address was changed');
    expect(changed.text).toContain(newEmail);

    expect((await get('/api/account', cookie)).json()).toMatchObject({ email: newEmail, pendingEmail: null });
    expect(await signIn(t, newEmail, user.password)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await postJson(t, '/api/auth/login', { email: user.email, password: user.password })).statusCode).toBe(401);
    // Sessions stay signed in (decision 097); the link works once.
    expect(await sessionStatus(t, other)).toBe(200);
    const twice = await postJson(t, '/api/auth/confirm-email-change', { token });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error.message).toBe(AUTH_MESSAGES.tokenInvalid);
  });

  it('needs the current password, a different address, and says which field is wrong', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    const wrong = await postJson(
      t,
      '/api/account/email',
      { newEmail: uniqueEmail(), currentPassword: strongPassword() },
      withCookie(t, cookie),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toEqual({ currentPassword: ACCOUNT_MESSAGES.currentPasswordWrong });
    const same = await postJson(
      t,
      '/api/account/email',
      { newEmail: user.email, currentPassword: user.password },
      withCookie(t, cookie),
    );
    expect(same.json().error.fields).toEqual({ newEmail: ACCOUNT_MESSAGES.sameEmail });
    const invalid = await postJson(
      t,
      '/api/account/email',
      { newEmail: 'not-an-address', currentPassword: '' },
      withCookie(t, cookie),
    );
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.fields).toMatchObject({
      newEmail: AUTH_MESSAGES.emailInvalid,
      currentPassword: ACCOUNT_MESSAGES.currentPasswordRequired,
    });
    expect((await get('/api/account', cookie)).json()).toMatchObject({ email: user.email, pendingEmail: null });
  });

  it('answers the same for an address that has an account, which is told instead and never gets a link', async () => {
    const user = await createUser(t);
    const owner = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    const res = await postJson(
      t,
      '/api/account/email',
      { newEmail: owner.email, currentPassword: user.password },
      withCookie(t, cookie),
    );
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: ACCOUNT_MESSAGES.emailChangeRequested });
    const mail = await waitForMail(t.dataDir, owner.email, 'This address already has a Bagspace account');
    expect(mail.text).not.toContain('/confirm-email');
  });

  it('refuses with a clear message when another account took the address before the link was followed', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    const newEmail = uniqueEmail('contested');
    await postJson(t, '/api/account/email', { newEmail, currentPassword: user.password }, withCookie(t, cookie));
    const [link] = await waitForMails(t.dataDir, newEmail);
    await createUser(t, { email: newEmail });
    const res = await postJson(t, '/api/auth/confirm-email-change', {
      token: tokenFrom(linkIn(link!, `${t.config.publicBaseUrl}/confirm-email?token=`)),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(ACCOUNT_MESSAGES.emailTaken);
    const [row] = await t.database.db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
    expect(row!.email).toBe(user.email);
  });

  it('a newer request withdraws the earlier link, and a changed address spends links mailed to the old one', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    const first = uniqueEmail('first');
    const second = uniqueEmail('second');
    await postJson(t, '/api/account/email', { newEmail: first, currentPassword: user.password }, withCookie(t, cookie));
    await postJson(
      t,
      '/api/account/email',
      { newEmail: second, currentPassword: user.password },
      withCookie(t, cookie),
    );
    const firstToken = tokenFrom(
      linkIn((await waitForMails(t.dataDir, first))[0]!, `${t.config.publicBaseUrl}/confirm-email`),
    );
    const secondToken = tokenFrom(
      linkIn((await waitForMails(t.dataDir, second))[0]!, `${t.config.publicBaseUrl}/confirm-email`),
    );
    expect((await postJson(t, '/api/auth/confirm-email-change', { token: firstToken })).statusCode).toBe(400);

    // A reset link mailed to the old address stops working once the account has moved.
    expect((await postJson(t, '/api/auth/forgot-password', { email: user.email })).statusCode).toBe(202);
    const reset = await waitForMail(t.dataDir, user.email, 'Reset your Bagspace password');
    expect((await postJson(t, '/api/auth/confirm-email-change', { token: secondToken })).statusCode).toBe(200);
    const resetToken = tokenFrom(linkIn(reset, `${t.config.publicBaseUrl}/reset-password`));
    const spent = await postJson(t, '/api/auth/reset-password', { token: resetToken, password: strongPassword() });
    expect(spent.statusCode).toBe(400);
  });
});

describe('guessing the password through the email change', () => {
  it('counts with failed sign-ins: past the limit it answers 429 with Retry-After, and the right password waits too', async () => {
    const strict = await createTestApp({ env: { LOGIN_FAILURES_PER_ACCOUNT: '3' } });
    try {
      const user = await createUser(strict);
      const cookie = await signIn(strict, user.email, user.password);
      const change = (currentPassword: string) =>
        postJson(
          strict,
          '/api/account/email',
          { newEmail: uniqueEmail(), currentPassword },
          withCookie(strict, cookie),
        );
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await change(strongPassword())).statusCode);
      expect(statuses).toEqual([400, 400, 400, 429]);
      const right = await change(user.password);
      expect(right.statusCode).toBe(429);
      expect(right.json().error.message).toMatch(
        /^Too many wrong passwords\. Please wait \d+ minutes? and try again\.$/,
      );
      expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
      expect(
        (await postJson(strict, '/api/auth/login', { email: user.email, password: user.password })).statusCode,
      ).toBe(429);
    } finally {
      await strict.close();
    }
  });
});
