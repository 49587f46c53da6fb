import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECOND_FACTOR_MESSAGES as M } from '../../../src/contracts/second-factor.ts';
import { auditLog, recoveryCodes, secondFactors, sessions } from '../../../src/server/db/schema.ts';
import { createSecondFactorRepository } from '../../../src/server/modules/second-factor/second-factor.repository.ts';
import { hashToken } from '../../../src/server/security/tokens.ts';
import { createUser, postJson, sessionCookieOf, withCookie } from '../../helpers/accounts.ts';
import { totpAt } from '../../helpers/second-factor.ts';
import { softwareAuthenticator } from '../../helpers/software-authenticator.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * docs/product.md §2.15: an admin without a second factor sets one up from the console (an
 * authenticator app confirmed with one code, or a passkey), gets ten recovery codes once, and from
 * then on signs in with it. The passkey is a software authenticator (tests/helpers) answering
 * @simplewebauthn/server exactly as a browser's would.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

async function pendingAdmin() {
  const admin = await createUser(t, { role: 'admin', secondFactor: false });
  const res = await postJson(t, '/api/auth/login', { email: admin.email, password: admin.password });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = sessionCookieOf(t, res)!.value;
  const call = (url: string, body: unknown = {}) => postJson(t, url, body, withCookie(t, cookie));
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: withCookie(t, cookie) });
  return { ...admin, cookie, call, get };
}

describe('an authenticator app', () => {
  it('is confirmed with one code computed from the shown secret; the console opens and the codes are given once', async () => {
    const admin = await pendingAdmin();
    const offer = await admin.call('/api/admin/second-factor/totp');
    expect(offer.statusCode, offer.body).toBe(200);
    const { factorId, secret, uri, qrSvg } = offer.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toBe(
      `otpauth://totp/${encodeURIComponent(t.config.companyName)}:${encodeURIComponent(admin.email)}?secret=${secret}&issuer=${encodeURIComponent(t.config.companyName)}`,
    );
    expect(qrSvg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>\s*$/s);
    expect(qrSvg).not.toMatch(/<script|style=|href=/);
    // Asking again while it waits gives the same secret (a second tab, a reload).
    expect((await admin.call('/api/admin/second-factor/totp')).json().secret).toBe(secret);

    const wrong = await admin.call('/api/admin/second-factor/totp/confirm', { factorId, code: '000000' });
    expect([wrong.statusCode, wrong.json().error.fields]).toEqual([400, { code: M.codeWrong }]);
    expect((await admin.get('/api/admin/audit')).statusCode).toBe(403);

    const confirmed = await admin.call('/api/admin/second-factor/totp/confirm', {
      factorId,
      code: await totpAt(secret),
      label: 'My phone',
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const codes: string[] = confirmed.json().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}$/);

    // This session passed; the console opens; the status says so; the audit log records it.
    expect((await admin.get('/api/admin/audit')).statusCode).toBe(200);
    expect((await admin.get('/api/admin/second-factor')).json()).toMatchObject({
      passed: true,
      factors: [{ kind: 'totp', label: 'My phone' }],
      recoveryCodesLeft: 10,
    });
    const [session] = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(admin.cookie)));
    expect(session!.secondFactorAt).toBeInstanceOf(Date);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'admin.second-factor.enrolled'), eq(auditLog.targetId, admin.id)));
    expect(audit.map((a) => a.details)).toEqual([{ kind: 'totp', label: 'My phone' }]);
    // Only hashes are stored.
    const stored = await t.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, admin.id));
    expect(stored.map((r) => r.codeHash).sort()).toEqual(codes.map((c) => hashToken(c.replaceAll('-', ''))).sort());

    // The next sign-in needs a code: the one just used is refused (replay), a recovery code works.
    const alone = await postJson(t, '/api/auth/login', { email: admin.email, password: admin.password });
    expect(alone.json().error.fields).toEqual({ otp: M.otpRequired });
    const withRecovery = await postJson(t, '/api/auth/login', {
      email: admin.email,
      password: admin.password,
      otp: codes[3],
    });
    expect(withRecovery.statusCode, withRecovery.body).toBe(200);
  });

  it('refuses an unknown or someone else’s enrolment, and a session that skipped an existing factor', async () => {
    const first = await pendingAdmin();
    const other = await pendingAdmin();
    const { factorId, secret } = (await first.call('/api/admin/second-factor/totp')).json();
    const stolen = await other.call('/api/admin/second-factor/totp/confirm', { factorId, code: await totpAt(secret) });
    expect([stolen.statusCode, stolen.json().error.fields]).toEqual([400, { code: M.enrolmentExpired }]);
    const malformed = await other.call('/api/admin/second-factor/totp/confirm', { factorId: 'x', code: '12' });
    expect(malformed.statusCode).toBe(400);

    // The command line enrols an app while this password-only session is open: the session must sign in again.
    await createSecondFactorRepository(t.database.db).replaceTotp({ userId: other.id, secret, label: 'CLI' });
    const again = await other.call('/api/admin/second-factor/totp');
    expect([again.statusCode, again.json().error.message]).toEqual([403, M.signInAgain]);
    expect((await other.get('/api/admin/audit')).statusCode).toBe(403);
  });
});

describe('a passkey', () => {
  it('is registered, then signs the admin in; an answer is never accepted twice', async () => {
    const admin = await pendingAdmin();
    const origin = new URL(t.config.publicBaseUrl).origin;
    const authenticator = softwareAuthenticator();

    const creation = await admin.call('/api/admin/second-factor/passkey/options');
    expect(creation.statusCode, creation.body).toBe(200);
    const { options } = creation.json();
    expect(options.rp).toEqual({ name: t.config.companyName, id: new URL(origin).hostname });
    const response = authenticator.register(options, origin);
    const registered = await admin.call('/api/admin/second-factor/passkey', { response, label: 'Laptop' });
    expect(registered.statusCode, registered.body).toBe(200);
    expect(registered.json().recoveryCodes).toHaveLength(10);
    expect((await admin.get('/api/admin/audit')).statusCode).toBe(200);
    // The same answer again (its challenge is spent) is refused.
    const replayed = await admin.call('/api/admin/second-factor/passkey', { response, label: 'Laptop' });
    expect(replayed.statusCode).toBe(400);
    const rows = await t.database.db.select().from(secondFactors).where(eq(secondFactors.userId, admin.id));
    expect(rows.map((r) => [r.kind, r.credentialId, r.label])).toEqual([
      ['passkey', authenticator.credentialId, 'Laptop'],
    ]);

    // Signing in: the password first, then the passkey's answer to the challenge.
    const wrongPassword = await postJson(t, '/api/auth/passkey/options', { email: admin.email, password: 'wrong-one' });
    expect(wrongPassword.statusCode).toBe(401);
    const request = await postJson(t, '/api/auth/passkey/options', { email: admin.email, password: admin.password });
    expect(request.statusCode, request.body).toBe(200);
    const assertion = authenticator.authenticate(request.json().options, origin);
    const signedIn = await postJson(t, '/api/auth/login', {
      email: admin.email,
      password: admin.password,
      passkey: assertion,
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const cookie = sessionCookieOf(t, signedIn)!.value;
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/audit', headers: withCookie(t, cookie) })).statusCode,
    ).toBe(200);

    const replay = await postJson(t, '/api/auth/login', {
      email: admin.email,
      password: admin.password,
      passkey: assertion,
    });
    expect([replay.statusCode, replay.json().error.message]).toEqual([401, M.passkeyFailed]);
    // Another authenticator's answer to a fresh challenge is refused too.
    const fresh = await postJson(t, '/api/auth/passkey/options', { email: admin.email, password: admin.password });
    const stranger = softwareAuthenticator().authenticate(fresh.json().options, origin);
    const refused = await postJson(t, '/api/auth/login', {
      email: admin.email,
      password: admin.password,
      passkey: stranger,
    });
    expect(refused.statusCode).toBe(401);
  });

  it('is not offered to an account without one', async () => {
    const user = await createUser(t);
    const res = await postJson(t, '/api/auth/passkey/options', { email: user.email, password: user.password });
    expect([res.statusCode, res.json().error.message]).toEqual([400, M.passkeyNone]);
  });
});
