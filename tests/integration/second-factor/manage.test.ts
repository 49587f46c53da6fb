import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECOND_FACTOR_MESSAGES as M } from '../../../src/contracts/second-factor.ts';
import { createUser, postJson, sessionCookieOf, withCookie } from '../../helpers/accounts.ts';
import { postPageForm } from '../../helpers/page-forms.ts';
import { currentStep, testSecondFactorOf, totpAt } from '../../helpers/second-factor.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * docs/product.md §2.15, the console's Sign-in security page: an admin lists their second factors,
 * adds another, removes one (never the last), and gets new recovery codes (the old ones stop
 * working), by API and by plain forms.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ web: true });
});
afterAll(async () => t?.close());

const ORIGIN = { origin: 'http://localhost:80' };
const remove = (admin: SupportUser, factorId: string) =>
  t.app.inject({
    method: 'DELETE',
    url: `/api/admin/second-factor/${factorId}`,
    headers: { ...admin.headers, ...ORIGIN },
  });
const factorsOf = async (admin: SupportUser) =>
  (await admin.get('/api/admin/second-factor')).json() as {
    factors: Array<{ id: string; kind: string; label: string }>;
    recoveryCodesLeft: number;
  };
const login = (email: string, password: string, otp: string) =>
  postJson(t, '/api/auth/login', { email, password, otp });

/** Adds an authenticator app through the API, as the page's form does; answers its secret and the new codes. */
async function addApp(admin: SupportUser, label: string) {
  const { factorId, secret } = (await admin.post('/api/admin/second-factor/totp')).json();
  const confirmed = await admin.post('/api/admin/second-factor/totp/confirm', {
    factorId,
    code: await totpAt(secret),
    label,
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { secret: secret as string, recoveryCodes: confirmed.json().recoveryCodes as string[] };
}

describe('second factors', () => {
  it('the last one cannot be removed; with another added, it can, and its codes stop signing in', async () => {
    const admin = await supportUser(t, { role: 'admin' });
    const [only] = (await factorsOf(admin)).factors;
    const refused = await remove(admin, only!.id);
    expect([refused.statusCode, refused.json().error.message]).toEqual([400, M.lastFactor]);
    expect((await factorsOf(admin)).factors).toHaveLength(1);

    const phone = await addApp(admin, 'New phone');
    expect((await factorsOf(admin)).factors.map((f) => f.label)).toEqual(['Test', 'New phone']);
    const removed = await remove(admin, only!.id);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ message: M.removed('Test') });
    expect((await factorsOf(admin)).factors.map((f) => f.label)).toEqual(['New phone']);

    const step = currentStep();
    const old = testSecondFactorOf(admin.email)!.secret;
    expect((await login(admin.email, admin.password, await totpAt(old, step + 1))).statusCode).toBe(401);
    const now = await login(admin.email, admin.password, await totpAt(phone.secret, step + 1));
    expect(now.statusCode, now.body).toBe(200);

    const audit = (await admin.get('/api/admin/audit')).json().entries as Array<{ action: string }>;
    expect(audit.map((e) => e.action)).toContain('admin.second-factor.removed');
  });

  it('two removals at once leave one factor', async () => {
    const admin = await supportUser(t, { role: 'admin' });
    await addApp(admin, 'Second');
    const ids = (await factorsOf(admin)).factors.map((f) => f.id);
    const answers = await Promise.all(ids.map((id) => remove(admin, id)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    expect((await factorsOf(admin)).factors).toHaveLength(1);
  });

  it('someone else’s factor, an unknown id and a malformed one are not found, and nothing is removed', async () => {
    const [admin, other] = await Promise.all([supportUser(t, { role: 'admin' }), supportUser(t, { role: 'admin' })]);
    await addApp(other, 'Spare');
    const theirs = (await factorsOf(other)).factors[0]!.id;
    for (const id of [theirs, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const res = await remove(admin, id);
      expect([res.statusCode, res.json().error.message], id).toEqual([404, M.factorNotFound]);
    }
    expect((await factorsOf(other)).factors).toHaveLength(2);
  });

  it('are managed only by a session that passed one: a pending session and a user are refused', async () => {
    const pending = await createUser(t, { role: 'admin', secondFactor: false });
    const signedIn = await postJson(t, '/api/auth/login', { email: pending.email, password: pending.password });
    const headers = { ...withCookie(t, sessionCookieOf(t, signedIn)!.value), ...ORIGIN };
    const codes = await postJson(t, '/api/admin/second-factor/recovery-codes', {}, headers);
    expect(codes.statusCode).toBe(403);
    const user = await supportUser(t);
    expect((await user.post('/api/admin/second-factor/recovery-codes')).statusCode).toBe(403);
  });
});

describe('recovery codes', () => {
  it('new ones replace the old: an old code is refused, a new one signs in once', async () => {
    const admin = await supportUser(t, { role: 'admin' });
    const old = testSecondFactorOf(admin.email)!.recoveryCodes.at(-1)!;
    const renewed = await admin.post('/api/admin/second-factor/recovery-codes');
    expect(renewed.statusCode, renewed.body).toBe(200);
    const { message, recoveryCodes } = renewed.json();
    expect(message).toBe(M.codesRenewed);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await factorsOf(admin)).recoveryCodesLeft).toBe(10);

    expect((await login(admin.email, admin.password, old)).statusCode).toBe(401);
    expect((await login(admin.email, admin.password, recoveryCodes[0])).statusCode).toBe(200);
    expect((await login(admin.email, admin.password, recoveryCodes[0])).statusCode).toBe(401);
    expect((await factorsOf(admin)).recoveryCodesLeft).toBe(9);
    const audit = (await admin.get('/api/admin/audit')).json().entries as Array<{ action: string }>;
    expect(audit.map((e) => e.action)).toContain('admin.second-factor.recovery-codes-renewed');
  });
});

describe('the Sign-in security page without JavaScript', () => {
  const page = (url: string, admin: SupportUser) =>
    t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...admin.headers } });
  const postForm = (fields: Record<string, string>, admin: SupportUser, url = '/admin/security') =>
    postPageForm(t, url, fields, { ...ORIGIN, ...admin.headers });

  it('lists the factors, refuses removing the last one, adds an app with one code, then removes the old one', async () => {
    const admin = await supportUser(t, { role: 'admin' });
    const listed = await page('/admin/security', admin);
    expect(listed.statusCode).toBe(200);
    expect(listed.body).toContain('Sign-in security');
    expect(listed.body).toContain('Remove Test (Authenticator app)');
    expect(listed.body).toMatch(/10<!-- --> of <!-- -->10<!-- --> left/);

    const [only] = (await factorsOf(admin)).factors;
    const last = await postForm({ intent: 'remove', factorId: only!.id }, admin);
    expect(last.statusCode).toBe(400);
    expect(last.headers['content-type']).toMatch(/^text\/html/);
    expect(last.body).toContain(M.lastFactor);

    const offer = await page('/admin/security?add=app', admin);
    // The confirm form's factor (the list's Remove forms carry the existing factors' ids).
    const factorId = /value="enrol-totp"\/><input type="hidden" name="factorId" value="([0-9a-f-]{36})"/.exec(
      offer.body,
    )![1]!;
    const secret = /data-testid="totp-secret">([A-Z2-7 ]+)</.exec(offer.body)![1]!.replaceAll(' ', '');
    const wrong = await postForm({ intent: 'enrol-totp', factorId, code: '000000' }, admin, '/admin/security?add=app');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain(M.codeWrong);
    const added = await postForm({ intent: 'enrol-totp', factorId, code: await totpAt(secret) }, admin);
    expect(added.statusCode).toBe(200);
    expect(added.body).toContain('Your new recovery codes');
    expect(added.body.match(/<code>[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}<\/code>/g)).toHaveLength(10);

    const removed = await postForm({ intent: 'remove', factorId: only!.id }, admin);
    expect(removed.statusCode).toBe(303);
    const next = new URL(removed.headers.location!, 'http://localhost');
    expect(next.pathname).toBe('/admin/security');
    expect(next.searchParams.get('done')).toBe(M.removed('Test'));
    expect((await factorsOf(admin)).factors.map((f) => f.label)).toEqual(['Authenticator app']);
  });

  it('gives new recovery codes on the page, once', async () => {
    const admin = await supportUser(t, { role: 'admin' });
    const renewed = await postForm({ intent: 'recovery-codes' }, admin);
    expect(renewed.statusCode).toBe(200);
    expect(renewed.body).toContain(M.codesRenewed);
    const codes = [...renewed.body.matchAll(/<code>([0-9a-f-]{19})<\/code>/g)].map((m) => m[1]!);
    expect(codes).toHaveLength(10);
    expect((await login(admin.email, admin.password, codes[3]!)).statusCode).toBe(200);
    expect((await page('/admin/security', admin)).body).not.toContain(codes[5]!);
  });
});
