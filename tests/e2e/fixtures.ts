import { randomBytes } from 'node:crypto';
import { type APIRequestContext, expect, type Page, request as playwrightRequest } from '@playwright/test';
import { SUPPORT_TEXT } from '../../src/contracts/support.ts';
import { linkIn, tokenFrom, waitForMails } from '../helpers/mail.ts';
import { factorOf, withAdminOtp } from './second-factor.ts';

/** Accounts for browser tests, made the way a person makes them: sign up, confirm from the mail. */
export const newEmail = (label: string) => `${label}-${randomBytes(5).toString('hex')}@example.nz`;
export const newPassword = () => `Harbour-${randomBytes(5).toString('hex')}-kite`;

export async function verifiedAccount(request: APIRequestContext) {
  const email = newEmail('e2e');
  const password = newPassword();
  expect((await request.post('/api/auth/signup', { data: { email, password } })).status()).toBe(202);
  const [mail] = await waitForMails(process.env.E2E_DATA_DIR!, email);
  const token = tokenFrom(linkIn(mail!, 'http://localhost'));
  expect((await request.post('/api/auth/verify-email', { data: { token } })).status()).toBe(200);
  return { email, password };
}

/**
 * Signs `email` in the way the login screen's form does underneath: the real POST /api/auth/login,
 * with an admin's one-time code from withAdminOtp (second-factor.ts claims each code once, and
 * holds the admin until the server has answered). It goes through the page's own browser context,
 * whose request client shares the context's cookie jar: the session cookie the answer sets is the
 * browser's from then on. The page itself is not touched: open or reload it after (signInAt).
 *
 * Most specs sign in this way: typing into the login screen took a second or more per sign-in,
 * about 140 times a run. The login screen keeps its own coverage where it is the subject, typed
 * (signInOnLoginScreen, or field by field):
 * - accounts.spec.ts: a customer on /support after sign-up, the spinner and the failure box, a
 *   wrong password and an unknown email (one message), an unverified email, a reset password,
 *   other sessions ended by a password change, throttling, axe;
 * - second-factor.spec.ts: admins on /admin with an authenticator code, a recovery code (once
 *   only), a passkey, the code field's messages;
 * - session-lost.spec.ts: a customer on /support and an admin with a code on /admin/support (the
 *   code asked for after the password), with JavaScript;
 * - forms-without-js.spec.ts and forms-without-js-accounts.spec.ts, without JavaScript: a
 *   customer landing on the page the screen was shown on, a wrong password, an unverified email,
 *   an admin on /support (password, then the code alone) and on /admin/mail, and a sign-in sent
 *   before the page's JavaScript has run;
 * - page-feel.spec.ts: focus on the screen's first field in error, then a customer's sign-in;
 * - notifications.spec.ts: a mailed link to a ticket shows the screen, and signing in lands on it;
 * - account-delete.spec.ts: a deleted account's password no longer signs in;
 * - admin.spec.ts: a customer who signs in on the console's screen is refused the console.
 */
export async function signIn(page: Page, email: string, password: string) {
  const request = page.context().request;
  // The context's baseURL (the e2e server, or the server a spec starts itself), or the page's own.
  const url = page.url().startsWith('http') ? new URL('/api/auth/login', page.url()).href : '/api/auth/login';
  await withAdminOtp(email, async (otp) => {
    const answer = await request.post(url, {
      data: otp === undefined ? { email, password } : { email, password, otp },
    });
    expect(answer.status(), `sign-in of ${email}: ${await answer.text()}`).toBe(200);
  });
}

/** The admin the e2e server was started with (made by the CLI; its second factor: second-factor.ts). */
export const E2E_ADMIN = {
  get email() {
    return process.env.E2E_ADMIN_EMAIL!;
  },
  get password() {
    return process.env.E2E_ADMIN_PASSWORD!;
  },
};

/** Signs `user` in (signIn) and opens `path` as them. */
export async function signInAt(page: Page, path: string, user: { email: string; password: string }) {
  await signIn(page, user.email, user.password);
  await page.goto(path);
  // A page that runs the app (its inline scripts ran: JavaScript is on) is used once the app has
  // taken it over: typed keys (Enter to send) are the app's only then. The login screen's own
  // answer used to give that moment; without JavaScript the page is used as the server sent it.
  if (await page.evaluate(() => '__reactRouterContext' in window)) await hydrated(page);
}

/** Signs in on the login screen; an admin also types a one-time code (shown on /admin, asked for elsewhere). */
export async function signInOnLoginScreen(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  const login = page.getByRole('button', { name: 'Login' });
  await withAdminOtp(email, async (otp) => {
    if (!otp) return login.click();
    const codeField = page.getByLabel('One-time code');
    if (!(await codeField.isVisible())) {
      // Elsewhere than /admin the screen asks for the code after the password (without JavaScript
      // it holds a ticket for the password and asks for the code alone).
      await login.click();
      await expect(codeField).toBeVisible();
    }
    await codeField.fill(otp);
    // The admin stays held until the server has answered this code: the form's post to the page's
    // action (a fetch of the app's, or the form's navigation without JavaScript).
    const answered = page.waitForResponse((response) => response.request().method() === 'POST');
    await login.click();
    await answered;
  });
}

/** The site header once React runs it: the app has taken over the page. */
export const HYDRATED_HEADER = 'header.site-header[data-hydrated="true"]';

/** Waits until the app has taken over the page. */
export const hydrated = (page: Page) => expect(page.locator(HYDRATED_HEADER)).toBeAttached();

/** Signs `user` in (signIn), opens /support and waits for their ticket list. */
export async function signInToTickets(page: Page, user: { email: string; password: string }) {
  await signInAt(page, '/support', user);
  await expect(page.getByRole('heading', { name: SUPPORT_TEXT.listTitle })).toBeVisible();
}

/** Opens a ticket as the page's signed-in user, through the callable the mobile app uses. */
export async function openTicketByCallable(page: Page, reason: string, message: string) {
  const created = await page.request.post('/api/functions/createSupportTicket', {
    data: { data: { reason, message } },
  });
  expect(created.status()).toBe(200);
  return (await created.json()).result as { ticketId: string; ticketNo: number };
}

/** A new verified customer, signed in on `request`, who opens a ticket as the mobile app does. */
export async function customerTicket(request: APIRequestContext, message: string, reason = 'General') {
  const user = await verifiedAccount(request);
  expect((await request.post('/api/auth/login', { data: user })).status()).toBe(200);
  const created = await request.post('/api/functions/createSupportTicket', { data: { data: { reason, message } } });
  expect(created.status()).toBe(200);
  return (await created.json()).result as { ticketId: string; ticketNo: number };
}

/** An API client signed in as the admin the e2e server was started with (made by the CLI). */
export async function adminApi(baseURL: string): Promise<APIRequestContext> {
  // The session global-setup.ts opened with the admin's second factor, as a bearer token.
  const token = factorOf(process.env.E2E_ADMIN_EMAIL!)?.token;
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  expect((await api.get('/api/admin/second-factor')).status()).toBe(200);
  return api;
}

/** A verified account given the admin role by an admin's API client (Users → Roles); no second factor yet. */
export async function newAdminAccount(request: APIRequestContext, admin: APIRequestContext) {
  const account = await verifiedAccount(request);
  const found = await admin.get(`/api/admin/users?q=${encodeURIComponent(account.email)}`);
  const [user] = ((await found.json()) as { users: Array<{ id: string }> }).users;
  expect((await admin.post(`/api/admin/users/${user!.id}/roles`, { data: { roles: ['admin'] } })).status()).toBe(200);
  return account;
}
