import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { AUTH_MESSAGES } from '../../src/contracts/auth.ts';
import { NOTIFICATION_TEXT } from '../../src/contracts/notifications.ts';
import { waitForMails } from '../helpers/mail.ts';
import { newEmail, newPassword, signInAt, signInOnLoginScreen, verifiedAccount } from './fixtures.ts';

/**
 * Account forms of the login screen and the account pages in a browser without JavaScript: the
 * verification resend and the notification settings post to their page, which answers with a page.
 * (The other JavaScript-off forms are in forms-without-js.spec.ts.)
 */
test.use({ javaScriptEnabled: false });

const SEND = 'Send a new verification email';

/** An account whose address is not confirmed yet: signed up, its first mail (one of five an hour) sent. */
async function unverifiedAccount(request: APIRequestContext) {
  const email = newEmail('nojs-unverified');
  const password = newPassword();
  expect((await request.post('/api/auth/signup', { data: { email, password } })).status()).toBe(202);
  await waitForMails(process.env.E2E_DATA_DIR!, email, 1);
  return { email, password };
}

async function refusedAsUnverified(page: Page, email: string, password: string) {
  await page.goto('/support');
  await signInOnLoginScreen(page, email, password);
  await expect(page.getByText(AUTH_MESSAGES.unverified)).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue(email);
}

test('an unverified account is told so on signing in, and the resend button mails a new link', async ({
  page,
  request,
  context,
}) => {
  const { email, password } = await unverifiedAccount(request);
  await refusedAsUnverified(page, email, password);
  expect((await context.cookies()).filter((c) => c.name === 'session')).toEqual([]);

  await page.getByRole('button', { name: SEND }).click();
  await expect(page).toHaveURL(/\/support$/);
  await expect(page.getByRole('status')).toHaveText(AUTH_MESSAGES.verificationSent);
  await expect(page.getByRole('button', { name: SEND })).toHaveCount(0);
  await waitForMails(process.env.E2E_DATA_DIR!, email, 2);
  // Still the login screen, the address kept for signing in once the link is followed.
  await expect(page.getByLabel('Email')).toHaveValue(email);
});

// The address is a hidden field the screen fills in, so a malformed one cannot be sent from the
// page (the integration tests send one); the refusal a visitor can meet is the API's rate limit.
test('a resend over the hourly limit shows the API’s message, never JSON', async ({ page, request }) => {
  const { email, password } = await unverifiedAccount(request);
  for (let i = 0; i < 4; i++)
    expect((await request.post('/api/auth/resend-verification', { data: { email } })).status()).toBe(202);
  await refusedAsUnverified(page, email, password);

  const answer = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/support',
  );
  await page.getByRole('button', { name: SEND }).click();
  expect((await answer).status()).toBe(429);
  await expect(page.getByRole('alert').filter({ hasText: AUTH_MESSAGES.tooManyMailRequests })).toBeVisible();
  expect(await page.locator('body').innerText()).not.toContain('"error"');
});

test('notification settings are saved and the answer is a redirect, so a reload sends nothing again', async ({
  page,
  request,
}) => {
  await signInAt(page, '/account/notifications', await verifiedAccount(request));
  const replies = page.getByLabel('Replies to my support tickets');
  await expect(replies).toBeChecked();
  await replies.uncheck();
  const posted = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/account/notifications',
  );
  await page.getByRole('button', { name: 'Save' }).click();
  const answer = await posted;
  expect(answer.status()).toBe(303);
  expect(answer.headers().location).toBe('/account/notifications?saved=1');
  await expect(page).toHaveURL(/\/account\/notifications\?saved=1$/);
  await expect(page.getByText(NOTIFICATION_TEXT.saved)).toBeVisible();
  await expect(replies).not.toBeChecked();
  await expect(page.getByLabel('When my ticket is closed')).toBeChecked();

  // The page on screen came from a GET, so reloading it asks for the page again, not the form.
  const reloaded = await page.reload();
  expect(reloaded?.request().method()).toBe('GET');
  expect(reloaded?.status()).toBe(200);
  await expect(replies).not.toBeChecked();
});
