import { type Browser, expect, type Page, test } from '@playwright/test';
import { enrolOnConsole, teamAdmin } from './second-factor.ts';
import { ADMIN_TEXT } from '../../src/contracts/admin.ts';
import { DESK_TEXT, SAVED_REPLY_TEXT } from '../../src/contracts/desk.ts';
import { MACRO_TEXT } from '../../src/contracts/macros.ts';
import { SUPPORT_TEXT } from '../../src/contracts/support.ts';
import { adminApi, hydrated, openTicketByCallable, signIn, signInAt, verifiedAccount } from './fixtures.ts';

/** The desk a team shares: notes the user never sees, assignment seen live by a colleague, ratings. */

// An admin of this spec's own (its own one-time codes: second-factor.ts).
const ADMIN = teamAdmin('desk');
const bubbles = (page: Page) => page.getByRole('log', { name: 'Messages' }).getByRole('listitem');

async function browserAs(browser: Browser, baseURL: string, path: string, email: string, password: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInAt(page, path, { email, password });
  return { context, page };
}

test('notes stay with the team, assignment is live for a colleague, and the user rates the closed ticket', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  // Three browsers, a new admin's enrolment and a dozen live updates: more than the default time on
  // a loaded 2-core machine.
  test.setTimeout(120_000);
  // The user opens a ticket.
  const user = await verifiedAccount(request);
  await signIn(page, user.email, user.password);
  const { ticketId, ticketNo } = await openTicketByCallable(page, 'Incident', 'The handle of my bag came off.');
  await page.goto('/support');
  const listRow = page.getByRole('row').filter({ hasText: `#${ticketNo}` });
  await expect(listRow).toContainText(SUPPORT_TEXT.waitingForUs);
  await page.goto(`/support/ticket/${ticketId}`);
  await hydrated(page);
  await expect(bubbles(page)).toHaveCount(1);

  // A colleague, made an admin, watches the unassigned inbox.
  const colleague = await verifiedAccount(request);
  const api = await adminApi(baseURL!);
  const found = await (await api.get(`/api/admin/users?q=${encodeURIComponent(colleague.email)}`)).json();
  expect((await api.post(`/api/admin/users/${found.users[0].id}/roles`, { data: { roles: ['admin'] } })).status()).toBe(
    200,
  );
  const other = await browserAs(browser, baseURL!, '/admin/support?assigned=none', colleague.email, colleague.password);
  // A new admin sets up a second factor before the console opens (docs/product.md §2.15).
  await enrolOnConsole(other.page);
  await other.page.goto('/admin/support?assigned=none');
  const otherRow = other.page.getByRole('row').filter({ hasText: `#${ticketNo}` });
  await expect(otherRow).toBeVisible();

  // The admin writes a note, then an answer.
  const admin = await browserAs(browser, baseURL!, `/admin/support/${ticketId}`, ADMIN.email, ADMIN.password);
  await hydrated(admin.page);
  await admin.page.getByPlaceholder(DESK_TEXT.notePlaceholder).fill('Courier says it was dropped at the depot.');
  await admin.page.getByRole('button', { name: DESK_TEXT.addNote }).click();
  const note = bubbles(admin.page).filter({ hasText: 'Courier says it was dropped' });
  await expect(note).toContainText(DESK_TEXT.internalNote);
  await admin.page.getByPlaceholder('Write a message').fill('Sorry! We will cover the repair.');
  await admin.page.getByRole('button', { name: 'Send' }).click();
  await expect(bubbles(admin.page)).toHaveCount(3);

  // The user sees the answer, live, and never the note.
  await expect(bubbles(page).last()).toContainText('Sorry! We will cover the repair.');
  await expect(bubbles(page)).toHaveCount(2);
  await expect(page.getByText(SUPPORT_TEXT.waitingForYou)).toBeVisible();
  await page.reload();
  await expect(bubbles(page)).toHaveCount(2);
  await expect(page.getByText('Courier says it was dropped')).toHaveCount(0);

  // A colleague opening the same ticket is seen on the admin's page, and gone once they leave.
  const peek = await other.context.newPage();
  await peek.goto(`/admin/support/${ticketId}`);
  await expect(admin.page.getByText(`${DESK_TEXT.alsoViewing} ${colleague.email}`)).toBeVisible();
  await peek.close();
  await expect(admin.page.getByText(DESK_TEXT.alsoViewing)).toHaveCount(0);

  // Assign to me: the colleague's Unassigned inbox drops the ticket without a reload.
  await admin.page.getByRole('button', { name: DESK_TEXT.assignToMe }).click();
  await expect(admin.page.getByTestId('assignee')).toHaveText('me');
  await expect(otherRow).toHaveCount(0);

  // Closed: the user is asked how we did, and the admin sees the answer.
  await admin.page.getByRole('button', { name: ADMIN_TEXT.closeTicket }).click();
  await expect(page.getByRole('heading', { name: DESK_TEXT.rateTitle })).toBeVisible();
  await page.getByLabel(DESK_TEXT.good, { exact: true }).check();
  await page.getByLabel(DESK_TEXT.ratingComment).fill('Quick and fair.');
  await page.getByRole('button', { name: DESK_TEXT.sendRating }).click();
  await expect(page.getByText(DESK_TEXT.ratedGood)).toBeVisible();
  await expect(admin.page.getByTestId('rating')).toContainText('Quick and fair.');

  await other.context.close();
  await admin.context.close();
});

test('a saved reply is added, typed in with /, filled in for the ticket, its question typed over, and sent', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  const user = await verifiedAccount(request);
  await signIn(page, user.email, user.password);
  const { ticketId, ticketNo } = await openTicketByCallable(page, 'General', 'When will my parcel arrive?');

  const admin = await browserAs(browser, baseURL!, '/admin/saved-replies', ADMIN.email, ADMIN.password);
  await hydrated(admin.page);
  const title = `Arrival ${Date.now()}`;
  const addForm = admin.page
    .locator('form')
    .filter({ has: admin.page.getByRole('button', { name: SAVED_REPLY_TEXT.add }) });
  await addForm.getByLabel(SAVED_REPLY_TEXT.titleLabel).fill(title);
  await addForm
    .getByLabel(SAVED_REPLY_TEXT.bodyLabel)
    .fill('Hi {{user.email}}, ticket #{{ticket.number}} arrives {{ask:Day}}.');
  await addForm.getByRole('button', { name: SAVED_REPLY_TEXT.add }).click();
  await expect(admin.page.getByText(SAVED_REPLY_TEXT.added(title))).toBeVisible();

  await admin.page.goto(`/admin/support/${ticketId}`);
  await hydrated(admin.page);
  const box = admin.page.getByPlaceholder('Write a message');
  await box.fill(`/${title.slice(0, 10)}`);
  await expect(
    admin.page.getByRole('listbox', { name: SAVED_REPLY_TEXT.title }).getByRole('option', { name: new RegExp(title) }),
  ).toBeVisible();
  await box.press('Enter');
  const draft = `Hi ${user.email}, ticket #${ticketNo} arrives {{ask:Day}}.`;
  await expect(box).toHaveValue(draft);
  // Sent with its question left: refused, the words kept.
  await admin.page.getByRole('button', { name: 'Send' }).click();
  await expect(admin.page.getByText(MACRO_TEXT.unfilled('{{ask:Day}}'))).toBeVisible();
  await expect(box).toHaveValue(draft);
  // Inserted again, the question is selected: typing replaces it.
  await box.fill(`/${title.slice(0, 10)}`);
  await box.press('Enter');
  await expect(box).toHaveValue(draft);
  await admin.page.keyboard.type('Friday');
  await expect(box).toHaveValue(`Hi ${user.email}, ticket #${ticketNo} arrives Friday.`);
  await admin.page.getByRole('button', { name: 'Send' }).click();

  await page.goto(`/support/ticket/${ticketId}`);
  await expect(bubbles(page).last()).toContainText(`ticket #${ticketNo} arrives Friday.`);
  await admin.context.close();
});
