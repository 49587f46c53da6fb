// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, sessionStatus, signIn, withCookie } from '../../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Sign Out is a form in the header of every page (pages that do not load the app included): it
 * posts to /sign-out, which ends the session and lands on the home page.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ web: true });
});
afterAll(() => t.close());

const page = (url: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });

describe('Sign Out without JavaScript', () => {
  it('is a form on static pages and /register too, and ends the session, landing home signed out', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    for (const url of ['/', '/faqs', '/register', '/support']) {
      const res = await page(url, withCookie(t, cookie));
      expect(res.body, url).toMatch(
        /<form [^>]*action="\/sign-out" method="post"><button type="submit"[^>]*>Sign Out<\/button><\/form>/,
      );
    }
    // Static pages and /register do not load the app, signed in or not.
    expect((await page('/faqs', withCookie(t, cookie))).body).not.toContain('modulepreload');

    const res = await t.app.inject({
      method: 'POST',
      url: '/sign-out',
      headers: {
        ...withCookie(t, cookie),
        accept: 'text/html',
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
      },
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
    expect(String(res.headers['set-cookie'])).toContain(`${t.config.sessions.cookieName}=;`);
    expect(await sessionStatus(t, cookie)).toBe(401);
  });

  it('refuses another site’s form, so a link elsewhere cannot sign people out', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    const res = await t.app.inject({
      method: 'POST',
      url: '/sign-out',
      headers: {
        ...withCookie(t, cookie),
        accept: 'text/html',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
    });
    expect(res.statusCode).toBe(403);
    expect(await sessionStatus(t, cookie)).toBe(200);
  });

  it('sends someone who opens /sign-out home', async () => {
    const res = await page('/sign-out', {});
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
  });
});
