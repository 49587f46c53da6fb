// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../../src/contracts/auth.ts';
import { createUser, signIn, strongPassword, uniqueEmail, withCookie } from '../../helpers/accounts.ts';
import { linkIn, tokenFrom, waitForMail } from '../../helpers/mail.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { postPageForm } from '../../helpers/page-forms.ts';

/**
 * The account forms sent the way a browser sends them without JavaScript (or before it loaded): to
 * their own page, answered with that page: the success panel, or the messages under the fields.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ web: true, env: { PUBLIC_BASE_URL: 'https://bagspace.example.nz' } });
});
afterAll(() => t.close());

const post = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  postPageForm(t, url, fields, { 'sec-fetch-site': 'same-origin', ...headers });

function expectPage(
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
  text: string,
) {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
  expect(String(res.headers['content-type'])).toContain('text/html');
  expect(res.body).toContain(text);
}

describe('account forms without JavaScript', () => {
  it('sign-up: creates the account and says to check the inbox; a short password is refused under its field', async () => {
    const email = uniqueEmail('nojs-signup');
    const password = strongPassword();
    const bad = await post('/signup', { email, password: 'short', confirmPassword: 'short' });
    expectPage(bad, 400, 'Password must be at least');
    expect(bad.body).toContain(`value="${email}"`);
    expect(bad.body).not.toContain('value="short"');

    const ok = await post('/signup', { email, password, confirmPassword: password });
    expectPage(ok, 200, AUTH_MESSAGES.signupAccepted);
    const mail = await waitForMail(t.dataDir, email, 'Confirm your email address for Bagspace');

    // Confirming: the page's button posts the link's token to the page.
    const token = tokenFrom(linkIn(mail, 'https://bagspace.example.nz/verify-email?token='));
    const shown = await t.app.inject({
      method: 'GET',
      url: `/verify-email?token=${token}`,
      headers: { accept: 'text/html' },
    });
    expect(shown.body).toContain('Confirm my email address');
    expectPage(await post(`/verify-email?token=${token}`, {}), 200, AUTH_MESSAGES.emailVerified);
    expectPage(await post(`/verify-email?token=${token}`, {}), 400, AUTH_MESSAGES.tokenInvalid);
  });

  it('forgot and reset password: the link arrives, a mismatch is refused, the new password works', async () => {
    const user = await createUser(t);
    expectPage(await post('/forgot-password', { email: 'nope' }), 400, AUTH_MESSAGES.emailInvalid);
    expectPage(await post('/forgot-password', { email: user.email }), 200, AUTH_MESSAGES.resetRequested);
    const mail = await waitForMail(t.dataDir, user.email, 'Reset your Bagspace password');
    const token = tokenFrom(linkIn(mail, 'https://bagspace.example.nz/reset-password?token='));
    const chosen = strongPassword();
    const mismatch = await post(`/reset-password?token=${token}`, { password: chosen, confirmPassword: `${chosen}x` });
    expect(mismatch.statusCode).toBe(400);
    expectPage(
      await post(`/reset-password?token=${token}`, { password: chosen, confirmPassword: chosen }),
      200,
      AUTH_MESSAGES.passwordReset,
    );
    expect(await signIn(t, user.email, chosen)).toBeTruthy();
  });

  it('change password: needs the current one, then changes it', async () => {
    const user = await createUser(t);
    const cookie = withCookie(t, await signIn(t, user.email, user.password));
    const next = strongPassword();
    expectPage(
      await post(
        '/account/password',
        { currentPassword: 'Wrong-one-123', newPassword: next, confirmPassword: next },
        cookie,
      ),
      400,
      AUTH_MESSAGES.currentPasswordWrong,
    );
    expectPage(
      await post(
        '/account/password',
        { currentPassword: user.password, newPassword: next, confirmPassword: next },
        cookie,
      ),
      200,
      AUTH_MESSAGES.passwordChanged,
    );
    expect(await signIn(t, user.email, next)).toBeTruthy();
  });
});
