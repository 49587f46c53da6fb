import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import pg from 'pg';
import { formatNzDueTime } from '../../src/contracts/dates.ts';
import { DUE_TEXT } from '../../src/contracts/service-levels.ts';
import { socketUrl } from '../../src/server/db/local-socket.ts';
import { hydrated, signInOnLoginScreen, verifiedAccount } from './fixtures.ts';
import { ADMIN_TEXT } from '../../src/contracts/admin.ts';
import { teamAdmin } from './second-factor.ts';
import { watchPage } from './support.ts';

/**
 * Due times in the console: the inbox's Due column, its Late and Due today filters and its Due first
 * order, and the ticket page's due line, with JavaScript and without it.
 */

// An admin of this spec's own (its own one-time codes: second-factor.ts).
const ADMIN = teamAdmin('due');

/** A customer with an API session of their own, who opens tickets the way the mobile app does. */
async function customer(request: APIRequestContext) {
  const user = await verifiedAccount(request);
  expect((await request.post('/api/auth/login', { data: user })).status()).toBe(200);
  return async (reason: string, message: string) => {
    const created = await request.post('/api/functions/createSupportTicket', { data: { data: { reason, message } } });
    expect(created.status()).toBe(200);
    return (await created.json()).result as { ticketId: string; ticketNo: number };
  };
}

/**
 * Makes a ticket 35 minutes late: its open wait moved into the past in the running server's
 * database (served on its local socket). Returns the due time it now has.
 */
async function makeLate(ticketId: string): Promise<Date> {
  const client = new pg.Client({ connectionString: socketUrl(process.env.E2E_DATA_DIR!) });
  await client.connect();
  try {
    const moved = await client.query<{ response_due: Date }>(
      `update ticket_waits set started_at = started_at - interval '30 days',
         response_due = now() - interval '35 minutes', resolution_due = now() + interval '1 day'
       where ticket_id = $1 and ended_at is null returning response_due`,
      [ticketId],
    );
    expect(moved.rowCount).toBe(1);
    return moved.rows[0]!.response_due;
  } finally {
    await client.end();
  }
}

async function adminPage(browser: Browser, baseURL: string, path: string, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled });
  const page = await context.newPage();
  // The browser's clock runs as ever, but a test can move it on (the due words' minute tick).
  if (javaScriptEnabled) await page.clock.install();
  await page.goto(path);
  await signInOnLoginScreen(page, ADMIN.email, ADMIN.password);
  await expect(page.getByRole('heading', { name: ADMIN_TEXT.nav.support, exact: true })).toBeVisible();
  return { context, page };
}

const rowOf = (page: Page, ticketNo: number) =>
  page.getByRole('row').filter({ has: page.getByRole('link', { name: `#${ticketNo}`, exact: true }) });
const dueCell = (page: Page, ticketNo: number) => rowOf(page, ticketNo).getByRole('cell').nth(6);
// Rounded to the minute: 35, or 36 once half a minute has passed.
const LATE_WORDS = /late by 3[56] min/;

test('the inbox and the ticket say when a ticket is due, and which are late, as time and answers move on', async ({
  browser,
  request,
  baseURL,
}) => {
  const open = await customer(request);
  const { ticketId, ticketNo } = await open('General', 'My bag has not arrived in Dunedin.');

  const { context, page } = await adminPage(browser, baseURL!, '/admin/support', true);
  const watched = watchPage(page, baseURL!);
  await hydrated(page);
  await expect(page.getByRole('columnheader', { name: DUE_TEXT.dueColumn })).toBeVisible();
  await expect(dueCell(page, ticketNo)).toContainText(/^due in /);
  await expect(dueCell(page, ticketNo)).not.toContainText(DUE_TEXT.late);

  // Its wait moved into the past: under the Late filter it reads Late, with its words.
  const dueAt = await makeLate(ticketId);
  await page.getByRole('group', { name: DUE_TEXT.filterLabel }).getByRole('button', { name: DUE_TEXT.late }).click();
  await expect(page).toHaveURL(/[?&]due=late/);
  await expect(dueCell(page, ticketNo)).toContainText(DUE_TEXT.late);
  await expect(dueCell(page, ticketNo)).toContainText(LATE_WORDS);
  // Only late tickets are listed.
  for (const cell of await page.getByRole('row').locator('td:nth-child(7)').all())
    await expect(cell).toContainText(DUE_TEXT.late);
  // The words move on each minute in the page, from the server's time (as of the stream's list,
  // once it has come: a list arriving later would start the minutes again from the server's time).
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  await page.clock.fastForward('05:00');
  await expect(dueCell(page, ticketNo)).toContainText(/late by 4[01] min/);

  // The ticket's page says the same, with the target and the New Zealand time.
  await rowOf(page, ticketNo)
    .getByRole('link', { name: `#${ticketNo}`, exact: true })
    .click();
  const due = page.getByTestId('due');
  await expect(due).toContainText(DUE_TEXT.late);
  await expect(due).toContainText(`${DUE_TEXT.targetOf('firstResponse')} late by`);
  await expect(due).toContainText(formatNzDueTime(dueAt));
  await expect(due).toContainText(LATE_WORDS);

  // The answer ends the wait: nothing is due any more, on the ticket and live in the inbox.
  await hydrated(page);
  await page.getByPlaceholder('Write a message').fill('Found it: it is on the next flight south.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('due')).toHaveCount(0);
  await page.goBack();
  await expect(page).toHaveURL(/[?&]due=late/);
  await expect(rowOf(page, ticketNo)).toHaveCount(0);

  // The customer writes again: a wait starts again, live in the inbox. The first one waited 30 days,
  // which used up the whole resolution target: the ticket is late at once.
  await page.getByRole('group', { name: DUE_TEXT.filterLabel }).getByRole('button', { name: DUE_TEXT.anyTime }).click();
  await expect(dueCell(page, ticketNo)).toHaveText(DUE_TEXT.notDue);
  const reply = await request.post(`/api/support/tickets/${ticketId}/messages`, {
    data: { messageBody: 'Thanks! Will it come to my door?' },
  });
  expect(reply.status()).toBe(200);
  await expect(dueCell(page, ticketNo)).toContainText(DUE_TEXT.late);
  await expect(dueCell(page, ticketNo)).toContainText(/late by /);

  expect(watched.problems).toEqual([]);
  await context.close();
});

test('without JavaScript the Late filter and the Due first order still work', async ({ browser, request, baseURL }) => {
  const open = await customer(request);
  const incident = await open('Incident', 'The wheel of my suitcase snapped off.');
  const general = await open('General', 'Can I change the address on my booking?');

  const { context, page } = await adminPage(browser, baseURL!, '/admin/support', false);
  // Newest message first: the General enquiry, opened last, comes first.
  const numbers = async () =>
    (await page.getByRole('row').locator('td:first-child').allInnerTexts()).map((text) => Number(text.slice(1)));
  let order = await numbers();
  expect(order.indexOf(general.ticketNo)).toBeLessThan(order.indexOf(incident.ticketNo));
  await expect(dueCell(page, incident.ticketNo)).toContainText(/^due in /);

  // Due first: the Incident is due within two business hours, the General enquiry within eight.
  await page.getByRole('group', { name: DUE_TEXT.sortLabel }).getByRole('button', { name: DUE_TEXT.sortDue }).click();
  await expect(page).toHaveURL(/[?&]sort=due/);
  await expect(
    page.getByRole('group', { name: DUE_TEXT.sortLabel }).getByRole('button', { name: DUE_TEXT.sortDue }),
  ).toHaveAttribute('aria-pressed', 'true');
  order = await numbers();
  expect(order.indexOf(incident.ticketNo)).toBeLessThan(order.indexOf(general.ticketNo));

  // Late, keeping the order: the Incident made late is listed, the General enquiry is not.
  await makeLate(incident.ticketId);
  await page.getByRole('group', { name: DUE_TEXT.filterLabel }).getByRole('button', { name: DUE_TEXT.late }).click();
  await expect(page).toHaveURL(/[?&]due=late/);
  await expect(page).toHaveURL(/[?&]sort=due/);
  await expect(dueCell(page, incident.ticketNo)).toContainText(DUE_TEXT.late);
  await expect(dueCell(page, incident.ticketNo)).toContainText(LATE_WORDS);
  await expect(rowOf(page, general.ticketNo)).toHaveCount(0);

  // Due today lists what is still to come today, never a late one.
  await page
    .getByRole('group', { name: DUE_TEXT.filterLabel })
    .getByRole('button', { name: DUE_TEXT.dueToday })
    .click();
  await expect(page).toHaveURL(/[?&]due=today/);
  await expect(rowOf(page, incident.ticketNo)).toHaveCount(0);

  // The ticket page, rendered on the server, says it too.
  await page.goto(`/admin/support/${incident.ticketId}`);
  await expect(page.getByTestId('due')).toContainText(`${DUE_TEXT.targetOf('firstResponse')} late by`);
  await context.close();
});
