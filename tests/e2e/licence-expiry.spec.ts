import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import pg from 'pg';
import { ADMIN_TEXT } from '../../src/contracts/admin.ts';
import { LICENCE_TEXT, licenceDay } from '../../src/contracts/partner-review.ts';
import { socketUrl } from '../../src/server/db/local-socket.ts';
import { apply, newCompany, realPng } from './companies.ts';
import { signInAt } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';
import { expectNoAxeViolations } from './support.ts';

/**
 * Licence expiry in the console (docs/decisions/115-licence-expiry.md): an admin approves an
 * application with its licence's expiry date (a date is required), the company page says when it
 * expires; once the date comes the worker puts the partner on hold, and the partner list's On hold
 * filter shows it; the new licence the partner sent is accepted with its date and the hold ends.
 * With JavaScript and without it.
 */

const ADMIN = teamAdmin('licence-expiry');

/** New Zealand's date today, and `days` later ('YYYY-MM-DD'). */
function nzDate(days = 0): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}

/** The licence expires today: moved in the running server's database (served on its local socket). */
async function expireToday(companyId: string) {
  const client = new pg.Client({ connectionString: socketUrl(process.env.E2E_DATA_DIR!) });
  await client.connect();
  try {
    const moved = await client.query(`update companies set license_expires_on = $2 where id = $1 returning id`, [
      companyId,
      nzDate(),
    ]);
    expect(moved.rowCount).toBe(1);
  } finally {
    await client.end();
  }
}

/**
 * A new licence sent by the partner (the status page's upload), written as that upload leaves it:
 * the file in the server's storage and the company's waiting key.
 */
async function sendNewLicence(companyId: string) {
  const key = `commercialLicenses/${companyId}-renewal-e2e.png`;
  const file = path.join(process.env.E2E_DATA_DIR!, 'files', key);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, realPng());
  const client = new pg.Client({ connectionString: socketUrl(process.env.E2E_DATA_DIR!) });
  await client.connect();
  try {
    const sent = await client.query(
      `update companies set renewal_license_key = $2, renewal_sent_at = now() where id = $1 returning id`,
      [companyId, key],
    );
    expect(sent.rowCount).toBe(1);
  } finally {
    await client.end();
  }
}

const rowOf = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });

for (const javaScriptEnabled of [true, false]) {
  test(`an admin approves with the licence's expiry, and the partner goes on hold at it (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({
    browser,
    request,
    baseURL,
  }) => {
    // Approval, the worker's hold, the lists, a renewal and three axe runs: more than the default
    // time on a loaded 2-core machine.
    test.setTimeout(120_000);
    const company = newCompany();
    const companyId = await apply(request, company);

    const context = await browser.newContext({ baseURL: baseURL!, javaScriptEnabled });
    const page = await context.newPage();
    await signInAt(page, `/admin/partners/${companyId}`, ADMIN);
    await expect(page.getByRole('heading', { level: 1, name: company.companyName })).toBeVisible();

    // Approve without a date: refused, at the field, and nothing is approved.
    await page.getByRole('button', { name: ADMIN_TEXT.approve }).click();
    await expect(page.getByText(LICENCE_TEXT.dateRequired)).toBeVisible();
    await expect(page.getByRole('button', { name: ADMIN_TEXT.approve })).toBeVisible();

    // With the date a year ahead: approved, and the page says when the licence expires.
    const expires = nzDate(365);
    await page.getByLabel(LICENCE_TEXT.expiresLabel).fill(expires);
    await page.getByRole('button', { name: ADMIN_TEXT.approve }).click();
    await expect(page.getByText(/^Approved\./)).toBeVisible();
    await expect(page.getByText(LICENCE_TEXT.expires(expires))).toBeVisible();
    if (javaScriptEnabled) await expectNoAxeViolations(page);

    // The licence expires today: the worker (every second on the e2e server) puts it on hold.
    await expireToday(companyId);
    await expect(async () => {
      await page.reload();
      await expect(page.getByText(LICENCE_TEXT.onHold(nzDate()))).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 60_000 });
    await expect(page.getByText(LICENCE_TEXT.expired(nzDate()))).toBeVisible();

    // The partner list: On hold, with its count, lists it; Verified no longer does.
    await page.goto('/admin/partners?status=on-hold');
    const statuses = page.getByRole('group', { name: 'Which applications' });
    await expect(statuses.getByRole('button', { name: /^On hold \(\d+\)$/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(rowOf(page, company.companyName)).toContainText(`Licence expired ${licenceDay(nzDate())}`);
    if (javaScriptEnabled) await expectNoAxeViolations(page);
    await statuses.getByRole('button', { name: /^Verified \(\d+\)$/ }).click();
    await expect(page).toHaveURL(/status=verified/);
    await expect(rowOf(page, company.companyName)).toHaveCount(0);

    // The partner sends a new licence: the admin downloads it and accepts it with its date.
    await sendNewLicence(companyId);
    await page.goto(`/admin/partners/${companyId}`);
    const renewal = page.getByRole('region', { name: LICENCE_TEXT.renewalHeading });
    await expect(renewal.getByText(/^New licence sent on /)).toBeVisible();
    await expect(renewal.getByRole('link', { name: LICENCE_TEXT.renewalDownload })).toHaveAttribute(
      'href',
      `/api/admin/companies/${companyId}/renewal-license`,
    );
    const renewed = nzDate(730);
    await renewal.getByLabel(LICENCE_TEXT.expiresLabel).fill(renewed);
    await renewal.getByRole('button', { name: LICENCE_TEXT.accept }).click();
    await expect(page.getByText(LICENCE_TEXT.accepted)).toBeVisible();
    await expect(page.getByText(LICENCE_TEXT.expires(renewed))).toBeVisible();
    await expect(page.getByText(LICENCE_TEXT.onHold(nzDate()))).toHaveCount(0);
    await expect(page.getByRole('region', { name: LICENCE_TEXT.renewalHeading })).toHaveCount(0);
    if (javaScriptEnabled) await expectNoAxeViolations(page);
    await context.close();
  });
}
