// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { SECOND_FACTOR_MESSAGES } from '../../../src/contracts/second-factor.ts';
import { nextOtp } from '../../helpers/second-factor.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../../src/contracts/auth.ts';
import { createUser, withCookie } from '../../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { postPageForm } from '../../helpers/page-forms.ts';

/**
 * The login screen of /support and /admin as a plain form, the way a browser sends it before the
 * page's JavaScript has loaded or with JavaScript off: never JSON, always the page.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ web: true });
});
afterAll(() => t.close());

const post = (url: string, fields: Record<string, string>) =>
  postPageForm(t, url, fields, { 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'same-origin' });
const cookieFrom = (res: { headers: Record<string, unknown> }) => {
  const raw = ([] as string[]).concat((res.headers['set-cookie'] as string | string[] | undefined) ?? []);
  const cookie = raw.find((c) => c.startsWith(`${t.config.sessions.cookieName}=`));
  return cookie?.split(';')[0]?.split('=')[1];
};

describe('signing in without JavaScript', () => {
  it('signs in and goes back to the page the visitor was on, with the session cookie', async () => {
    const user = await createUser(t);
    const res = await post('/support', {
      email: user.email.toUpperCase(),
      password: user.password,
      returnTo: '/support/create-ticket',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/support/create-ticket');
    const token = cookieFrom(res);
    expect(token).toBeTruthy();
    const page = await t.app.inject({
      method: 'GET',
      url: '/support/create-ticket',
      headers: { accept: 'text/html', ...withCookie(t, token!) },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Sign Out');
    // The address may carry line-break hints (<wbr>): compare the words.
    expect(page.body.replace(/<[^>]+>/g, '')).toContain(`Welcome back, ${user.email}.`);
  });

  it('answers a wrong password with the login screen, the message and the email kept, never the password', async () => {
    const user = await createUser(t);
    const res = await post('/support', { email: user.email, password: 'Not-the-password-1', returnTo: '/support' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain(AUTH_MESSAGES.invalidCredentials);
    expect(res.body).toContain(`value="${user.email}"`);
    expect(res.body).not.toContain('Not-the-password-1');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('shows the field messages of the spec under the fields', async () => {
    const res = await post('/support', { email: 'not-an-email', password: '', returnTo: '/support' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(AUTH_MESSAGES.emailInvalid);
    expect(res.body).toContain(AUTH_MESSAGES.passwordRequired);
    expect(res.body).toContain('value="not-an-email"');
  });

  it('tells an unverified account so, and does not sign it in', async () => {
    const user = await createUser(t, { verified: false });
    const res = await post('/support', { email: user.email, password: user.password, returnTo: '/support' });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain(AUTH_MESSAGES.unverified);
    expect(cookieFrom(res)).toBeUndefined();
  });

  it('signs an admin in on /admin, and never sends anyone to another site', async () => {
    const admin = await createUser(t, { role: 'admin' });
    // The password alone: the screen again, asking for the one-time code (docs/product.md §2.15).
    const alone = await post('/admin', { email: admin.email, password: admin.password });
    expect(alone.statusCode).toBe(401);
    expect(alone.body).toContain(SECOND_FACTOR_MESSAGES.otpRequired);
    expect(alone.body).toMatch(/<input[^>]*name="otp"/);
    expect(cookieFrom(alone)).toBeUndefined();
    const res = await post('/admin', {
      email: admin.email,
      password: admin.password,
      otp: (await nextOtp(admin.email))!,
      returnTo: 'https://evil.example/admin',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/admin');
    for (const returnTo of ['//evil.example', '/support', '/admin/../support', '/admin\\\\evil']) {
      const otp = (await nextOtp(admin.email))!;
      const again = await post('/admin', { email: admin.email, password: admin.password, otp, returnTo });
      expect(again.headers.location, returnTo).toBe('/admin');
    }
  });

  it('refuses a form from another site', async () => {
    const user = await createUser(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/support',
      payload: new URLSearchParams({ email: user.email, password: user.password }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'cross-site',
        origin: 'https://evil.example',
      },
    });
    expect(res.statusCode).toBe(403);
    expect(cookieFrom(res)).toBeUndefined();
    // A browser navigating there is shown a page, not JSON.
    const page = await t.app.inject({
      method: 'POST',
      url: '/support',
      payload: new URLSearchParams({ email: user.email, password: user.password }).toString(),
      headers: {
        accept: 'text/html',
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'navigate',
      },
    });
    expect(page.statusCode).toBe(403);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('This request came from another site and was refused.');
    expect(cookieFrom(page)).toBeUndefined();
  });
});

describe('an admin’s code step without JavaScript', () => {
  // The page's form sends the ticket with the email in a hidden field, as these posts do.
  const ticketOf = (body: string) => /<input[^>]*name="ticket"[^>]*value="([^"]+)"/.exec(body)?.[1];

  it('asks for the code alone after a right password, and signs in with the code and the ticket', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const first = await post('/support', { email: admin.email, password: admin.password, returnTo: '/support' });
    expect(first.statusCode).toBe(401);
    expect(first.body).toContain(SECOND_FACTOR_MESSAGES.otpRequired);
    expect(first.body).toContain(SECOND_FACTOR_MESSAGES.passwordAccepted(admin.email));
    // The code field and the ticket, and no password field to fill again.
    expect(first.body).toMatch(/<input[^>]*name="otp"/);
    expect(first.body).not.toMatch(/<input[^>]*name="password"/);
    expect(first.body).not.toContain(admin.password);
    // Someone else may start over: a plain link to the empty form.
    expect(first.body).toMatch(new RegExp(`<a href="/support">${SECOND_FACTOR_MESSAGES.notYou}</a>`));
    const ticket = ticketOf(first.body);
    expect(ticket).toBeTruthy();
    expect(cookieFrom(first)).toBeUndefined();

    // A code that is not one keeps the ticket (nothing was checked).
    const malformed = await post('/support', { email: admin.email, ticket: ticket!, otp: '12', returnTo: '/support' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain(SECOND_FACTOR_MESSAGES.otpInvalid);
    expect(ticketOf(malformed.body)).toBe(ticket);

    const res = await post('/support', {
      email: admin.email,
      ticket: ticket!,
      otp: (await nextOtp(admin.email))!,
      returnTo: '/support/create-ticket',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/support/create-ticket');
    const token = cookieFrom(res);
    expect(token).toBeTruthy();
    // The session passed the second factor: the console opens to it.
    const console = await t.app.inject({
      method: 'GET',
      url: '/api/admin/support/tickets',
      headers: withCookie(t, token!),
    });
    expect(console.statusCode).toBe(200);

    // Used once: the same ticket again starts over at the password, with the email kept.
    const again = await post('/support', {
      email: admin.email,
      ticket: ticket!,
      otp: (await nextOtp(admin.email))!,
      returnTo: '/support',
    });
    expect(again.statusCode).toBe(401);
    expect(again.body).toContain(SECOND_FACTOR_MESSAGES.signInExpired);
    expect(again.body).toMatch(/<input[^>]*name="password"/);
    expect(again.body).toContain(`value="${admin.email}"`);
    expect(cookieFrom(again)).toBeUndefined();
  });

  it('answers a wrong code with a new ticket, and a made-up ticket signs nobody in', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const first = await post('/admin', { email: admin.email, password: admin.password });
    const ticket = ticketOf(first.body)!;
    const wrong = await post('/admin', { email: admin.email, ticket, otp: '000000' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain(SECOND_FACTOR_MESSAGES.otpWrong);
    const next = ticketOf(wrong.body);
    expect(next).toBeTruthy();
    expect(next).not.toBe(ticket);
    const signedIn = await post('/admin', { email: admin.email, ticket: next!, otp: (await nextOtp(admin.email))! });
    expect(signedIn.statusCode).toBe(303);
    expect(cookieFrom(signedIn)).toBeTruthy();

    const madeUp = await post('/admin', {
      email: admin.email,
      ticket: 'A'.repeat(43),
      otp: (await nextOtp(admin.email))!,
    });
    expect(madeUp.statusCode).toBe(401);
    expect(madeUp.body).toContain(SECOND_FACTOR_MESSAGES.signInExpired);
    expect(cookieFrom(madeUp)).toBeUndefined();
  });

  it('gives no ticket for a wrong password, nor to an account without a second factor step', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const wrong = await post('/support', { email: admin.email, password: 'Not-the-password-1' });
    expect(wrong.statusCode).toBe(401);
    expect(ticketOf(wrong.body)).toBeUndefined();
    const user = await createUser(t);
    const plain = await post('/support', { email: user.email, password: user.password });
    expect(plain.statusCode).toBe(303);
    expect(ticketOf(plain.body)).toBeUndefined();
  });
});
