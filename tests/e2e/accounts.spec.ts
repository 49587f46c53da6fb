import { expect, type Page, type Route, test } from '@playwright/test';
import { linkIn, waitForMails } from '../helpers/mail.ts';
import { newEmail, newPassword, signInOnLoginScreen, verifiedAccount } from './fixtures.ts';
import { expectNoAxeViolations, VIEWPORTS, watchPage } from './support.ts';

/**
 * Accounts as a newcomer meets them: sign up, confirm from the mail (read from the server's
 * outbox folder), sign in to support, sign out, reset a forgotten password.
 */
const dataDir = process.env.E2E_DATA_DIR!;
const UNVERIFIED = 'The email associated with this account has not been verified!';

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test.describe('accounts', () => {
  test('a newcomer signs up, confirms from the mail, signs in to support and signs out', async ({
    page,
    context,
    baseURL,
  }) => {
    const watched = watchPage(page, baseURL!);
    const email = newEmail('newcomer');
    const password = newPassword();

    await page.goto('/support');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to get help' })).toBeVisible();
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Join and get support' })).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(`${password}x`);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('The passwords do not match')).toBeVisible();
    await page.getByLabel('Confirm password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Check your inbox', { exact: true })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();

    const [mail] = await waitForMails(dataDir, email);
    expect(mail!.subject).toBe('Confirm your email address for Bagspace');
    const link = linkIn(mail!, `${baseURL}/verify-email?token=`);
    await page.goto(link);
    await expect(page.getByText('Email address confirmed')).toBeVisible();
    // The one-time token leaves the address bar once used.
    expect(page.url()).toBe(`${baseURL}/verify-email`);
    await page.getByRole('link', { name: 'Sign in to support' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to get help' })).toBeVisible();
    await signInOnLoginScreen(page, email, password);
    await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();
    await expect(page.getByText(`Welcome back, ${email}.`)).toBeVisible();
    await expect(nav(page).getByRole('button', { name: 'Sign Out' })).toBeVisible();

    const [cookie] = (await context.cookies()).filter((c) => c.name === 'session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });
    expect(cookie!.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    expect(stored).not.toContain(cookie!.value);
    expect(await page.content()).not.toContain(cookie!.value);

    // Sign Out shows on every page while signed in.
    await nav(page).getByRole('link', { name: 'About' }).click();
    await expect(nav(page).getByRole('button', { name: 'Sign Out' })).toBeVisible();
    await nav(page).getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(`${baseURL}/`);
    await expect(nav(page).getByRole('button', { name: 'Sign Out' })).toHaveCount(0);
    expect((await context.cookies()).filter((c) => c.name === 'session')).toEqual([]);

    // The old cookie is refused by the server, not just forgotten by the browser.
    await context.addCookies([{ ...cookie!, expires: -1 }]);
    await page.goto('/support/create-ticket');
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    expect((await page.request.get('/api/auth/session')).status()).toBe(401);
    expect(watched.problems).toEqual([]);
    expect(watched.foreign).toEqual([]);
  });

  test('every support route shows the login screen to a visitor', async ({ page }) => {
    for (const path of [
      '/support',
      '/support/create-ticket',
      '/support/ticket/4d1c5a52-0000-4000-8000-000000000000',
      '/support/anything',
    ]) {
      await page.goto(path);
      await expect(page.getByLabel('Email')).toBeVisible();
      await expect(page.getByLabel('Password')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute(
        'href',
        '/forgot-password',
      );
      await expect(page.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/signup');
    }
  });

  test('signing in shows a blocking spinner, then failures in a message box with an error icon and a Close button', async ({
    page,
    request,
  }) => {
    const { email } = await verifiedAccount(request);
    await page.goto('/support');

    // Hold the sign-in (the form's post to the page's own action) in the network so the waiting state can be seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const onSupport = (url: URL) => url.pathname.startsWith('/support');
    const holdPosts = async (route: Route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    };
    await page.route(onSupport, holdPosts);
    await signInOnLoginScreen(page, email, 'not-my-password');
    const spinner = page.getByRole('status').filter({ hasText: 'Signing in…' });
    await expect(spinner).toBeVisible();
    await expect(page.getByRole('button', { name: 'Login' })).toBeDisabled();
    release();

    const box = page.getByRole('alertdialog', { name: 'Sign-in failed' });
    await expect(box).toBeVisible();
    await expect(spinner).toHaveCount(0);
    await expect(box).toContainText('The email or password is incorrect.');
    await expect(box.getByTestId('message-box-icon-error')).toBeVisible();
    await box.getByRole('button', { name: 'Close' }).click();
    await expect(box).toBeHidden();
    await page.unroute(onSupport, holdPosts);

    // An unknown email gets the very same message.
    await signInOnLoginScreen(page, newEmail('nobody'), 'not-my-password');
    await expect(page.getByRole('alertdialog', { name: 'Sign-in failed' })).toContainText(
      'The email or password is incorrect.',
    );
    await page.keyboard.press('Escape');
    await expect(page.getByRole('alertdialog')).toBeHidden();
  });

  test('an unverified user is signed out with the spec message and can ask for a new verification email', async ({
    page,
    request,
    context,
  }) => {
    const email = newEmail('unverified');
    const password = newPassword();
    expect((await request.post('/api/auth/signup', { data: { email, password } })).status()).toBe(202);
    await waitForMails(dataDir, email, 1);

    await page.goto('/support');
    await signInOnLoginScreen(page, email, password);
    const box = page.getByRole('alertdialog', { name: 'Email not verified' });
    await expect(box).toBeVisible();
    await expect(box.getByText(UNVERIFIED, { exact: true })).toBeVisible();
    await expect(box.getByTestId('message-box-icon-error')).toBeVisible();
    expect((await context.cookies()).filter((c) => c.name === 'session')).toEqual([]);

    await box.getByRole('button', { name: 'Send a new verification email' }).click();
    await expect(box.getByRole('status')).toContainText('a new verification link is on its way');
    const mails = await waitForMails(dataDir, email, 2);
    await box.getByRole('button', { name: 'Close' }).click();
    await expect(nav(page).getByRole('button', { name: 'Sign Out' })).toHaveCount(0);

    // The newest link verifies, and then sign-in works.
    await page.goto(linkIn(mails[1]!, 'http://localhost'));
    await expect(page.getByText('Email address confirmed')).toBeVisible();
    await page.goto('/support');
    await signInOnLoginScreen(page, email, password);
    await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();
  });

  test('a forgotten password is reset from the mailed link, and the new one signs in', async ({ page, request }) => {
    const { email, password } = await verifiedAccount(request);
    await page.goto('/support');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText('If an account exists for this email, we have sent a link')).toBeVisible();

    const mails = await waitForMails(dataDir, email, 2);
    const reset = mails.find((m) => m.subject === 'Reset your Bagspace password')!;
    await page.goto(linkIn(reset, 'http://localhost'));
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    const chosen = newPassword();
    await page.getByLabel('New password', { exact: true }).fill('password123');
    await page.getByLabel('Confirm new password').fill('password123');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText('This password is too common.')).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill(chosen);
    await page.getByLabel('Confirm new password').fill(chosen);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText('Your password has been reset.')).toBeVisible();

    await page.getByRole('link', { name: 'Sign in to support' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to get help' })).toBeVisible();
    await signInOnLoginScreen(page, email, password);
    await expect(page.getByRole('alertdialog', { name: 'Sign-in failed' })).toBeVisible();
    await page.getByRole('button', { name: 'Close' }).click();
    await signInOnLoginScreen(page, email, chosen);
    await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();
  });

  test('a signed-in user changes the password; other sessions end, this one stays', async ({
    page,
    request,
    browser,
  }) => {
    const { email, password } = await verifiedAccount(request);
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await otherPage.goto('/support');
    await signInOnLoginScreen(otherPage, email, password);
    await expect(otherPage.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();

    await page.goto('/support');
    await signInOnLoginScreen(page, email, password);
    await page.getByRole('link', { name: 'Change password' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Change your password' })).toBeVisible();
    const chosen = newPassword();
    await page.getByLabel('Current password').fill(password);
    await page.getByLabel('New password', { exact: true }).fill(chosen);
    await page.getByLabel('Confirm new password').fill(chosen);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Your password has been changed.')).toBeVisible();

    await page.goto('/support');
    await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();
    await otherPage.reload();
    await expect(otherPage.getByRole('button', { name: 'Login' })).toBeVisible();
    await other.close();
  });

  test('too many failed sign-ins show a readable wait message', async ({ page, request }) => {
    const { email } = await verifiedAccount(request);
    for (let i = 0; i < 10; i++) {
      expect((await request.post('/api/auth/login', { data: { email, password: `wrong-${i}` } })).status()).toBe(401);
    }
    await page.goto('/support');
    await signInOnLoginScreen(page, email, 'one-more-guess');
    const box = page.getByRole('alertdialog', { name: 'Please wait' });
    await expect(box).toContainText('Too many failed sign-in attempts. Please wait 15 minutes and try again.');
    await box.getByRole('button', { name: 'Close' }).click();
    await expect(box).toBeHidden();
  });

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    test(`the login screen and its message box are accessible (${name})`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto('/support');
      await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
      await expectNoAxeViolations(page);
      await signInOnLoginScreen(page, newEmail('axe'), 'not-my-password');
      await expect(page.getByRole('alertdialog')).toBeVisible();
      await expectNoAxeViolations(page);
      for (const path of ['/signup', '/forgot-password']) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectNoAxeViolations(page);
      }
    });
  }
});
