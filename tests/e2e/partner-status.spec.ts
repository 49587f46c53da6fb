import { type Browser, expect, type Page, test } from '@playwright/test';
import { APPLICATION_STATUS_TEXT as TEXT } from '../../src/contracts/partner-status.ts';
import { linkIn, waitForMail } from '../helpers/mail.ts';
import { newCompany } from './companies.ts';
import { signInAt } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';
import { expectNoAxeViolations } from './support.ts';

/**
 * The applicant's status page (docs/decisions/112-application-status-page.md): apply on /register
 * with a contact email, open the private link of the received mail, see 'Received' and the review
 * date; once an admin rejects with a reason, the page says 'Not approved' and why, with JavaScript
 * and without it.
 */

const dataDir = process.env.E2E_DATA_DIR!;
// An admin of this spec's own (its own one-time codes: second-factor.ts).
const ADMIN = teamAdmin('partner-status');
const REASON = 'Your commercial license could not be read.';
const REVIEW_BY = /We will review it by (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2}/;

const LABELS = {
  companyName: 'Company name',
  phoneNumber: 'Phone number',
  address: 'Address 1',
  street: 'Address 2 (optional)',
  contactPersonName: 'Contact person name (optional)',
  contactPersonJobTitle: 'Contact person job title (optional)',
  contactPersonPhoneNumber: 'Contact person phone number (optional)',
  contactPersonEmail: 'Contact person email (optional)',
} as const;

async function browserPage(browser: Browser, baseURL: string, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled });
  return { context, page: await context.newPage() };
}

const stateOf = (page: Page) => page.getByRole('region', { name: TEXT.stateLabel });
const historyOf = (page: Page) => page.getByRole('region', { name: TEXT.historyHeading });

test('an applicant follows the mailed link to their application, before and after the decision', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const company = newCompany();

  // Apply on /register (the plain form, without JavaScript).
  const applicant = await browserPage(browser, baseURL!, false);
  await applicant.page.goto('/register');
  for (const [name, label] of Object.entries(LABELS))
    await applicant.page.getByRole('textbox', { name: label, exact: true }).fill(company[name as keyof typeof LABELS]);
  await applicant.page.getByRole('button', { name: /^Submit/ }).click();
  await expect(applicant.page).toHaveURL(/\/register\?submitted=1$/);
  await applicant.context.close();

  const mail = await waitForMail(dataDir, company.contactPersonEmail, 'We received your Bagspace partner application');
  const link = linkIn(mail, `${baseURL}/partners/status/`);
  expect(mail.html).toContain(TEXT.mailButton);

  // With JavaScript: Received, the review date, what was sent; no axe violations.
  const withJs = await browserPage(browser, baseURL!, true);
  const response = await withJs.page.goto(link);
  expect(response!.headers()['cache-control']).toBe('no-store');
  expect(response!.headers()['referrer-policy']).toBe('same-origin');
  await expect(withJs.page.getByRole('heading', { level: 1, name: TEXT.title })).toBeVisible();
  await expect(stateOf(withJs.page)).toContainText(TEXT.states.received);
  await expect(stateOf(withJs.page)).toContainText(REVIEW_BY);
  await expect(withJs.page.getByText(company.companyName, { exact: true })).toBeVisible();
  await expect(withJs.page.getByText(company.contactPersonEmail, { exact: true })).toBeVisible();
  await expect(historyOf(withJs.page).getByRole('listitem')).toHaveCount(1);
  await expectNoAxeViolations(withJs.page);

  // An admin rejects it with a reason.
  const admin = await browserPage(browser, baseURL!, true);
  await signInAt(admin.page, '/admin/partners', ADMIN);
  await admin.page.getByRole('searchbox', { name: 'Search applications' }).fill(company.companyName);
  await admin.page.getByRole('searchbox', { name: 'Search applications' }).press('Enter');
  await admin.page.getByRole('link', { name: company.companyName }).click();
  await admin.page.getByRole('button', { name: 'Reject', exact: true }).click();
  await admin.page.getByLabel('Reason').fill(REASON);
  await admin.page.getByRole('button', { name: 'Reject application' }).click();
  await expect(
    admin.page.getByText(`Rejected. The email to ${company.contactPersonEmail} is on its way`),
  ).toBeVisible();
  await admin.context.close();

  // The page, read again: Not approved, with the reason in the history and nothing due.
  await withJs.page.reload();
  await expect(stateOf(withJs.page)).toContainText(TEXT.states['not-approved']);
  await expect(stateOf(withJs.page)).not.toContainText(REVIEW_BY);
  // Received; In review (the admin opened it); Not approved.
  await expect(historyOf(withJs.page).getByRole('listitem')).toHaveCount(3);
  await expect(historyOf(withJs.page)).toContainText(TEXT.events.review_started);
  await expect(historyOf(withJs.page)).toContainText(TEXT.events.rejected);
  await expect(historyOf(withJs.page)).toContainText(REASON);
  await expectNoAxeViolations(withJs.page);
  await withJs.context.close();

  // The same page without JavaScript.
  const withoutJs = await browserPage(browser, baseURL!, false);
  await withoutJs.page.goto(link);
  await expect(stateOf(withoutJs.page)).toContainText(TEXT.states['not-approved']);
  await expect(historyOf(withoutJs.page)).toContainText(REASON);
  await expect(withoutJs.page.getByText(company.companyName, { exact: true })).toBeVisible();

  // A wrong link: the same words, whatever was changed.
  const wrong = await withoutJs.page.goto(`${link.slice(0, -3)}abc`);
  expect(wrong!.status()).toBe(404);
  await expect(withoutJs.page.getByText(TEXT.notFound)).toBeVisible();
  await withoutJs.context.close();
});
