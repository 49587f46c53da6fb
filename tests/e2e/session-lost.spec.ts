import { type Browser, expect, type Page, test } from '@playwright/test';
import { SUPPORT_TEXT } from '../../src/contracts/support.ts';
import { adminApi, signInOnLoginScreen, verifiedAccount } from './fixtures.ts';
import { VIEWPORTS } from './support.ts';

/**
 * A page that showed private data shows the login screen once its session is gone: no reload, as
 * soon as the live stream says so (the deadline is generous, for a loaded machine; a pass is as quick as the page).
 * The sign-ins are typed into the login screen here (a customer on /support, an admin with a code
 * on /admin/support), in the tab the test signs out from.
 */

const loginScreen = (page: Page) => page.getByRole('button', { name: 'Login' });

async function twoTabs(browser: Browser, baseURL: string, email: string, password: string, area = '/support') {
  const context = await browser.newContext({ baseURL, viewport: VIEWPORTS.desktop });
  const first = await context.newPage();
  await first.goto(area);
  await signInOnLoginScreen(first, email, password);
  await expect(first.getByRole('button', { name: 'Sign Out' })).toBeVisible();
  const second = await context.newPage();
  return { context, first, second };
}

/** Marks the page's window: if the page reloads, the mark is gone. */
const markWindow = (page: Page) => page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));
const stillSameWindow = (page: Page) => page.evaluate(() => (window as unknown as { kept?: boolean }).kept === true);

test('signing out in one tab shows the login screen in the others: the ticket list and a ticket', async ({
  browser,
  request,
  baseURL,
}) => {
  const user = await verifiedAccount(request);
  const { context, first, second } = await twoTabs(browser, baseURL!, user.email, user.password);
  const created = await first.request.post('/api/functions/createSupportTicket', {
    data: { data: { reason: 'General', message: 'A private question about my parcel.' } },
  });
  const { ticketId } = (await created.json()).result as { ticketId: string };
  await second.goto(`/support/ticket/${ticketId}`);
  await expect(second.getByText('A private question about my parcel.')).toBeVisible();
  await expect(second.getByText('Live', { exact: true })).toBeVisible();
  const third = await context.newPage();
  await third.goto('/support/tickets');
  await expect(third.getByRole('heading', { name: SUPPORT_TEXT.listTitle })).toBeVisible();
  await expect(third.getByText('Live', { exact: true })).toBeVisible();
  await markWindow(second);
  await markWindow(third);

  await first.getByRole('button', { name: 'Sign Out' }).click();
  for (const page of [second, third]) {
    await expect(loginScreen(page)).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText('A private question about my parcel.')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Sign Out' })).toHaveCount(0);
    expect(await stillSameWindow(page)).toBe(true);
  }
  await context.close();
});

test('the admin console does the same: the inbox and a ticket', async ({ browser, request, baseURL }) => {
  const user = await verifiedAccount(request);
  expect((await request.post('/api/auth/login', { data: user })).status()).toBe(200);
  const created = await request.post('/api/functions/createSupportTicket', {
    data: { data: { reason: 'General', message: 'Question for the console.' } },
  });
  const { ticketId } = (await created.json()).result as { ticketId: string };
  const { context, first, second } = await twoTabs(
    browser,
    baseURL!,
    process.env.E2E_ADMIN_EMAIL!,
    process.env.E2E_ADMIN_PASSWORD!,
    // Not /admin, whose screen shows the code field at once: here the screen asks for the code
    // after the password (second-factor.spec.ts signs admins in on /admin).
    '/admin/support',
  );
  await second.goto(`/admin/support/${ticketId}`);
  await expect(second.getByText('Question for the console.', { exact: true })).toBeVisible();
  const third = await context.newPage();
  await third.goto('/admin/support');
  await expect(third.getByText('Live', { exact: true })).toBeVisible();
  await markWindow(second);
  await markWindow(third);

  await first.getByRole('button', { name: 'Sign Out' }).click();
  for (const page of [second, third]) {
    await expect(loginScreen(page)).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText('Question for the console.')).toHaveCount(0);
    expect(await stillSameWindow(page)).toBe(true);
  }
  await context.close();
});

test('a session ended on the server (the account disabled) shows the login screen without a reload', async ({
  browser,
  request,
  baseURL,
}) => {
  const user = await verifiedAccount(request);
  const { context, first } = await twoTabs(browser, baseURL!, user.email, user.password);
  await first.goto('/support/tickets');
  await expect(first.getByText('Live', { exact: true })).toBeVisible();
  await markWindow(first);
  const admin = await adminApi(baseURL!);
  const found = await admin.get(`/api/admin/users?q=${encodeURIComponent(user.email)}`);
  const { users } = (await found.json()) as { users: Array<{ id: string; email: string }> };
  const id = users.find((u) => u.email === user.email)!.id;
  expect((await admin.post(`/api/admin/users/${id}/disable`)).status()).toBe(200);
  await expect(loginScreen(first)).toBeVisible({ timeout: 15_000 });
  expect(await stillSameWindow(first)).toBe(true);
  await admin.dispose();
  await context.close();
});
