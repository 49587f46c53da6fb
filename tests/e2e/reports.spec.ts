import { type Browser, expect, type Page, test } from '@playwright/test';
import { CLAIM_REPORT_TEXT } from '../../src/contracts/report-claims.ts';
import { REPORTS_TEXT } from '../../src/contracts/reports.ts';
import { adminApi, signInAt, signInToTickets, verifiedAccount } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';
import { expectFitsScreen, expectNoAxeViolations, PUBLIC_PAGES, VIEWPORTS } from './support.ts';

/**
 * A team lead reads /admin/reports: the charts are there (with and without JavaScript), a bar opens
 * the tickets behind it, the page passes axe and fits a phone and a desktop, and prints without the
 * console around it. The charts' code never reaches the public pages.
 */

const ADMIN = teamAdmin('reports');
const CHARTS = [
  REPORTS_TEXT.spreadTitle,
  REPORTS_TEXT.daysTitle,
  REPORTS_TEXT.hoursTitle,
  REPORTS_TEXT.ratingsTitle,
  CLAIM_REPORT_TEXT.kindsTitle,
];
const COMMENT = `Sorted in minutes ${Date.now().toString(36)}`;

interface Seeded {
  answered: number;
  waiting: number;
}

/**
 * Two tickets made today through the API: one answered at once by the e2e admin, closed and rated
 * Good with a comment; one still waiting on us.
 */
async function seed(browser: Browser, baseURL: string): Promise<Seeded> {
  const context = await browser.newContext({ baseURL });
  const user = await verifiedAccount(context.request);
  expect((await context.request.post('/api/auth/login', { data: user })).status()).toBe(200);
  const open = async (reason: string, message: string) => {
    const res = await context.request.post('/api/functions/createSupportTicket', {
      data: { data: { reason, message } },
    });
    expect(res.status()).toBe(200);
    return (await res.json()).result as { ticketId: string; ticketNo: number };
  };
  const answered = await open('Incident', 'The wheel of my bag snapped off at the airport.');
  const waiting = await open('General', 'Can a bag travel on a ferry as well?');
  const api = await adminApi(baseURL);
  const reply = await api.post(`/api/admin/support/tickets/${answered.ticketId}/messages`, {
    data: { messageBody: 'Sorry to hear it. We are sending a new wheel today.' },
  });
  expect(reply.status()).toBe(200);
  expect((await api.post(`/api/admin/support/tickets/${answered.ticketId}/close`)).status()).toBe(200);
  await api.dispose();
  const rated = await context.request.post(`/api/support/tickets/${answered.ticketId}/rating`, {
    data: { good: true, comment: COMMENT },
  });
  expect(rated.status()).toBe(200);
  await context.close();
  return { answered: answered.ticketNo, waiting: waiting.ticketNo };
}

async function expectCharts(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: REPORTS_TEXT.title })).toBeVisible();
  for (const chart of CHARTS) await expect(page.getByRole('img', { name: chart })).toBeVisible();
}

/** The report's last day, as the page's form says it (New Zealand's today). */
const reportTo = (page: Page) => page.getByLabel(REPORTS_TEXT.to, { exact: true }).inputValue();

const listRow = (page: Page, ticketNo: number) => page.getByRole('row').filter({ hasText: `#${ticketNo}` });

test('a lead reads the report, opens a bar’s tickets; axe-clean and fitting at 390 px and on a desktop', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const seeded = await seed(browser, baseURL!);
  await page.setViewportSize(VIEWPORTS.desktop);
  await signInAt(page, '/admin/reports', ADMIN);
  await expectCharts(page);
  await expect(page.getByText(COMMENT)).toBeVisible();
  if (process.env.REPORT_SCREENSHOTS) {
    await page.screenshot({ path: `${process.env.REPORT_SCREENSHOTS}/reports-desktop.png`, fullPage: true });
  }
  await expectFitsScreen(page, '/admin/reports on a desktop');
  await expectNoAxeViolations(page);
  // The figures' tables, opened, pass too.
  for (const summary of await page.locator('summary', { hasText: REPORTS_TEXT.showTable }).all()) await summary.click();
  await expect(page.getByRole('table', { name: `${REPORTS_TEXT.daysTitle}: the figures` })).toBeVisible();
  // The claims' section: every kind listed in its table, each count opening its tickets.
  const claimKinds = page.getByRole('table', { name: `${CLAIM_REPORT_TEXT.kindsTitle}: the figures` });
  await expect(claimKinds.getByRole('link')).toHaveCount(5);
  await expectNoAxeViolations(page);

  // Today's 'created' bar opens today's new tickets, ours among them.
  const today = await reportTo(page);
  await page.locator(`svg[data-chart="chart-days"] a[href$="figure=created-day&day=${today}"]`).click();
  await expect(page).toHaveURL(/\/admin\/reports\/tickets\?.*figure=created-day/);
  await expect(page.getByRole('heading', { level: 1, name: /^Created on / })).toBeVisible();
  await expect(listRow(page, seeded.answered)).toContainText('Incident Report');
  await expect(listRow(page, seeded.answered)).toContainText(REPORTS_TEXT.good);
  await expect(listRow(page, seeded.waiting)).toContainText(REPORTS_TEXT.outcome.open);
  if (process.env.REPORT_SCREENSHOTS) {
    await page.screenshot({ path: `${process.env.REPORT_SCREENSHOTS}/list-desktop.png`, fullPage: true });
  }
  await expectFitsScreen(page, 'a figure’s list on a desktop');
  await expectNoAxeViolations(page);

  // On a phone: the same pages fit and pass.
  await page.setViewportSize(VIEWPORTS.phone);
  await expectFitsScreen(page, 'a figure’s list at 390 px');
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: REPORTS_TEXT.listBack }).click();
  await expectCharts(page);
  if (process.env.REPORT_SCREENSHOTS) {
    await page.screenshot({ path: `${process.env.REPORT_SCREENSHOTS}/reports-phone.png`, fullPage: true });
  }
  await expectFitsScreen(page, '/admin/reports at 390 px');
  await expectNoAxeViolations(page);

  // Every cell of the heatmap opens its hour's tickets.
  await expect(page.locator('svg[data-chart="chart-hours"] a[href*="figure=hour&weekday="]')).toHaveCount(7 * 24);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the range form, the charts, a bar’s tickets and the CSV all work', async ({ page, browser, baseURL }) => {
    test.setTimeout(120_000);
    const seeded = await seed(browser, baseURL!);
    await signInAt(page, '/admin/reports', ADMIN);
    await expectCharts(page);
    const today = await reportTo(page);
    const weekAgo = new Date(Date.parse(`${today}T12:00:00Z`) - 6 * 86_400_000).toISOString().slice(0, 10);

    // The range is a GET form.
    await page.getByLabel(REPORTS_TEXT.from, { exact: true }).fill(weekAgo);
    await page.getByRole('button', { name: REPORTS_TEXT.show }).click();
    await expect(page).toHaveURL(new RegExp(`from=${weekAgo}&to=${today}`));
    await expectCharts(page);

    // The first answer came within the hour: that bar of the spread lists the ticket.
    await page.locator('svg[data-chart="chart-spread"] a[href$="figure=spread&bucket=lt1h"]').click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'First answer in under 1 h (clock hours)' }),
    ).toBeVisible();
    await expect(listRow(page, seeded.answered)).toBeVisible();
    await expect(listRow(page, seeded.waiting)).toHaveCount(0);

    // The CSV is a download of every ticket created in the range.
    await page.goto(`/admin/reports?from=${weekAgo}&to=${today}`);
    const href = await page.getByRole('link', { name: REPORTS_TEXT.downloadCsv }).getAttribute('href');
    expect(href).toBe(`/api/admin/reports/tickets.csv?from=${weekAgo}&to=${today}`);
    const csv = await page.request.get(href!);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-disposition']).toBe(`attachment; filename="tickets-${weekAgo}-to-${today}.csv"`);
    const lines = (await csv.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toMatch(/^Ticket,Reason,Created \(NZ time\),/);
    expect(lines.find((line) => line.startsWith(`${seeded.answered},`))).toMatch(
      new RegExp(`^${seeded.answered},Incident Report,.*,Good,${COMMENT},Closed,$`),
    );
  });

  test('one reason’s report: chosen in the form, the figures, a figure’s tickets and the CSV keep it', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const seeded = await seed(browser, baseURL!);
    await signInAt(page, '/admin/reports', ADMIN);
    await expectCharts(page);
    // The tickets created in the range: every reason's, then the Incident Reports' alone.
    const created = page.getByRole('link', { name: /^[\d,]+ created$/ }).first();
    const count = async () => Number((await created.innerText()).replace(/\D/g, ''));
    const every = await count();

    await page.getByLabel(REPORTS_TEXT.reasonFilter, { exact: true }).selectOption({ label: 'Incident Report' });
    await page.getByRole('button', { name: REPORTS_TEXT.show }).click();
    await expect(page).toHaveURL(/\/admin\/reports\?.*reason=Incident/);
    await expectCharts(page);
    await expect(page.getByText(REPORTS_TEXT.reasonOnly('Incident Report'))).toBeVisible();
    await expect(page.getByLabel(REPORTS_TEXT.reasonFilter, { exact: true })).toHaveValue('Incident');
    // The seed's General ticket is no longer counted.
    expect(await count()).toBeLessThan(every);
    if (process.env.REPORT_SCREENSHOTS) {
      await page.screenshot({ path: `${process.env.REPORT_SCREENSHOTS}/reports-reason.png`, fullPage: true });
    }
    expect(await page.getByRole('link', { name: REPORTS_TEXT.downloadCsv }).getAttribute('href')).toContain(
      'reason=Incident',
    );

    // A figure opens the same tickets: its link and the list's way back carry the reason.
    expect(await created.getAttribute('href')).toContain('reason=Incident');
    await created.click();
    await expect(page).toHaveURL(/\/admin\/reports\/tickets\?.*reason=Incident.*figure=created/);
    await expect(page.getByText(REPORTS_TEXT.reasonOnly('Incident Report'))).toBeVisible();
    await expect(listRow(page, seeded.answered)).toBeVisible();
    await expect(listRow(page, seeded.waiting)).toHaveCount(0);
    if (process.env.REPORT_SCREENSHOTS) {
      await page.screenshot({ path: `${process.env.REPORT_SCREENSHOTS}/list-reason.png`, fullPage: true });
    }
    for (const row of await page.locator('table.report-tickets tbody tr').all()) {
      await expect(row).toContainText('Incident Report');
    }
    expect(await page.getByRole('link', { name: REPORTS_TEXT.listBack }).getAttribute('href')).toContain(
      'reason=Incident',
    );
  });

  test('one label’s report: the By label table, the label chosen in the form, and its CSV', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const seeded = await seed(browser, baseURL!);
    // The team labels the answered ticket (its id is read from the inbox's API as the console would).
    const name = `Wheels ${Date.now().toString(36)}`;
    const api = await adminApi(baseURL!);
    const created = await api.post('/api/admin/labels', { data: { name } });
    expect(created.status()).toBe(200);
    const labelId = (await created.json()).label.id as string;
    const tickets = (await (await api.get('/api/admin/support/tickets?open=false')).json()).tickets as Array<{
      id: string;
      ticketNo: number;
    }>;
    const answered = tickets.find((ticket) => ticket.ticketNo === seeded.answered)!;
    expect(
      (await api.put(`/api/admin/support/tickets/${answered.id}/labels`, { data: { labelIds: [labelId] } })).status(),
    ).toBe(200);
    await api.dispose();

    await signInAt(page, '/admin/reports', ADMIN);
    const byLabel = page.getByRole('table', { name: REPORTS_TEXT.labelsTitle });
    await expect(byLabel.getByRole('row').filter({ hasText: name })).toBeVisible();

    await page.getByLabel(REPORTS_TEXT.labelFilter, { exact: true }).selectOption({ label: name });
    await page.getByRole('button', { name: REPORTS_TEXT.show }).click();
    await expect(page).toHaveURL(new RegExp(`label=${labelId}`));
    await expect(page.getByText(REPORTS_TEXT.labelOnly(name))).toBeVisible();
    await expect(page.getByRole('table', { name: REPORTS_TEXT.labelsTitle })).toHaveCount(0);

    const href = await page.getByRole('link', { name: REPORTS_TEXT.downloadCsv }).getAttribute('href');
    expect(href).toContain(`label=${labelId}`);
    const lines = (await (await page.request.get(href!)).text())
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(lines.slice(1)).toEqual([expect.stringMatching(new RegExp(`^${seeded.answered},.*,Closed,${name}$`))]);
  });
});

test('prints the report without the console around it, charts and all', async ({ page, browser, baseURL }) => {
  await seed(browser, baseURL!);
  await signInAt(page, '/admin/reports', ADMIN);
  await expectCharts(page);
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('navigation', { name: 'Admin' })).toBeHidden();
  await expect(page.getByRole('form', { name: REPORTS_TEXT.rangeLabel })).toBeHidden();
  for (const chart of CHARTS) await expect(page.getByRole('img', { name: chart })).toBeVisible();
  // The figures' tables are printed open.
  await expect(page.getByRole('table', { name: `${REPORTS_TEXT.daysTitle}: the figures` })).toBeVisible();
  if (process.env.REPORT_SCREENSHOTS) {
    await page.pdf({ path: `${process.env.REPORT_SCREENSHOTS}/reports.pdf` });
  }
});

test('the charts’ code never reaches the public pages or the customer’s', async ({ page, request }) => {
  const scripts = new Set<string>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.add(response.url());
  });
  // The public pages, the login screen, and the customer's ticket list.
  for (const path of [...PUBLIC_PAGES, '/support']) await page.goto(path);
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  const user = await verifiedAccount(request);
  await signInToTickets(page, user);
  // Every module the pages loaded or preloaded.
  const preloaded = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => link.href),
  );
  for (const url of preloaded) scripts.add(url);
  expect(scripts.size).toBeGreaterThan(0);
  for (const url of scripts) {
    const body = await (await page.request.get(url)).text();
    expect(body, `${url} holds no chart code`).not.toMatch(/chart__link|data-chart/);
  }
});
