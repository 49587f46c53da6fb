import { expect, test } from '@playwright/test';
import { SUPPORT_TEXT } from '../../src/contracts/support.ts';
import { hydrated, verifiedAccount } from './fixtures.ts';
import { VIEWPORTS } from './support.ts';

test.describe('switches on a phone', () => {
  test.use({ viewport: VIEWPORTS.phone });

  test('the FAQ switch keeps the reader where they were, and the Legal switch stays one row', async ({ page }) => {
    await page.goto('/faqs');
    await page.evaluate(() => window.scrollTo(0, 100));
    const before = await page.evaluate(() => window.scrollY);
    expect(before).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Sender', exact: true }).click();
    await expect(page).toHaveURL(/[?&]type=sender/);
    await expect(page.getByRole('button', { name: 'Sender', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(before);

    await page.goto('/legal');
    const pills = page.getByRole('group', { name: 'Choose a document' }).getByRole('button');
    await expect(pills).toHaveCount(2);
    const [first, second] = [await pills.nth(0).boundingBox(), await pills.nth(1).boundingBox()];
    expect(first && second && Math.abs(first.y - second.y)).toBeLessThan(2);
    expect(second!.x).toBeGreaterThan(first!.x + first!.width - 1);
  });
});

test.describe('focus follows errors', () => {
  test('an invalid submit puts focus on the first field in error', async ({ page, request }) => {
    // Sign-up: a well-formed email and a too-short password: focus goes to Password.
    await page.goto('/signup');
    await hydrated(page);
    await page.getByLabel('Email').fill('focus-check@example.nz');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
    await expect(page.getByText(/Password must be at least/)).toBeVisible();

    // The login screen, sent empty: focus goes to Email.
    await page.goto('/support');
    await hydrated(page);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByLabel('Email')).toBeFocused();

    // Contact us with a message but no reason: focus goes to Reason, not Submit.
    const user = await verifiedAccount(request);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('heading', { name: SUPPORT_TEXT.listTitle })).toBeVisible();
    await page.goto('/support/create-ticket');
    await hydrated(page);
    await page.getByLabel('Message').fill('Where is my parcel?');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByLabel('Reason')).toBeFocused();
    await expect(page.getByText(SUPPORT_TEXT.fieldRequired, { exact: true })).toBeVisible();
  });
});
