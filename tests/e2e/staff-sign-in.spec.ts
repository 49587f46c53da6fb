import { expect, type Page, test } from '@playwright/test';
import { ADMIN_TEXT } from '../../src/contracts/admin.ts';
import { OIDC_TEXT } from '../../src/contracts/auth.ts';
import { teamAdmin, withAdminOtp } from './second-factor.ts';

/**
 * Staff sign-in with the company's identity provider (docs/decisions/148-staff-sign-in-oidc.md) in
 * Chromium, with JavaScript and without: the console's button goes to the provider (a real one on
 * loopback, started by global-setup.ts), and back. With the provider's own second factor the console
 * opens at once; without it, the console asks for ours.
 */
const STAFF = teamAdmin('sso');
const adminNav = (page: Page) => page.getByRole('navigation', { name: 'Admin' });

async function atProvider(page: Page, securityKey: boolean) {
  await page.goto('/admin');
  await page.getByRole('link', { name: OIDC_TEXT.button('Test Workspace') }).click();
  await expect(page.getByRole('heading', { name: 'Test provider sign-in' })).toBeVisible();
  await page.getByLabel('Work email').fill(STAFF.email);
  if (securityKey) await page.getByLabel('I used my security key').check();
  await page.getByRole('button', { name: 'Continue' }).click();
}

for (const js of [true, false]) {
  test.describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled: js });

    test('the provider asked a second factor: the console opens at once', async ({ page }) => {
      await atProvider(page, true);
      await expect(page).toHaveURL(/\/admin$/);
      await expect(adminNav(page).getByRole('link', { name: ADMIN_TEXT.nav.support })).toBeVisible();
    });

    test('the provider did not: the console asks for our one-time code, then opens', async ({ page }) => {
      await atProvider(page, false);
      await expect(page).toHaveURL(/\/admin$/);
      const code = page.getByLabel('One-time code');
      await expect(code).toBeVisible();
      // The password is not asked: the provider stood for it.
      await expect(page.getByLabel('Password')).toHaveCount(0);
      await withAdminOtp(STAFF.email, async (otp) => {
        await code.fill(otp!);
        const answered = page.waitForResponse((response) => response.request().method() === 'POST');
        await page.getByRole('button', { name: 'Login' }).click();
        await answered;
      });
      await expect(adminNav(page).getByRole('link', { name: ADMIN_TEXT.nav.support })).toBeVisible();
    });
  });
}

test('an address the console does not know is refused, with the reason on the login screen', async ({ page }) => {
  await page.goto('/admin');
  await page.getByRole('link', { name: OIDC_TEXT.button('Test Workspace') }).click();
  await page.getByLabel('Work email').fill(`nobody-${Date.now()}@example.nz`);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(OIDC_TEXT.refused.unknown)).toBeVisible();
  await expect(page.getByRole('link', { name: OIDC_TEXT.button('Test Workspace') })).toBeVisible();
});
