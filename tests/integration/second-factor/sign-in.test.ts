import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../../src/contracts/auth.ts';
import { SECOND_FACTOR_MESSAGES as M } from '../../../src/contracts/second-factor.ts';
import { recoveryCodes, secondFactors } from '../../../src/server/db/schema.ts';
import { createUser, postJson, sessionCookieOf, withCookie } from '../../helpers/accounts.ts';
import { currentStep, testSecondFactorOf, totpAt } from '../../helpers/second-factor.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * docs/product.md §2.15: an admin with a second factor signs in with the password and a code (or a
 * recovery code); the password alone opens nothing, a code works once, wrong codes are throttled.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { LOGIN_FAILURES_PER_ACCOUNT: '4', LOGIN_FAILURES_PER_IP: '1000' } });
});
afterAll(async () => t?.close());

const login = (body: object, ip = '198.51.100.7') =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: body,
    headers: { 'content-type': 'application/json' },
    remoteAddress: ip,
  });

const adminAudit = (cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/admin/audit', headers: withCookie(t, cookie) });

describe('an admin with an authenticator app', () => {
  it('is refused with the password alone, told a code is needed, and never told so before the password is right', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const alone = await login({ email: admin.email, password: admin.password });
    expect(alone.statusCode).toBe(401);
    expect(alone.json().error).toEqual({
      status: 'UNAUTHENTICATED',
      message: M.otpRequired,
      fields: { otp: M.otpRequired },
    });
    expect(sessionCookieOf(t, alone)).toBeUndefined();

    const wrongPassword = await login({ email: admin.email, password: 'not-the-password', otp: '123456' });
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json().error).toEqual({
      status: 'UNAUTHENTICATED',
      message: AUTH_MESSAGES.invalidCredentials,
    });
  });

  it('signs in with the current code (cookie or token), and the same code never works twice', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const secret = testSecondFactorOf(admin.email)!.secret;
    const step = currentStep();
    const code = await totpAt(secret, step);
    const first = await login({ email: admin.email, password: admin.password, otp: code });
    expect(first.statusCode, first.body).toBe(200);
    const cookie = sessionCookieOf(t, first)!.value;
    expect((await adminAudit(cookie)).statusCode).toBe(200);

    const replay = await login({ email: admin.email, password: admin.password, otp: code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.fields).toEqual({ otp: M.otpWrong });
    // An earlier step's code (still inside the ±1 window) is refused too: steps only move forward.
    const earlier = await login({ email: admin.email, password: admin.password, otp: await totpAt(secret, step - 1) });
    expect(earlier.statusCode).toBe(401);

    // The next step's code is accepted now (clock drift), once, and an API client gets a token.
    const token = await login({
      email: admin.email,
      password: admin.password,
      otp: await totpAt(secret, step + 1),
      session: 'token',
    });
    expect(token.statusCode, token.body).toBe(200);
    const bearer = { authorization: `Bearer ${token.json().session.token}` };
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/audit', headers: bearer })).statusCode).toBe(200);
  });

  it('takes each recovery code once, typed in any case and grouping', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const [code, other] = testSecondFactorOf(admin.email)!.recoveryCodes.splice(0, 2);
    const typed = code!.replaceAll('-', ' ').toUpperCase();
    const first = await login({ email: admin.email, password: admin.password, otp: typed });
    expect(first.statusCode, first.body).toBe(200);
    expect((await adminAudit(sessionCookieOf(t, first)!.value)).statusCode).toBe(200);
    const again = await login({ email: admin.email, password: admin.password, otp: code });
    expect([again.statusCode, again.json().error.message]).toEqual([401, M.otpWrong]);
    expect((await login({ email: admin.email, password: admin.password, otp: other })).statusCode).toBe(200);

    // Stored as SHA-256 hashes only: no code appears in the table.
    const rows = await t.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, admin.id));
    expect(rows).toHaveLength(10);
    expect(rows.filter((r) => r.usedAt !== null)).toHaveLength(2);
    for (const row of rows) expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(code!.replaceAll('-', ''));
  });

  it('refuses a malformed code as a field error, without a session', async () => {
    const admin = await createUser(t, { role: 'admin' });
    for (const otp of ['12345', 'abc', '1234567', 'x'.repeat(65)]) {
      const res = await login({ email: admin.email, password: admin.password, otp });
      expect(res.statusCode, otp).toBe(400);
      expect(res.json().error.fields.otp, otp).toBe(M.otpInvalid);
    }
  });

  it('throttles wrong codes per account with 429 and Retry-After; the right code then waits too', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await login({ email: admin.email, password: admin.password, otp: '000000' }, `198.51.100.${20 + i}`);
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        expect(res.json().error.message).toMatch(/^Too many wrong codes\. Please wait \d+ minutes? and try again\.$/);
      }
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const secret = testSecondFactorOf(admin.email)!.secret;
    const right = await login({ email: admin.email, password: admin.password, otp: await totpAt(secret) });
    expect(right.statusCode).toBe(429);
  });

  it('never asks a user for a code', async () => {
    const user = await createUser(t);
    expect((await login({ email: user.email, password: user.password })).statusCode).toBe(200);
  });
});

describe('an admin without a second factor yet', () => {
  it('gets a session that opens nothing of the console but its enrolment', async () => {
    const admin = await createUser(t, { role: 'admin', secondFactor: false });
    const res = await login({ email: admin.email, password: admin.password });
    expect(res.statusCode, res.body).toBe(200);
    const cookie = sessionCookieOf(t, res)!.value;
    const audit = await adminAudit(cookie);
    expect([audit.statusCode, audit.json().error.message]).toEqual([403, M.enrolRequired]);
    // The admin's other powers (every user's ticket) are off too: the session acts as a user's.
    const status = await t.app.inject({
      method: 'GET',
      url: '/api/admin/second-factor',
      headers: withCookie(t, cookie),
    });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({ passed: false, factors: [], recoveryCodesLeft: 0 });
    const rows = await t.database.db.select().from(secondFactors).where(eq(secondFactors.userId, admin.id));
    expect(rows).toEqual([]);
  });

  it('a plain user cannot reach the enrolment', async () => {
    const user = await createUser(t);
    const cookie = sessionCookieOf(t, await login({ email: user.email, password: user.password }))!.value;
    for (const url of ['/api/admin/second-factor/totp', '/api/admin/second-factor/passkey/options']) {
      const res = await postJson(t, url, {}, withCookie(t, cookie));
      expect([res.statusCode, res.json().error.message], url).toEqual([403, 'You do not have permission to do that.']);
    }
  });
});
