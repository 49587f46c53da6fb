import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../../src/contracts/auth.ts';
import { sessions, users } from '../../../src/server/db/schema.ts';
import { createAccountAdmin } from '../../../src/server/modules/accounts/accounts.admin.service.ts';
import { createAccountsRepository } from '../../../src/server/modules/accounts/accounts.repository.ts';
import { createUser, postJson, sessionCookieOf, sessionStatus, signIn, withCookie } from '../../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const admin = () => createAccountAdmin(createAccountsRepository(t.database.db));

describe('the session cookie', () => {
  it('on plain-http localhost is `session`: HttpOnly, SameSite=Lax, Path=/, no Secure, no Domain', async () => {
    const user = await createUser(t);
    const res = await postJson(t, '/api/auth/login', { email: user.email, password: user.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: { id: user.id, email: user.email, role: 'user', emailVerified: true } });
    const raw = String(res.headers['set-cookie']);
    expect(raw).toMatch(/^session=[A-Za-z0-9_-]{43};/);
    expect(raw).toContain('HttpOnly');
    expect(raw).toContain('SameSite=Lax');
    expect(raw).toContain('Path=/');
    expect(raw).not.toMatch(/Secure|Domain=/i);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('behind https is `__Host-session` with Secure (and still HttpOnly, SameSite=Lax, Path=/, no Domain)', async () => {
    const https = await createTestApp({ env: { PUBLIC_BASE_URL: 'https://bagspace.example.nz' } });
    try {
      const user = await createUser(https);
      const res = await postJson(https, '/api/auth/login', { email: user.email, password: user.password });
      expect(res.statusCode).toBe(200);
      const raw = String(res.headers['set-cookie']);
      expect(raw).toMatch(/^__Host-session=[A-Za-z0-9_-]{43};/);
      for (const attribute of ['Secure', 'HttpOnly', 'SameSite=Lax', 'Path=/']) expect(raw).toContain(attribute);
      expect(raw).not.toMatch(/Domain=/i);
      const cookie = sessionCookieOf(https, res)!.value;
      const me = await https.app.inject({
        method: 'GET',
        url: '/api/auth/session',
        headers: { cookie: `__Host-session=${cookie}` },
      });
      expect(me.statusCode).toBe(200);
    } finally {
      await https.close();
    }
  });

  it('holds an opaque 256-bit token of which only the SHA-256 is stored', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(cookie, 'base64url')).toHaveLength(32);
    expect(cookie).not.toContain(user.id);
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows.map((r) => r.tokenHash)).toEqual([sha256(cookie)]);
    expect(JSON.stringify(rows)).not.toContain(cookie);
  });

  it('is never sent in a JSON body to the website', async () => {
    const user = await createUser(t);
    const res = await postJson(t, '/api/auth/login', { email: user.email, password: user.password });
    expect(res.body).not.toContain(sessionCookieOf(t, res)!.value);
  });
});

describe('sessions', () => {
  it('are rotated at sign-in: a new token each time, and the session of the cookie sent along is ended', async () => {
    const user = await createUser(t);
    const first = await signIn(t, user.email, user.password);
    const second = await signIn(t, user.email, user.password, withCookie(t, first));
    expect(second).not.toBe(first);
    expect(await sessionStatus(t, first)).toBe(401);
    expect(await sessionStatus(t, second)).toBe(200);
  });

  it('survive a failed sign-in attempt made with them', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    const res = await postJson(t, '/api/auth/login', { email: user.email, password: 'not-it' }, withCookie(t, cookie));
    expect(res.statusCode).toBe(401);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await sessionStatus(t, cookie)).toBe(200);
  });

  it('never adopt a token chosen by the client', async () => {
    const user = await createUser(t);
    const planted = 'A'.repeat(43);
    const res = await postJson(
      t,
      '/api/auth/login',
      { email: user.email, password: user.password },
      withCookie(t, planted),
    );
    expect(sessionCookieOf(t, res)!.value).not.toBe(planted);
    expect(await sessionStatus(t, planted)).toBe(401);
  });

  it('end at sign-out: the old cookie is refused afterwards and the browser is told to forget it', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    expect(await sessionStatus(t, cookie)).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: withCookie(t, cookie) });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^session=;.*Max-Age=0|Expires=Thu, 01 Jan 1970/);
    expect(await sessionStatus(t, cookie)).toBe(401);
    const rows = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(cookie)));
    expect(rows).toEqual([]);
  });

  it('end after the idle limit (60 minutes by default) and the row is deleted', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    await t.database.db
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '59 minutes'` })
      .where(eq(sessions.tokenHash, sha256(cookie)));
    expect(await sessionStatus(t, cookie)).toBe(200);
    // That request counted as activity, so the clock starts again.
    const [touched] = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(cookie)));
    expect(Date.now() - touched!.lastSeenAt.getTime()).toBeLessThan(60_000);
    await t.database.db
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '61 minutes'` })
      .where(eq(sessions.tokenHash, sha256(cookie)));
    expect(await sessionStatus(t, cookie)).toBe(401);
    expect(
      await t.database.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, sha256(cookie))),
    ).toEqual([]);
  });

  it('end at the absolute limit (12 hours by default) however active they are', async () => {
    const user = await createUser(t);
    const res = await postJson(t, '/api/auth/login', { email: user.email, password: user.password });
    const cookie = sessionCookieOf(t, res)!;
    expect(cookie.maxAge).toBe(12 * 3600);
    const [row] = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(cookie.value)));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(12 * 3600 * 1000);
    await t.database.db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessions.tokenHash, sha256(cookie.value)));
    expect(await sessionStatus(t, cookie.value)).toBe(401);
    expect(
      await t.database.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, sha256(cookie.value))),
    ).toEqual([]);
  });

  it('take their lifetimes from SESSION_IDLE_MINUTES and SESSION_ABSOLUTE_HOURS', async () => {
    const custom = await createTestApp({ env: { SESSION_IDLE_MINUTES: '5', SESSION_ABSOLUTE_HOURS: '1' } });
    try {
      const user = await createUser(custom);
      const res = await postJson(custom, '/api/auth/login', { email: user.email, password: user.password });
      const cookie = sessionCookieOf(custom, res)!;
      expect(cookie.maxAge).toBe(3600);
      await custom.database.db.update(sessions).set({ lastSeenAt: sql`now() - interval '6 minutes'` });
      expect(await sessionStatus(custom, cookie.value)).toBe(401);
    } finally {
      await custom.close();
    }
  });

  it('read role and verification from the database on every request', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    const me = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: withCookie(t, cookie) })).json().user;
    expect(await me()).toMatchObject({ role: 'user', emailVerified: true });
    await t.database.db.update(users).set({ role: 'admin', emailVerifiedAt: null }).where(eq(users.id, user.id));
    expect(await me()).toMatchObject({ role: 'admin', emailVerified: false });
  });

  it('end when the user is disabled, and a disabled user cannot sign in', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    await admin().disableUser({ email: user.email });
    expect(await sessionStatus(t, cookie)).toBe(401);
    const again = await postJson(t, '/api/auth/login', { email: user.email, password: user.password });
    expect(again.statusCode).toBe(401);
    expect(again.json().error.message).toBe(AUTH_MESSAGES.invalidCredentials);
  });

  it('refuse unknown, malformed and empty tokens', async () => {
    for (const value of ['', 'nonsense', 'B'.repeat(43), `${'C'.repeat(42)}%`]) {
      expect(await sessionStatus(t, value)).toBe(401);
    }
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/session' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: { status: 'UNAUTHENTICATED', message: expect.any(String) } });
  });
});

describe('API clients (Authorization: Bearer)', () => {
  it('get the token in the body when they ask for one, and no cookie', async () => {
    const user = await createUser(t);
    const res = await postJson(t, '/api/auth/login', { email: user.email, password: user.password, session: 'token' });
    expect(res.statusCode).toBe(200);
    const { session } = res.json();
    expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Date(session.expiresAt).getTime()).toBeGreaterThan(Date.now() + 11 * 3600 * 1000);
    expect(res.headers['set-cookie']).toBeUndefined();

    const bearer = { authorization: `Bearer ${session.token}` };
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: bearer });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe(user.email);
    expect(me.headers['cache-control']).toBe('no-store');

    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: bearer })).statusCode).toBe(401);
  });

  it('are refused with a wrong scheme or a bad token', async () => {
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', `Bearer ${'D'.repeat(43)}`]) {
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { authorization } })).statusCode,
      ).toBe(401);
    }
  });
});

describe('pages for a signed-in user', () => {
  it('are not cached, and carry no session token in the HTML', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: withCookie(t, cookie) });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).not.toContain(cookie);
  });
});

describe('the API description', () => {
  it('documents every account route in /api/openapi.json', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    for (const path of [
      'login',
      'logout',
      'signup',
      'verify-email',
      'resend-verification',
      'forgot-password',
      'reset-password',
      'change-password',
    ]) {
      expect(doc.paths[`/api/auth/${path}`]?.post, path).toBeDefined();
    }
    expect(doc.paths['/api/auth/session'].get).toBeDefined();
    expect(doc.paths['/api/auth/login'].post.requestBody.content['application/json'].schema.required).toEqual([
      'email',
      'password',
    ]);
  });
});
