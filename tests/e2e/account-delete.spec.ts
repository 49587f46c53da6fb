import { execFileSync } from 'node:child_process';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { DELETION_TEXT, ERASED_USER } from '../../src/contracts/account-deletion.ts';
import { AUTH_MESSAGES } from '../../src/contracts/auth.ts';
import { png } from '../helpers/attachment-files.ts';
import { hydrated, signInAt, signInOnLoginScreen, verifiedAccount } from './fixtures.ts';
import { enrolOnConsole } from './second-factor.ts';
import { VIEWPORTS } from './support.ts';

/** Deleting an account, then its erasure, in Chromium (docs/product.md §2.14). */

async function browserAs(browser: Browser, baseURL: string, path: string, email: string, password: string) {
  const context = await browser.newContext({ baseURL, viewport: VIEWPORTS.desktop });
  const page = await context.newPage();
  await signInAt(page, path, { email, password });
  return { context, page };
}

/**
 * A new admin: an account made admin with the command line (as an operator does), signed in, with
 * an authenticator app set up on the console's own screen (enrolOnConsole), then the console.
 */
async function newAdmin(browser: Browser, baseURL: string, request: APIRequestContext) {
  const account = await verifiedAccount(request);
  execFileSync(process.execPath, ['scripts/cli.ts', 'set-role', '--email', account.email, '--role', 'admin'], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR! },
    stdio: 'ignore',
  });
  const signedIn = await browserAs(browser, baseURL, '/admin', account.email, account.password);
  const { page } = signedIn;
  await expect(page.getByRole('heading', { name: 'Set up a second factor' })).toBeVisible();
  await enrolOnConsole(page);
  return signedIn;
}

const ticketFor = async (page: Page, message: string) => {
  const created = await page.request.post('/api/functions/createSupportTicket', {
    data: { data: { reason: 'Incident', message } },
  });
  expect(created.status()).toBe(200);
  const { ticketId } = (await created.json()).result as { ticketId: string };
  const sent = await page.request.post(`/api/support/tickets/${ticketId}/messages`, {
    multipart: { messageBody: 'A photo', files: { name: 'bag.png', mimeType: 'image/png', buffer: await png() } },
  });
  expect(sent.status()).toBe(200);
  return ticketId;
};

test('a person deletes their account with the password; an admin keeps a ticket for the record and erases now', async ({
  browser,
  request,
  baseURL,
}) => {
  // Two browsers, an admin set up with a second factor, and the erasure worker: more than the default time.
  test.slow();
  const user = await verifiedAccount(request);
  const person = await browserAs(browser, baseURL!, '/support', user.email, user.password);
  await expect(person.page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
  const kept = await ticketFor(person.page, 'My bag was torn in transit.');
  const dropped = await ticketFor(person.page, 'A question about fees.');

  // An admin of this test's own (the console asks each admin for a second factor) marks the first
  // ticket's messages as needed for the record.
  const admin = await newAdmin(browser, baseURL!, request);
  await admin.page.goto(`/admin/support/${kept}`);
  // The app has taken the page over before the menu opens: a click on a page still being hydrated can
  // be lost in its first render (under load the menu stayed shut and the switch was never visible).
  await hydrated(admin.page);
  // The switch is one of the ticket's tools in its 'More actions' menu.
  await admin.page.locator('summary', { hasText: 'More actions' }).click();
  const keep = admin.page.getByTestId('keep-for-record');
  // A switch that says its state, with a line saying what it does.
  await expect(keep).toHaveAttribute('role', 'switch');
  await expect(keep).toHaveAttribute('aria-checked', 'false');
  await expect(keep).toHaveAccessibleDescription(DELETION_TEXT.keepForRecordHint);
  await keep.click();
  await expect(keep).toHaveAttribute('aria-checked', 'true');

  // The person deletes the account: a wrong password first, then the right one.
  await person.page.goto('/account/delete');
  const form = person.page.getByRole('form', { name: DELETION_TEXT.title });
  await expect(person.page.getByText(/your personal data is erased/)).toBeVisible();
  await person.page.screenshot({ path: '.tmp/account-delete-form.png', fullPage: true });
  await form.getByLabel(DELETION_TEXT.passwordLabel).fill('not-my-password');
  await form.getByRole('button', { name: DELETION_TEXT.button }).click();
  await expect(form.getByText(AUTH_MESSAGES.currentPasswordWrong)).toBeVisible();
  await form.getByLabel(DELETION_TEXT.passwordLabel).fill(user.password);
  await form.getByRole('button', { name: DELETION_TEXT.button }).click();
  const confirmation = person.page.getByText(/Your account is closed and you have been signed out everywhere/);
  await expect(confirmation).toBeVisible();
  // The header follows at once: signed out, and the confirmation stays (it is not replaced by
  // 'Please sign in first' when the page learns the session is gone).
  await expect(person.page.getByRole('button', { name: 'Sign Out' })).toHaveCount(0);
  await expect(confirmation).toBeVisible();
  await person.page.screenshot({ path: '.tmp/account-delete-done.png', fullPage: true });

  // Signed out, and the password no longer signs in (typed into the login screen, which says so).
  await person.page.goto('/support');
  await expect(person.page.getByRole('button', { name: 'Login' })).toBeVisible();
  await signInOnLoginScreen(person.page, user.email, user.password);
  await expect(person.page.getByText(AUTH_MESSAGES.invalidCredentials)).toBeVisible();

  // The admin sees the request on the Users screen and erases the account now.
  await admin.page.goto(`/admin/users?q=${encodeURIComponent(user.email)}`);
  const row = admin.page.getByRole('row').filter({ hasText: user.email });
  await expect(row.getByText(/Deletion requested — erased on/)).toBeVisible();
  await row.getByRole('button', { name: DELETION_TEXT.eraseNow }).click();
  await admin.page.getByRole('button', { name: /Yes, erase now/i }).click();
  await expect(admin.page.getByText(DELETION_TEXT.eraseScheduled(user.email))).toBeVisible();

  // The worker erases it: the kept ticket shows 'Deleted user', the other ticket is gone.
  await expect
    .poll(async () => (await admin.page.request.get(`/api/admin/support/tickets/${kept}`)).text(), { timeout: 60_000 })
    .toContain(ERASED_USER);
  expect((await admin.page.request.get(`/api/admin/support/tickets/${dropped}`)).status()).toBe(404);
  await admin.page.goto(`/admin/support/${kept}`);
  await expect(admin.page.getByText(ERASED_USER).first()).toBeVisible();
  await expect(admin.page.getByText(user.email)).toHaveCount(0);
  await admin.page.goto(`/admin/users?q=deleted-`);
  await expect(admin.page.getByRole('row').filter({ hasText: ERASED_USER }).first()).toBeVisible();
  await admin.page.screenshot({ path: '.tmp/account-delete-admin.png', fullPage: true });
  await person.context.close();
  await admin.context.close();
});

test('without JavaScript, the form is posted to its page and answers with the closed account', async ({
  browser,
  request,
  baseURL,
}) => {
  const user = await verifiedAccount(request);
  const context = await browser.newContext({ baseURL, viewport: VIEWPORTS.desktop, javaScriptEnabled: false });
  const page = await context.newPage();
  await signInAt(page, '/account/delete', user);
  const form = page.getByRole('form', { name: DELETION_TEXT.title });
  await form.getByLabel(DELETION_TEXT.passwordLabel).fill('not-my-password');
  await form.getByRole('button', { name: DELETION_TEXT.button }).click();
  await expect(page.getByText(AUTH_MESSAGES.currentPasswordWrong)).toBeVisible();
  await page.getByLabel(DELETION_TEXT.passwordLabel).fill(user.password);
  await page.getByRole('button', { name: DELETION_TEXT.button }).click();
  await expect(page.getByText(/Your account is closed and you have been signed out everywhere/)).toBeVisible();
  expect((await request.post('/api/auth/login', { data: user })).status()).toBe(401);
  await page.goto('/account/delete');
  await expect(page.getByText('Please sign in first.')).toBeVisible();
  await context.close();
});
