import { expect, type Page, test } from '@playwright/test';
import { hydrated, newEmail, newPassword, signInAt, verifiedAccount } from './fixtures.ts';
import { expectNoAxeViolations, VIEWPORTS } from './support.ts';

const menuButton = (page: Page) => page.getByRole('button', { name: /Open menu|Close menu/ });

async function openMenu(page: Page) {
  await menuButton(page).click();
  await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' })).toBeVisible();
}

async function expectMenuClosed(page: Page) {
  await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' })).toBeHidden();
}

test.describe('the phone menu', () => {
  test.use({ viewport: VIEWPORTS.phone });

  // '/' is a static page (an inline script drives the menu); '/support' is the hydrated app.
  for (const path of ['/', '/support']) {
    test(`on ${path} it closes on Escape, focus back on its button, and on a tap outside it`, async ({ page }) => {
      await page.goto(path);
      if (path === '/support') await hydrated(page);
      await openMenu(page);
      await page.keyboard.press('Escape');
      await expectMenuClosed(page);
      await expect(menuButton(page)).toBeFocused();

      await openMenu(page);
      await page.mouse.click(VIEWPORTS.phone.width / 2, VIEWPORTS.phone.height - 40);
      await expectMenuClosed(page);
      await expectNoAxeViolations(page);
    });
  }

  test('following a link in the app closes the menu and returns focus to its button', async ({ page }) => {
    await page.goto('/signup');
    await hydrated(page);
    await openMenu(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Support' }).click();
    await expect(page).toHaveURL(/\/support$/);
    await expectMenuClosed(page);
    await expect(menuButton(page)).toBeFocused();
  });
});

test.describe('message boxes', () => {
  test('a failed sign-in keeps focus inside the box, and closing it puts focus on Email', async ({ page }) => {
    await page.goto('/support');
    await page.getByLabel('Email').fill(newEmail('nobody'));
    await page.getByLabel('Password').fill(newPassword());
    await page.getByRole('button', { name: 'Login' }).click();
    const box = page.getByRole('alertdialog', { name: 'Sign-in failed' });
    await expect(box).toBeVisible();
    const close = box.getByRole('button', { name: 'Close' });
    await expect(close).toBeFocused();
    // Tab and Shift+Tab never leave the box.
    for (const key of ['Tab', 'Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      await expect(box.locator(':focus')).toHaveCount(1);
    }
    await close.click();
    await expect(box).toBeHidden();
    await expect(page.getByLabel('Email')).toBeFocused();
  });
});

test.describe('titles', () => {
  test('signed-out support and admin routes are titled Sign in; every title ends with | Bagspace', async ({
    page,
    request,
  }) => {
    for (const path of ['/support', '/support/tickets', '/support/create-ticket', '/admin', '/admin/support']) {
      await page.goto(path);
      await expect(page).toHaveTitle('Sign in | Bagspace');
    }
    for (const path of ['/', '/about', '/faqs', '/legal', '/register', '/signup', '/forgot-password', '/nowhere']) {
      await page.goto(path);
      await expect(page).toHaveTitle(/ \| Bagspace$/);
    }

    const { email, password } = await verifiedAccount(request);
    await signInAt(page, '/support', { email, password });
    await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
    await page.goto('/support/tickets');
    await expect(page).toHaveTitle('Support Tickets | Bagspace');
    await page.goto('/support/create-ticket');
    await expect(page).toHaveTitle('Contact us | Bagspace');
    await page.goto('/admin/support');
    await expect(page).toHaveTitle('Not allowed | Bagspace');
  });
});
