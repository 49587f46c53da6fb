// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../../src/contracts/auth.ts';
import { createUser, uniqueEmail } from '../../helpers/accounts.ts';
import { readOutbox, waitForMail } from '../../helpers/mail.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { postPageForm } from '../../helpers/page-forms.ts';

/**
 * The login screen's 'Send a new verification email' as a plain form, the way a browser sends it
 * without JavaScript: to the area's own address, answered with the login screen and the API's message.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ web: true });
});
afterAll(() => t.close());

const CONFIRM = 'Confirm your email address for Bagspace';

const post = (url: string, fields: Record<string, string>) =>
  postPageForm(t, url, fields, { 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'same-origin' });

function expectPage(
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
  text: string,
) {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
  expect(String(res.headers['content-type'])).toContain('text/html');
  expect(res.body).toContain(text);
  expect(res.body).not.toContain('"error":{');
}

/** The resend form: posted to the area's own address, told apart from sign-in by its intent. */
const resendForm = (area: string) =>
  new RegExp(`<form[^>]*action="${area}"[^>]*><input type="hidden" name="intent" value="resend"/>`);
const confirmMailsTo = async (email: string) =>
  (await readOutbox(t.dataDir)).filter((m) => m.to.includes(email) && m.subject === CONFIRM);

describe('asking for a new verification email without JavaScript', () => {
  it('the refused sign-in of an unverified account shows the resend form, which mails a new link and says so', async () => {
    const user = await createUser(t, { verified: false });
    const refused = await post('/support', { email: user.email, password: user.password, returnTo: '/support' });
    expectPage(refused, 403, AUTH_MESSAGES.unverified);
    expect(refused.body).toMatch(resendForm('/support'));
    expect(refused.body).toContain(`<input type="hidden" name="email" value="${user.email}"/>`);
    expect(refused.body).toContain('Send a new verification email');
    expect(await confirmMailsTo(user.email)).toHaveLength(0);

    const sent = await post('/support', { intent: 'resend', email: user.email });
    expectPage(sent, 200, AUTH_MESSAGES.verificationSent);
    // Still the login screen, with the address kept for signing in once it is confirmed.
    expect(sent.body).toContain(`value="${user.email}"`);
    expect(sent.body).toContain('aria-label="Sign in"');
    const mail = await waitForMail(t.dataDir, user.email, CONFIRM);
    expect(mail.text).toContain('/verify-email?token=');
  });

  it('works on the admin console’s login screen too', async () => {
    const user = await createUser(t, { verified: false });
    const refused = await post('/admin', { email: user.email, password: user.password, returnTo: '/admin' });
    expectPage(refused, 403, AUTH_MESSAGES.unverified);
    expect(refused.body).toMatch(resendForm('/admin'));
    expectPage(await post('/admin', { intent: 'resend', email: user.email }), 200, AUTH_MESSAGES.verificationSent);
    await waitForMail(t.dataDir, user.email, CONFIRM);
  });

  it('says what is wrong with a malformed address, as a page', async () => {
    const res = await post('/support', { intent: 'resend', email: 'not-an-email' });
    expectPage(res, 400, AUTH_MESSAGES.emailInvalid);
    expect(res.body).toContain('aria-label="Sign in"');
  });

  it('answers the API’s rate limit with its message on the page', async () => {
    const email = uniqueEmail('nojs-resend');
    for (let i = 0; i < 5; i++)
      expectPage(await post('/support', { intent: 'resend', email }), 200, AUTH_MESSAGES.verificationSent);
    const limited = await post('/support', { intent: 'resend', email });
    expectPage(limited, 429, AUTH_MESSAGES.tooManyMailRequests);
    expect(limited.body).not.toContain(AUTH_MESSAGES.verificationSent);
  });
});
