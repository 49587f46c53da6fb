// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../../src/contracts/account.ts';
import { AUTH_MESSAGES } from '../../../src/contracts/auth.ts';
import { createUser, sessionStatus, signIn, strongPassword, uniqueEmail, withCookie } from '../../helpers/accounts.ts';
import { linkIn, tokenFrom, waitForMail } from '../../helpers/mail.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { postPageForm } from '../../helpers/page-forms.ts';

/**
 * /account and /confirm-email as a browser without JavaScript uses them: every form posts to its
 * page, a success redirects (303) back to the page with what happened, a refusal renders the page
 * with the message; a browser navigation never receives JSON.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ web: true, env: { PUBLIC_BASE_URL: 'https://bagspace.example.nz' } });
});
afterAll(() => t.close());

const page = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...(cookie ? withCookie(t, cookie) : {}) } });
const post = (url: string, fields: Record<string, string>, cookie?: string) =>
  postPageForm(t, url, fields, { 'sec-fetch-site': 'same-origin', ...(cookie ? withCookie(t, cookie) : {}) });
const html = (entity: string) => entity.replaceAll("'", '&#x27;').replaceAll('"', '&quot;');

describe('/account without JavaScript', () => {
  it('asks a visitor to sign in', async () => {
    const res = await page('/account');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Please sign in first.');
  });

  it('shows the profile, the links and this device; the header links to it next to Sign Out', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    const res = await page('/account', cookie);
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-store');
    for (const text of ['Member since', 'This device', 'Change password', 'Email notifications', 'Download my data'])
      expect(res.body).toContain(text);
    expect(res.body).toContain('href="/account/delete"');
    expect(res.body).toContain('href="/api/account/export"');
    expect(res.body).toMatch(/href="\/account"[^>]*>Account</);
  });

  it('signs another session out, and everywhere else, by plain form posts', async () => {
    const user = await createUser(t);
    const here = await signIn(t, user.email, user.password);
    const there = await signIn(t, user.email, user.password);
    const third = await signIn(t, user.email, user.password);
    const listed = (
      await t.app.inject({ method: 'GET', url: '/api/account/sessions', headers: withCookie(t, here) })
    ).json() as { sessions: { id: string; current: boolean }[] };
    const shown = await page('/account', here);
    for (const s of listed.sessions.filter((s) => !s.current)) expect(shown.body).toContain(`value="${s.id}"`);

    const other = listed.sessions.find((s) => !s.current)!;
    const ended = await post('/account', { intent: 'end-session', id: other.id }, here);
    expect(ended.statusCode).toBe(303);
    expect(ended.headers.location).toBe('/account?done=session');
    expect((await page('/account?done=session', here)).body).toContain(ACCOUNT_MESSAGES.sessionEnded);
    expect((await Promise.all([there, third].map((c) => sessionStatus(t, c)))).filter((s) => s === 401)).toHaveLength(
      1,
    );

    const again = await post('/account', { intent: 'end-session', id: other.id }, here);
    expect(again.statusCode).toBe(404);
    expect(again.body).toContain(ACCOUNT_MESSAGES.sessionNotFound);
    const junk = await post('/account', { intent: 'end-session', id: '../../x' }, here);
    expect(junk.statusCode).toBe(404);
    expect(String(junk.headers['content-type'])).toContain('text/html');

    const others = await post('/account', { intent: 'end-others' }, here);
    expect(others.statusCode).toBe(303);
    expect(others.headers.location).toBe('/account?done=others&ended=1');
    expect((await page(others.headers.location as string, here)).body).toContain(
      html(ACCOUNT_MESSAGES.otherSessionsEnded(1)),
    );
    expect(await Promise.all([here, there, third].map((c) => sessionStatus(t, c)))).toEqual([200, 401, 401]);
    expect((await post('/account', { intent: 'nonsense' }, here)).statusCode).toBe(400);
  });

  it('changes the email: field messages keep the address (never the password); the link page confirms without JavaScript', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    const newEmail = uniqueEmail('nojs-moved');
    const wrongPassword = strongPassword();
    const wrong = await post('/account', { intent: 'change-email', newEmail, currentPassword: wrongPassword }, cookie);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain(ACCOUNT_MESSAGES.currentPasswordWrong);
    expect(wrong.body).toContain(`value="${newEmail}"`);
    expect(wrong.body).not.toContain(wrongPassword);
    const invalid = await post('/account', { intent: 'change-email', newEmail: 'nope', currentPassword: '' }, cookie);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain(AUTH_MESSAGES.emailInvalid);
    expect(invalid.body).toContain(ACCOUNT_MESSAGES.currentPasswordRequired);

    const sent = await post('/account', { intent: 'change-email', newEmail, currentPassword: user.password }, cookie);
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe('/account?done=email');
    const after = await page('/account?done=email', cookie);
    expect(after.body).toContain('Waiting for confirmation from');
    const mail = await waitForMail(t.dataDir, newEmail, 'Confirm your new email address for Bagspace');
    await waitForMail(t.dataDir, user.email, 'Your Bagspace email address may change');

    const link = linkIn(mail, 'https://bagspace.example.nz/confirm-email?token=');
    const token = tokenFrom(link);
    const opened = await page(`/confirm-email?token=${token}`);
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['referrer-policy']).toBe('same-origin');
    expect(opened.body).toContain('Confirm my new email address');
    // Opening the link spends nothing (a mail scanner's GET): the account still has its old address.
    expect((await page('/account', cookie)).body).toContain('Waiting for confirmation from');

    const confirmed = await post('/confirm-email', { token });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain(ACCOUNT_MESSAGES.emailChanged);
    await waitForMail(t.dataDir, user.email, 'Your Bagspace email address was changed');
    const twice = await post(`/confirm-email?token=${token}`, {});
    expect(twice.statusCode).toBe(400);
    expect(twice.body).toContain(html(AUTH_MESSAGES.tokenInvalid));
    expect(await signIn(t, newEmail, user.password)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('a form posted after the session ended asks to sign in again', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: withCookie(t, cookie) });
    const res = await post('/account', { intent: 'end-others' }, cookie);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/account');
  });
});
