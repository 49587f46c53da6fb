import { expect, test } from '@playwright/test';
import {
  cspViolations,
  expectFitsScreen,
  expectNoAxeViolations,
  PUBLIC_PAGES,
  recordCspViolations,
  VIEWPORTS,
  watchPage,
} from './support.ts';

test.describe('the public website', () => {
  test('home shows the hero, the six feature blocks, the app download section and the footer', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    for (const feature of [
      'Distance delivery',
      'Community based service',
      'Competitive pricing',
      'Easy to use app',
      'Environmentally friendly',
      'Earn as a traveller',
    ]) {
      await expect(page.getByRole('heading', { name: feature, level: 3 })).toBeVisible();
    }
    await expect(page.getByRole('heading', { name: 'Download the Bagspace app' })).toBeVisible();
    await expect(page.getByRole('link', { name: /App Store/ })).toHaveAttribute('href', /^https:\/\//);
    await expect(page.getByRole('link', { name: /Google Play/ })).toHaveAttribute('href', /^https:\/\//);
    await expect(page.getByRole('contentinfo')).toContainText('Copyright 2025 Bagspace');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign Out' })).toHaveCount(
      0,
    );
  });

  test('the top navigation reaches every page', async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const expected: Array<[string, RegExp]> = [
      ['About', /\/about$/],
      ["FAQ's", /\/faqs$/],
      ['Terms and Conditions', /\/legal$/],
      ['Home', /\/$/],
    ];
    for (const [name, url] of expected) {
      await nav.getByRole('link', { name, exact: true }).click();
      await expect(page).toHaveURL(url);
    }
    await expect(nav.getByRole('link', { name: 'Registering Company' })).toHaveAttribute('href', '/register');
    await expect(nav.getByRole('link', { name: 'Support' })).toHaveAttribute('href', '/support');
  });

  test('about lists six traveller steps and five sender steps in order', async ({ page }) => {
    await page.goto('/about');
    await expect(page.getByRole('heading', { name: 'Our mission' })).toBeVisible();
    const travellers = page.getByRole('region', { name: 'For travellers' }).getByRole('listitem');
    const senders = page.getByRole('region', { name: 'For senders' }).getByRole('listitem');
    await expect(travellers).toHaveCount(6);
    await expect(senders).toHaveCount(5);
    await expect(travellers.first()).toContainText('List a trip');
    await expect(senders.last()).toContainText('Rate the traveller');
  });

  test('the FAQ page switches type through the URL and rows expand and collapse', async ({ page }) => {
    await page.goto('/faqs');
    await expect(page.getByRole('heading', { name: 'General FAQ' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'General' })).toHaveAttribute('aria-pressed', 'true');

    await page.getByRole('button', { name: 'Sender' }).click();
    await expect(page).toHaveURL(/\/faqs\?type=sender$/);
    await expect(page.getByRole('heading', { name: 'Sender FAQ' })).toBeVisible();
    await page.getByRole('button', { name: 'Traveler' }).click();
    await expect(page.getByRole('heading', { name: 'Traveller FAQ' })).toBeVisible();

    const row = page.getByRole('button', { name: 'How do I confirm a pick-up?' });
    const answer = page.getByText('scan the QR code the sender shows you');
    await expect(row).toHaveAttribute('aria-expanded', 'false');
    await expect(answer).toBeHidden();
    await row.click();
    await expect(row).toHaveAttribute('aria-expanded', 'true');
    await expect(answer).toBeVisible();
    await row.press('Enter');
    await expect(row).toHaveAttribute('aria-expanded', 'false');
    await expect(answer).toBeHidden();

    // The chosen type can be linked to.
    await page.goto('/faqs?type=sender');
    await expect(page.getByRole('heading', { name: 'Sender FAQ' })).toBeVisible();
  });

  test('the legal page shows the chosen document in a frame', async ({ page }) => {
    await page.goto('/legal');
    await expect(page.getByRole('button', { name: 'Terms and Conditions' })).toHaveAttribute('aria-pressed', 'true');
    const frame = page.frameLocator('iframe[title="Terms and Conditions"]');
    await expect(frame.getByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeVisible();
    await expect(frame.getByText('Consumer Guarantees Act 1993')).toBeVisible();

    await page.getByRole('button', { name: 'Privacy Policy' }).click();
    await expect(page).toHaveURL(/\/legal\?doc=privacy$/);
    const privacy = page.frameLocator('iframe[title="Privacy Policy"]');
    await expect(privacy.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    await expect(privacy.getByText('Privacy Act 2020').first()).toBeVisible();
  });

  test('an unknown path shows the not-found page with status 404', async ({ page }) => {
    const response = await page.goto('/this/does/not/exist');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: VIEWPORTS.phone });

  test('the hamburger button collapses the navigation and works from the keyboard', async ({ page }) => {
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    const about = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(about).toBeHidden();

    await toggle.focus();
    await page.keyboard.press('Enter');
    const close = page.getByRole('button', { name: 'Close menu' });
    await expect(close).toHaveAttribute('aria-expanded', 'true');
    await expect(about).toBeVisible();
    await page.keyboard.press('Space');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(about).toBeHidden();

    await toggle.click();
    await about.click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false, viewport: VIEWPORTS.phone });

  test('every FAQ answer and the whole navigation can be read', async ({ page }) => {
    await page.goto('/faqs?type=sender');
    await expect(page.getByRole('heading', { name: 'Sender FAQ' })).toBeVisible();
    await expect(page.getByText('Browse the trips going your way')).toBeVisible();
    // The navigation is behind the header's native disclosure, which opens without a script.
    const support = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Support' });
    await expect(support).toBeHidden();
    await page.locator('header.site-header summary').click();
    await expect(support).toBeVisible();
    // The switch buttons are a plain form: they still work.
    await page.getByRole('button', { name: 'Traveler' }).click();
    await expect(page.getByRole('heading', { name: 'Traveller FAQ' })).toBeVisible();
  });
});

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`every public page at ${label} width`, () => {
    test.use({ viewport });

    for (const path of PUBLIC_PAGES) {
      test(`${path}: no accessibility violation, no CSP violation, no error, no third-party request, fits the screen`, async ({
        page,
        baseURL,
      }) => {
        await recordCspViolations(page);
        const watch = watchPage(page, baseURL!);
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        // The layout is styled before axe measures it: at phone width the menu is collapsed.
        const nav = page.locator('#site-nav');
        if (label === 'phone') await expect(nav).toBeHidden();
        else await expect(nav).toBeVisible();
        // CSP is checked before axe runs: axe's injected checker itself evaluates code.
        expect(await cspViolations(page)).toEqual([]);
        await expectNoAxeViolations(page);
        await expectFitsScreen(page, path);
        expect(watch.problems).toEqual([]);
        expect(watch.foreign).toEqual([]);
      });
    }
  });
}

test('keyboard focus is visible', async ({ page }) => {
  await page.goto('/');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Tab');
  const shadow = await page.evaluate(() => getComputedStyle(document.activeElement!).boxShadow);
  expect(shadow).not.toBe('none');
});
