import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import pg from 'pg';
import { formatNzDueTime } from '../../src/contracts/dates.ts';
import { DUE_TEXT } from '../../src/contracts/due-times.ts';
import { socketUrl } from '../../src/server/db/local-socket.ts';
import { hydrated, signInAt, verifiedAccount } from './fixtures.ts';
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
  await signInAt(page, path, ADMIN);
  await expect(page.getByRole('heading', { name: ADMIN_TEXT.nav.support, exact: true })).toBeVisible();
  return { context, page };
}

const rowOf = (page: Page, ticketNo: number) =>
  page.getByRole('row').filter({ has: page.getByRole('link', { name: `#${ticketNo}`, exact: true }) });
const dueCell = (page: Page, ticketNo: number) => rowOf(page, ticketNo).getByRole('cell').nth(6);
/**
 * The words for a ticket late since `dueAt` (35 minutes before makeLate ran), rounded to the minute
 * as the page rounds them: the minute of now, of a moment before (a page rendered a little earlier),
 * or of the next two (a loaded machine's steps between a look and the page's answer).
 */
const lateWords = (dueAt: Date) => {
  const now = Math.round((Date.now() - dueAt.getTime()) / 60_000);
  return new RegExp(`late by (${[now - 1, now, now + 1, now + 2].join('|')}) min`);
};

test('the inbox and the ticket say when a ticket is due, and which are late, as time and answers move on', async ({
  browser,
  request,
  baseURL,
}) => {
  // Sign-in, a filter, a jump of the clock, a ticket page, an answer and the way back, each waiting
  // for the live inbox: more than the default time on a loaded 2-core machine.
  test.setTimeout(120_000);
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
  await expect(dueCell(page, ticketNo)).toContainText(lateWords(dueAt));
  // Only late tickets are listed: no row's Due cell says anything else. (One look at the whole list,
  // retried: other workers' tickets come and go in it while this runs.)
  const dueCells = page.locator('td:nth-child(7)');
  await expect(
    page
      .getByRole('row')
      .filter({ has: dueCells })
      .filter({ hasNot: dueCells.filter({ hasText: DUE_TEXT.late }) }),
  ).toHaveCount(0);
  // The words move on each minute in the page, from the server's time (as of the stream's list,
  // once it has come: a list arriving later would start the minutes again from the server's time).
  // Other workers' tickets change the inbox, and each change brings a new list, which may land
  // between the clock's jump and the look: then the jump is made again from the words shown.
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  await expect(async () => {
    const before = Number(/late by (\d+) min/.exec(await dueCell(page, ticketNo).innerText())?.[1]);
    expect(before, 'the late words before the jump').toBeGreaterThanOrEqual(35);
    await page.clock.fastForward('05:00');
    await expect(dueCell(page, ticketNo)).toContainText(new RegExp(`late by (${before + 5}|${before + 6}) min`), {
      timeout: 5_000,
    });
  }).toPass({ timeout: 60_000 });

  // The ticket's page says the same, with the target and the New Zealand time.
  await rowOf(page, ticketNo)
    .getByRole('link', { name: `#${ticketNo}`, exact: true })
    .click();
  const due = page.getByTestId('due-firstResponse');
  await expect(page.getByRole('term').filter({ hasText: DUE_TEXT.dueLabel.firstResponse })).toBeVisible();
  await expect(page.getByRole('term').filter({ hasText: DUE_TEXT.dueLabel.resolution })).toBeVisible();
  await expect(due).toContainText(DUE_TEXT.late);
  await expect(due).toContainText('late by');
  await expect(due).toContainText(formatNzDueTime(dueAt));
  await expect(due).toContainText(lateWords(dueAt));

  // The answer ends the wait: nothing is due any more, on the ticket and live in the inbox.
  await hydrated(page);
  await page.getByPlaceholder('Write a message').fill('Found it: it is on the next flight south.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('due-firstResponse')).toHaveCount(0);
  await expect(page.getByTestId('due-resolution')).toHaveCount(0);
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
  // Its words: the new wait's due time is the moment it started, so it is late from the first list
  // the server sends ('late by under a minute', then minutes), never 'due in', beside the Late mark.
  // The page's clock ran ahead by the jumps above (5 minutes each, taken again when a list came
  // between a jump and a look: on a loaded machine a dozen times), so the minutes may be an hour.
  await expect(dueCell(page, ticketNo)).toContainText(/late by (under a minute|(\d+ h )?\d+ min)/);
  await expect(dueCell(page, ticketNo)).not.toContainText('due in');

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
    (await page.getByRole('row').locator('td:first-child a').allInnerTexts()).map((text) => Number(text.slice(1)));
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
  const dueAt = await makeLate(incident.ticketId);
  await page.getByRole('group', { name: DUE_TEXT.filterLabel }).getByRole('button', { name: DUE_TEXT.late }).click();
  await expect(page).toHaveURL(/[?&]due=late/);
  await expect(page).toHaveURL(/[?&]sort=due/);
  await expect(dueCell(page, incident.ticketNo)).toContainText(DUE_TEXT.late);
  await expect(dueCell(page, incident.ticketNo)).toContainText(lateWords(dueAt));
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
  await expect(page.getByTestId('due-firstResponse')).toContainText(`${DUE_TEXT.late} ${formatNzDueTime(dueAt)}`);
  await context.close();
});
