// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signIn, withCookie } from '../../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** The account pages as the server renders them (the production build; npm test builds it first). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ web: true });
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });

describe('server-rendered account pages', () => {
  it.each(['/support', '/support/create-ticket', '/support/ticket/123'])(
    '%s renders the login screen for a visitor, not indexed',
    async (path) => {
      const res = await get(path);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('Sign in to get help');
      expect(res.body).toMatch(/<label[^>]*>Email<\/label>/);
      expect(res.body).toMatch(/<label[^>]*>Password<\/label>/);
      expect(res.body).toMatch(/<button type="submit"[^>]*>Login<\/button>/);
      expect(res.body).toContain('<meta name="robots" content="noindex"/>');
      expect(res.body).not.toContain('Sign Out');
    },
  );

  it.each(['/admin', '/admin/support'])('%s renders the staff sign-in, with nothing for customers', async (path) => {
    const res = await get(path);
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/<h1[^>]*>Staff sign-in<\/h1>/);
    expect(res.body).toContain('For the Bagspace team only');
    expect(res.body).toMatch(/<form[^>]*action="\/admin"/);
    expect(res.body).toMatch(/<label[^>]*>Email<\/label>/);
    expect(res.body).toMatch(/<label[^>]*>Password<\/label>/);
    expect(res.body).toMatch(/<label[^>]*>One-time code<\/label>/);
    expect(res.body).toMatch(/<button type="submit"[^>]*>Login<\/button>/);
    expect(res.body).toMatch(/<a[^>]*href="\/forgot-password"[^>]*>Forgot your password\?<\/a>/);
    expect(res.body).not.toContain('Create an account');
    expect(res.body).not.toContain('href="/signup"');
    expect(res.body).not.toContain('Sign in to get help');
    expect(res.body).not.toContain('see your tickets');
  });

  it('renders the support area and Sign Out for a verified user, uncached and without the token', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    const res = await get('/support', withCookie(t, cookie));
    // The address may carry line-break hints (<wbr>): compare the words.
    expect(res.body.replace(/<[^>]+>/g, '')).toContain(`Welcome back, ${user.email}.`);
    expect(res.body).toContain('Sign Out');
    expect(res.body).not.toContain('Sign in to get help');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).not.toContain(cookie);
  });

  it('sends no Referer to another site from pages that carry a one-time token', async () => {
    for (const path of ['/verify-email?token=abc', '/reset-password?token=abc']) {
      const res = await get(path);
      expect(res.statusCode).toBe(200);
      expect(res.headers['referrer-policy']).toBe('same-origin');
    }
    expect((await get('/signup')).headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it.each([
    ['/signup', 'Join and get support'],
    ['/forgot-password', 'Forgot your password?'],
    ['/reset-password', 'Choose a new password'],
    ['/verify-email', 'Confirm your email address'],
    ['/account/password', 'Change your password'],
  ])('%s renders its heading', async (path, heading) => {
    const res = await get(path);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(heading);
  });
});
