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

/** Signs `user` in on /support and waits for their ticket list. */
export async function signInToTickets(page: Page, user: { email: string; password: string }) {
  await page.goto('/support');
  await signInOnLoginScreen(page, user.email, user.password);
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

/** An API client signed in as the admin the e2e server was started with (made by the CLI). */
export async function adminApi(baseURL: string): Promise<APIRequestContext> {
  // The session global-setup.ts opened with the admin's second factor, as a bearer token.
  const token = factorOf(process.env.E2E_ADMIN_EMAIL!)?.token;
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  expect((await api.get('/api/admin/second-factor')).status()).toBe(200);
  return api;
}

/** A verified account made admin by an admin's API client (Users → Make admin); no second factor yet. */
export async function newAdminAccount(request: APIRequestContext, admin: APIRequestContext) {
  const account = await verifiedAccount(request);
  const found = await admin.get(`/api/admin/users?q=${encodeURIComponent(account.email)}`);
  const [user] = ((await found.json()) as { users: Array<{ id: string }> }).users;
  expect((await admin.post(`/api/admin/users/${user!.id}/role`, { data: { role: 'admin' } })).status()).toBe(200);
  return account;
}
