import { expect, test } from '@playwright/test';
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
