import { expect, type Page, test } from '@playwright/test';
import { AUTH_MESSAGES } from '../../src/contracts/auth.ts';
import { SECOND_FACTOR_MESSAGES } from '../../src/contracts/second-factor.ts';
import { SUPPORT_TEXT } from '../../src/contracts/support.ts';
import { linkIn, waitForMail } from '../helpers/mail.ts';
import {
  adminApi,
  E2E_ADMIN,
  hydrated,
  newAdminAccount,
  newEmail,
  newPassword,
  signInAt,
  signInOnLoginScreen,
  signInToTickets,
  verifiedAccount,
} from './fixtures.ts';
import { confirmAuthenticatorApp, withAdminOtp } from './second-factor.ts';

const bubbles = (page: Page) => page.getByRole('log', { name: 'Messages' }).getByRole('listitem');

/** Holds back the app's scripts from now on; the returned function lets them load. */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/**/*.js', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * Forms as a browser without JavaScript sends them, and as a slow phone sends them before the
 * page's JavaScript has run: the page's own action answers with a page, never JSON.
 */
test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the support login screen signs in and lands on the page it was shown on', async ({ page, request }) => {
    const { email, password } = await verifiedAccount(request);
    await page.goto('/support/create-ticket');
    await signInOnLoginScreen(page, email, password);
    await expect(page).toHaveURL(/\/support\/create-ticket$/);
    await expect(page.getByText(`Welcome back, ${email}.`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
  });

  test('a wrong password and a malformed email answer the login screen with the message, the email kept', async ({
    page,
  }) => {
    const email = newEmail('nojs');
    await page.goto('/support');
    await signInOnLoginScreen(page, email, 'Wrong-password-123');
    await expect(page.getByRole('alert')).toContainText(AUTH_MESSAGES.invalidCredentials);
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await expect(page.getByLabel('Password')).toHaveValue('');

    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByText(AUTH_MESSAGES.emailInvalid)).toBeVisible();
    await expect(page.getByText(AUTH_MESSAGES.passwordRequired)).toBeVisible();
  });

  test('sign-up, confirming the address and forgot/reset password work from their pages', async ({ page }) => {
    const email = newEmail('nojs-account');
    const password = newPassword();
    await page.goto('/signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText(/Password must be at least/)).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText(AUTH_MESSAGES.signupAccepted)).toBeVisible();

    const confirm = await waitForMail(process.env.E2E_DATA_DIR!, email, 'Confirm your email address for Bagspace');
    await page.goto(linkIn(confirm, 'http://localhost'));
    await page.getByRole('button', { name: 'Confirm my email address' }).click();
    await expect(page.getByText(AUTH_MESSAGES.emailVerified)).toBeVisible();

    await page.goto('/forgot-password');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText(AUTH_MESSAGES.emailInvalid)).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText(AUTH_MESSAGES.resetRequested)).toBeVisible();
    const reset = await waitForMail(process.env.E2E_DATA_DIR!, email, 'Reset your Bagspace password');
    await page.goto(linkIn(reset, 'http://localhost'));
    const chosen = newPassword();
    await page.getByLabel('New password', { exact: true }).fill(chosen);
    await page.getByLabel('Confirm new password').fill(`${chosen}-not`);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText(AUTH_MESSAGES.passwordsDiffer)).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill(chosen);
    await page.getByLabel('Confirm new password').fill(chosen);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText(AUTH_MESSAGES.passwordReset)).toBeVisible();

    // Signed in with the new password, the password can be changed again from its page.
    await signInAt(page, '/account/password', { email, password: chosen });
    const latest = newPassword();
    await page.getByLabel('Current password').fill('Wrong-password-123');
    await page.getByLabel('New password', { exact: true }).fill(latest);
    await page.getByLabel('Confirm new password').fill(latest);
    await page.getByRole('button', { name: /Change password/ }).click();
    await expect(page.getByText(AUTH_MESSAGES.currentPasswordWrong)).toBeVisible();
    await page.getByLabel('Current password').fill(chosen);
    await page.getByLabel('New password', { exact: true }).fill(latest);
    await page.getByLabel('Confirm new password').fill(latest);
    await page.getByRole('button', { name: /Change password/ }).click();
    await expect(page.getByText(AUTH_MESSAGES.passwordChanged)).toBeVisible();
  });

  test('Contact us opens a ticket, and an empty reason is refused with Field Required', async ({ page, request }) => {
    await signInAt(page, '/support/create-ticket', await verifiedAccount(request));
    await page.getByLabel('Message').fill('Sent with JavaScript off.');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Field Required', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Message')).toHaveValue('Sent with JavaScript off.');
    await page.getByLabel('Reason').selectOption('Incident');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(/\/support\/ticket\/[0-9a-f-]{36}$/);
  });

  test('a user replies on their ticket; an empty reply and a closed ticket say why, the text kept', async ({
    page,
    request,
    baseURL,
  }) => {
    await signInAt(page, '/support/create-ticket', await verifiedAccount(request));
    await page.getByLabel('Reason').selectOption('Incident');
    await page.getByLabel('Message').fill('My bag came back without its strap.');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(/\/support\/ticket\/[0-9a-f-]{36}$/);
    const ticketId = page.url().split('/').at(-1)!;
    // The thread is in the page itself: no stream, no script.
    await expect(page.getByRole('heading', { name: /^Ticket #\d+$/ })).toBeVisible();
    await expect(bubbles(page)).toHaveCount(1);
    await expect(bubbles(page).first()).toContainText('My bag came back without its strap.');

    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('alert')).toContainText(SUPPORT_TEXT.replyEmpty);
    await expect(bubbles(page)).toHaveCount(1);

    await page.getByLabel('Your message').fill('The strap is blue, if that helps.');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page).toHaveURL(new RegExp(`/support/ticket/${ticketId}#message-\\d+$`));
    await expect(bubbles(page)).toHaveCount(2);
    await expect(bubbles(page).last()).toContainText('Me');
    await expect(bubbles(page).last()).toContainText('The strap is blue, if that helps.');
    await expect(page.getByLabel('Your message')).toHaveValue('');

    // Closed while the page was open: the spec's message, and what was typed stays on the page.
    const admin = await adminApi(baseURL!);
    expect((await admin.post(`/api/admin/support/tickets/${ticketId}/close`)).status()).toBe(200);
    await page.getByLabel('Your message').fill('One more thing about the strap.');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByText(SUPPORT_TEXT.replyRejected)).toBeVisible();
    await expect(page.getByText('One more thing about the strap.')).toBeVisible();
    await expect(bubbles(page)).toHaveCount(2);
    await admin.dispose();
  });

  test('an admin answers a ticket from the console; an empty answer is refused', async ({ page, request }) => {
    const user = await verifiedAccount(request);
    expect((await request.post('/api/auth/login', { data: user })).status()).toBe(200);
    const created = await request.post('/api/functions/createSupportTicket', {
      data: { data: { reason: 'General', message: 'When does my trip get verified?' } },
    });
    expect(created.status()).toBe(200);
    const { ticketId, ticketNo } = (await created.json()).result as { ticketId: string; ticketNo: number };

    await signInAt(page, `/admin/support/${ticketId}`, E2E_ADMIN);
    await expect(page).toHaveURL(new RegExp(`/admin/support/${ticketId}$`));
    await expect(page.getByRole('heading', { name: `Ticket #${ticketNo}` })).toBeVisible();
    await expect(bubbles(page)).toHaveCount(1);
    await expect(bubbles(page).first()).toContainText(user.email);

    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('alert')).toContainText(SUPPORT_TEXT.replyEmpty);
    await expect(bubbles(page)).toHaveCount(1);

    await page.getByLabel('Your message').fill('Within two working days.');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/support/${ticketId}#message-\\d+$`));
    await expect(bubbles(page)).toHaveCount(2);
    await expect(bubbles(page).last()).toContainText('Admin');
    await expect(bubbles(page).last()).toContainText('Within two working days.');
    // The user reads it as an answer from Admin.
    const thread = await request.get(`/api/support/tickets/${ticketId}/messages`);
    expect((await thread.json()).messages.at(-1)).toMatchObject({
      messageBody: 'Within two working days.',
      admin: true,
    });
  });

  test('a new admin sets up an app, then adds another, renews the recovery codes and removes the first on Sign-in security', async ({
    page,
    request,
    baseURL,
  }) => {
    const admin = await adminApi(baseURL!);
    const account = await newAdminAccount(request, admin);
    await admin.dispose();

    await signInAt(page, '/admin', account);
    await confirmAuthenticatorApp(page);
    await page.goto('/admin/security');
    await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(1);
    await page.getByRole('button', { name: 'Get new recovery codes' }).click();
    await expect(page.getByText(SECOND_FACTOR_MESSAGES.codesRenewed)).toBeVisible();
    await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);

    await page.goto('/admin/security');
    await page.getByRole('link', { name: 'Add an authenticator app' }).click();
    await confirmAuthenticatorApp(page);
    await page.getByRole('link', { name: 'I have saved them' }).click();
    await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(2);
    await page
      .getByRole('button', { name: /^Remove / })
      .first()
      .click();
    await expect(page.getByText(SECOND_FACTOR_MESSAGES.removed('Authenticator app'))).toBeVisible();
    await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(1);
  });

  test('an admin signing in on /support gives the password once, then the code alone', async ({ page }) => {
    const email = process.env.E2E_ADMIN_EMAIL!;
    await page.goto('/support');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(process.env.E2E_ADMIN_PASSWORD!);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByText(SECOND_FACTOR_MESSAGES.passwordAccepted(email))).toBeVisible();
    await expect(page.getByText(SECOND_FACTOR_MESSAGES.otpRequired)).toBeVisible();
    await expect(page.getByLabel('Password')).toHaveCount(0);
    await page.screenshot({ path: '.tmp/no-js-code-step.png', fullPage: true });
    await withAdminOtp(email, async (otp) => {
      await page.getByLabel('One-time code').fill(otp!);
      await page.getByRole('button', { name: 'Login' }).click();
      await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
    });
    await expect(page).toHaveURL(/\/support$/);
  });

  test('the admin console’s login screen signs an admin in', async ({ page }) => {
    await page.goto('/admin/mail');
    await signInOnLoginScreen(page, process.env.E2E_ADMIN_EMAIL!, process.env.E2E_ADMIN_PASSWORD!);
    await expect(page).toHaveURL(/\/admin\/mail$/);
    await expect(page.getByText(`Signed in as ${process.env.E2E_ADMIN_EMAIL}`)).toBeVisible();
  });
});

test('sign-in sent before the page’s JavaScript has run signs the user in, and never shows JSON', async ({
  page,
  request,
}) => {
  const { email, password } = await verifiedAccount(request);
  const client = await page.context().newCDPSession(page);
  await client.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  // The app's scripts are held back until the form is on its way: the form is sent before hydration.
  const release = await holdScripts(page);
  await page.goto('/support', { waitUntil: 'domcontentloaded' });
  await signInOnLoginScreen(page, email, password);
  await page.waitForURL(/\/support$/, { waitUntil: 'domcontentloaded' });
  release();
  await expect(page.getByText(`Welcome back, ${email}.`)).toBeVisible();
  expect(await page.locator('body').innerText()).not.toContain('"error"');
});

test('a reason chosen and words typed before the page’s JavaScript has run are kept when it takes over', async ({
  page,
  request,
}) => {
  const user = await verifiedAccount(request);
  await signInToTickets(page, user);
  // The app's scripts are held back while the person fills in the server-rendered form.
  const release = await holdScripts(page);
  await page.goto('/support/create-ticket', { waitUntil: 'domcontentloaded' });
  await page.getByLabel('Reason').selectOption('Incident');
  await page.getByLabel('Message').fill('The strap of my bag broke in transit.');
  release();
  await hydrated(page);
  await expect(page.getByLabel('Reason')).toHaveValue('Incident');
  await expect(page.getByLabel('Message')).toHaveValue('The strap of my bag broke in transit.');

  await page.getByRole('button', { name: 'Submit' }).click();
  await page.waitForURL(/\/support\/ticket\//);
  await expect(bubbles(page).first()).toContainText('The strap of my bag broke in transit.');
  await expect(page.getByText('Incident', { exact: false }).first()).toBeVisible();
});
