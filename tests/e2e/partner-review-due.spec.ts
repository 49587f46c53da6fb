import { type Browser, expect, type Page, test } from '@playwright/test';
import pg from 'pg';
import { ADMIN_TEXT } from '../../src/contracts/admin.ts';
import { REVIEW_DUE_TEXT } from '../../src/contracts/partner-review.ts';
import { socketUrl } from '../../src/server/db/local-socket.ts';
import { apply, newCompany } from './companies.ts';
import { signInAt } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';
import { expectNoAxeViolations } from './support.ts';

/**
 * Review due dates in the console: the partner list's 'Review due …' and 'Late' words, its Late
 * filter and Due first order, and the home's count of late applications linking to them, with
 * JavaScript and without it.
 */

// An admin of this spec's own (its own one-time codes: second-factor.ts).
const ADMIN = teamAdmin('partners-due');

/**
 * Makes an application late: its submission moved 30 days back in the running server's database
 * (served on its local socket).
 */
async function makeLate(companyId: string) {
  const client = new pg.Client({ connectionString: socketUrl(process.env.E2E_DATA_DIR!) });
  await client.connect();
  try {
    const moved = await client.query(
      `update companies set created_at = created_at - interval '30 days', submitted_at = submitted_at - interval '30 days' where id = $1 returning id`,
      [companyId],
    );
    expect(moved.rowCount).toBe(1);
  } finally {
    await client.end();
  }
}

async function adminHome(browser: Browser, baseURL: string, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled });
  const page = await context.newPage();
  await signInAt(page, '/admin', ADMIN);
  await expect(page.getByRole('heading', { level: 1, name: ADMIN_TEXT.title })).toBeVisible();
  return { context, page };
}

const rowOf = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
const LATE_ON_HOME = /\d+ partner applications? (is|are) late for review\./;
const DUE_WORDS = /Review due (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2}/;
const WAS_DUE = /Late\s*was due (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2}/;

for (const javaScriptEnabled of [true, false]) {
  test(`an admin follows the home's late applications to the partner list (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({
    browser,
    request,
    baseURL,
  }) => {
    const late = newCompany();
    const lateId = await apply(request, late);
    await makeLate(lateId);
    const fresh = newCompany();
    await apply(request, fresh);

    const { context, page } = await adminHome(browser, baseURL!, javaScriptEnabled);
    await expect(page.getByText(LATE_ON_HOME)).toBeVisible();
    if (javaScriptEnabled) await expectNoAxeViolations(page);
    await page.getByRole('link', { name: REVIEW_DUE_TEXT.lateLink }).click();
    await expect(page).toHaveURL(/\/admin\/partners\?status=pending&due=late$/);

    // Only late applications, each with 'Late' and the day it was due.
    const filter = page.getByRole('group', { name: REVIEW_DUE_TEXT.filterLabel });
    await expect(filter.getByRole('button', { name: /^Late \(\d+\)$/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(rowOf(page, late.companyName)).toContainText(WAS_DUE);
    await expect(rowOf(page, fresh.companyName)).toHaveCount(0);
    if (javaScriptEnabled) await expectNoAxeViolations(page);
    for (const cell of await page.getByRole('row').locator('td:nth-child(6)').all())
      await expect(cell).toContainText('Late');

    // Every pending one: the fresh application is due in two working days.
    await filter.getByRole('button', { name: REVIEW_DUE_TEXT.anyDue }).click();
    await expect(page).toHaveURL(/[?&]due=all/);
    await expect(rowOf(page, fresh.companyName)).toContainText(DUE_WORDS);
    await expect(rowOf(page, late.companyName)).toContainText(WAS_DUE);

    // Due first: the late one before the fresh one, the choice kept in the address.
    await page
      .getByRole('group', { name: REVIEW_DUE_TEXT.sortLabel })
      .getByRole('button', { name: REVIEW_DUE_TEXT.sortDue })
      .click();
    await expect(page).toHaveURL(/[?&]sort=due/);
    const names = await page.getByRole('row').locator('td:first-child').allInnerTexts();
    expect(names.indexOf(late.companyName)).toBeGreaterThanOrEqual(0);
    expect(names.indexOf(late.companyName)).toBeLessThan(names.indexOf(fresh.companyName));
    await context.close();
  });
}
