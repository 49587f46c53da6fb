import { expect, test } from '@playwright/test';
import { ACCOUNT_MESSAGES } from '../../src/contracts/account.ts';
import { linkIn, tokenFrom, waitForMails } from '../helpers/mail.ts';
import { hydrated, newEmail, newPassword, signInAt, verifiedAccount } from './fixtures.ts';

/**
 * A person's name: given (optionally) when signing up, and set, refused and removed on /account,
 * with JavaScript and without it (every form posts to its page).
 */
for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled });

    test('signing up with a name keeps it: /account shows it', async ({ page, request }) => {
      const email = newEmail('named');
      const password = newPassword();
      await page.goto('/signup');
      if (javaScriptEnabled) await hydrated(page);
      await page.getByLabel(ACCOUNT_MESSAGES.nameLabel).fill('Aroha Ngata');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByLabel('Confirm password').fill(password);
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect(page.getByRole('status').getByText('Check your inbox', { exact: true })).toBeVisible();
      const [mail] = await waitForMails(process.env.E2E_DATA_DIR!, email);
      const token = tokenFrom(linkIn(mail!, 'http://localhost'));
      expect((await request.post('/api/auth/verify-email', { data: { token } })).status()).toBe(200);

      await signInAt(page, '/account', { email, password });
      await expect(page.getByLabel(ACCOUNT_MESSAGES.nameLabel)).toHaveValue('Aroha Ngata');
    });

    test('on /account a name is saved, a wrong one refused with its reason, and an empty one removes it', async ({
      page,
      request,
    }) => {
      const user = await verifiedAccount(request);
      await signInAt(page, '/account', user);
      const field = page.getByLabel(ACCOUNT_MESSAGES.nameLabel);
      const save = page.getByRole('button', { name: 'Save name' });
      await expect(field).toHaveValue('');

      await field.fill('  Tūī Rangi ');
      await save.click();
      await expect(page.getByText(ACCOUNT_MESSAGES.nameSaved)).toBeVisible();
      await expect(page.getByLabel(ACCOUNT_MESSAGES.nameLabel)).toHaveValue('Tūī Rangi');

      await page.getByLabel(ACCOUNT_MESSAGES.nameLabel).fill('x'.repeat(81));
      await page.getByRole('button', { name: 'Save name' }).click();
      await expect(page.getByText(ACCOUNT_MESSAGES.nameTooLong)).toBeVisible();

      // Opened afresh (a reload would send the refused form again without JavaScript).
      await page.goto('/account');
      await expect(page.getByLabel(ACCOUNT_MESSAGES.nameLabel)).toHaveValue('Tūī Rangi');
      await page.getByLabel(ACCOUNT_MESSAGES.nameLabel).fill('');
      await page.getByRole('button', { name: 'Save name' }).click();
      await expect(page.getByText(ACCOUNT_MESSAGES.nameCleared)).toBeVisible();
      await expect(page.getByLabel(ACCOUNT_MESSAGES.nameLabel)).toHaveValue('');
    });
  });
}
