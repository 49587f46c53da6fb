import { type Browser, expect, type Page, test } from '@playwright/test';
import { ACCOUNT_MESSAGES } from '../../src/contracts/account.ts';
import { linkIn, waitForMail } from '../helpers/mail.ts';
import { newEmail, signInAt, verifiedAccount } from './fixtures.ts';
import { expectNoAxeViolations, VIEWPORTS, watchPage } from './support.ts';

/** /account in Chromium (docs/product.md §2.13): the email change with both mails, and the sessions list. */

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const loginScreen = (page: Page) => page.getByRole('button', { name: 'Login' });

/** A browser of its own (cookies not shared), signed in (signIn) and on /support. */
async function signedInBrowser(
  browser: Browser,
  baseURL: string,
  user: { email: string; password: string },
  options: { userAgent?: string; javaScriptEnabled?: boolean } = {},
) {
  const context = await browser.newContext({ baseURL, viewport: VIEWPORTS.desktop, ...options });
  const page = await context.newPage();
  await signInAt(page, '/support', user);
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
  return { context, page };
}

/** Another browser of the same person, signed in through the API (its cookie set in that browser), on the live ticket list. */
async function anotherBrowserOnTickets(
  browser: Browser,
  baseURL: string,
  user: { email: string; password: string },
  userAgent?: string,
) {
  const context = await browser.newContext({ baseURL, viewport: VIEWPORTS.desktop, userAgent });
  expect((await context.request.post('/api/auth/login', { data: user })).status()).toBe(200);
  const page = await context.newPage();
  await page.goto('/support/tickets');
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  return { context, page };
}

test('changing the email: the link goes to the new address, the old one is told, and sign-in moves only once confirmed', async ({
  browser,
  request,
  baseURL,
}) => {
  // Two mail round trips, six password hashes and two accessibility scans: more than the default time on a busy machine.
  test.slow();
  const user = await verifiedAccount(request);
  const { context, page } = await signedInBrowser(browser, baseURL!, user);
  const watched = watchPage(page, baseURL!);
  await page.getByRole('link', { name: 'Account', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();
  await expect(page.getByText('Member since')).toBeVisible();

  const moved = newEmail('moved');
  const form = page.getByRole('form', { name: 'Change your email address' });
  await form.getByLabel('New email address').fill(moved);
  await form.getByLabel('Current password').fill('not-my-password');
  await form.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(form.getByText(ACCOUNT_MESSAGES.currentPasswordWrong)).toBeVisible();
  await expect(form.getByLabel('Current password')).toBeFocused();
  await expectNoAxeViolations(page);

  await form.getByLabel('Current password').fill(user.password);
  await form.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(page.getByText(ACCOUNT_MESSAGES.emailChangeRequested)).toBeVisible();
  await expect(page.getByText('Waiting for confirmation from')).toBeVisible();

  const dataDir = process.env.E2E_DATA_DIR!;
  const link = await waitForMail(dataDir, moved, 'Confirm your new email address for Bagspace');
  const notice = await waitForMail(dataDir, user.email, 'Your Bagspace email address may change');
  expect(notice.text).toContain(moved);
  // Until the link is followed, the old address signs in and the new one does not.
  expect((await request.post('/api/auth/login', { data: { email: moved, password: user.password } })).status()).toBe(
    401,
  );

  await page.goto(linkIn(link, `${baseURL}/confirm-email?token=`));
  await expect(page).toHaveURL(/\/confirm-email$/);
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Confirm my new email address' }).click();
  await expect(page.getByText(ACCOUNT_MESSAGES.emailChanged)).toBeVisible();
  const changed = await waitForMail(dataDir, user.email, 'Your Bagspace email address was changed');
  expect(changed.text).toContain(moved);

  await page.getByRole('link', { name: 'Go to your account' }).click();
  await expect(page.getByRole('region', { name: 'Profile' }).getByText(moved)).toBeVisible();
  expect((await request.post('/api/auth/login', { data: { email: moved, password: user.password } })).status()).toBe(
    200,
  );
  // The refused password is a 400 answer on purpose; nothing else may go wrong.
  expect(watched.problems.filter((p) => !p.includes('status of 400'))).toEqual([]);
  await context.close();
});

test('the sessions list shows a second browser, and signing it out shows it the login screen without a reload', async ({
  browser,
  request,
  baseURL,
}) => {
  const user = await verifiedAccount(request);
  const first = await signedInBrowser(browser, baseURL!, user);
  const second = await anotherBrowserOnTickets(browser, baseURL!, user, FIREFOX);
  await second.page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));

  await first.page.goto('/account');
  const sessions = first.page.getByRole('list', { name: 'Sessions' });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  const here = sessions.getByRole('listitem').filter({ hasText: 'This device' });
  await expect(here).toContainText('Chrome');
  await expect(here.getByRole('button')).toHaveCount(0);
  const other = sessions.getByRole('listitem').filter({ hasText: 'Firefox 128 on Windows 10' });
  await expect(other).toContainText('127.0.0.0/24');
  await expectNoAxeViolations(first.page);

  await other.getByRole('button', { name: /^Sign out Firefox 128 on Windows 10/ }).click();
  await expect(first.page.getByText(ACCOUNT_MESSAGES.sessionEnded)).toBeVisible();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  await expect(first.page.getByText('You are not signed in anywhere else.')).toBeVisible();

  await expect(loginScreen(second.page)).toBeVisible({ timeout: 15_000 });
  expect(await second.page.evaluate(() => (window as unknown as { kept?: boolean }).kept === true)).toBe(true);
  // The first browser is still signed in.
  await first.page.reload();
  await expect(first.page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();
  await first.context.close();
  await second.context.close();
});

test('Sign out everywhere else ends every other browser and keeps this one', async ({ browser, request, baseURL }) => {
  const user = await verifiedAccount(request);
  const first = await signedInBrowser(browser, baseURL!, user);
  const others = [
    await anotherBrowserOnTickets(browser, baseURL!, user),
    await anotherBrowserOnTickets(browser, baseURL!, user),
  ];
  await first.page.goto('/account');
  await expect(first.page.getByRole('list', { name: 'Sessions' }).getByRole('listitem')).toHaveCount(3);
  await first.page.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(first.page.getByText(ACCOUNT_MESSAGES.otherSessionsEnded(2))).toBeVisible();
  for (const other of others) await expect(loginScreen(other.page)).toBeVisible({ timeout: 15_000 });
  await expect(first.page.getByRole('list', { name: 'Sessions' }).getByRole('listitem')).toHaveCount(1);
  for (const context of [first.context, ...others.map((o) => o.context)]) await context.close();
});

test('without JavaScript: a session is signed out and an email change is refused and sent, all by form posts', async ({
  browser,
  request,
  baseURL,
}) => {
  const user = await verifiedAccount(request);
  const first = await signedInBrowser(browser, baseURL!, user, { javaScriptEnabled: false });
  const second = await signedInBrowser(browser, baseURL!, user, { userAgent: FIREFOX });
  await first.page.goto('/account');
  await first.page.getByRole('button', { name: /^Sign out Firefox 128 on Windows 10/ }).click();
  await expect(first.page).toHaveURL(/\/account\?done=session$/);
  await expect(first.page.getByText(ACCOUNT_MESSAGES.sessionEnded)).toBeVisible();
  expect((await second.page.request.get('/api/auth/session')).status()).toBe(401);

  const form = first.page.getByRole('form', { name: 'Change your email address' });
  const moved = newEmail('nojs-moved');
  await form.getByLabel('New email address').fill(moved);
  await form.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(first.page.getByText(ACCOUNT_MESSAGES.currentPasswordRequired)).toBeVisible();
  await expect(first.page.getByLabel('New email address')).toHaveValue(moved);
  await first.page.getByLabel('Current password').fill(user.password);
  await first.page.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(first.page.getByText(ACCOUNT_MESSAGES.emailChangeRequested)).toBeVisible();
  const link = await waitForMail(process.env.E2E_DATA_DIR!, moved, 'Confirm your new email address for Bagspace');

  await first.page.goto(linkIn(link, `${baseURL}/confirm-email?token=`));
  await first.page.getByRole('button', { name: 'Confirm my new email address' }).click();
  await expect(first.page.getByText(ACCOUNT_MESSAGES.emailChanged)).toBeVisible();
  await first.context.close();
  await second.context.close();
});
