import { expect, type Page, test } from '@playwright/test';
import { SUPPORT_TEXT } from '../../src/contracts/support.ts';
import { adminApi, signInAt, verifiedAccount } from './fixtures.ts';
import {
  cspViolations,
  expectFitsScreen,
  expectNoAxeViolations,
  recordCspViolations,
  VIEWPORTS,
  watchPage,
} from './support.ts';

/** Support as a user meets it: tickets, a live conversation with an admin, dropped connections. */

const bubbles = (page: Page) => page.getByRole('log', { name: 'Messages' }).getByRole('listitem');

async function openNewTicket(page: Page, reason: string, message: string) {
  await page.getByRole('link', { name: SUPPORT_TEXT.newTicket }).click();
  await expect(page.getByRole('heading', { name: SUPPORT_TEXT.createTitle })).toBeVisible();
  await page.getByLabel('Reason').selectOption({ label: reason });
  await page.getByLabel('Message').fill(message);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/support\/ticket\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: /^Ticket #\d+$/ })).toBeVisible();
  return page.url().split('/').at(-1)!;
}

test('a user opens a ticket and holds a live conversation with an admin', async ({ page, request, baseURL }) => {
  await recordCspViolations(page);
  const watched = watchPage(page, baseURL!);
  const user = await verifiedAccount(request);
  const admin = await adminApi(baseURL!);

  await signInAt(page, '/support', user);
  await expect(page.getByRole('heading', { name: SUPPORT_TEXT.listTitle })).toBeVisible();
  await expect(page.getByText(SUPPORT_TEXT.noOpen)).toBeVisible();
  await page.getByRole('button', { name: SUPPORT_TEXT.closedTickets }).click();
  await expect(page.getByText(SUPPORT_TEXT.noClosed)).toBeVisible();
  await page.getByRole('button', { name: SUPPORT_TEXT.openTickets }).click();

  // The form asks for what it needs before anything is sent.
  await page.getByRole('link', { name: SUPPORT_TEXT.newTicket }).click();
  await expect(page.getByText(SUPPORT_TEXT.messageHint)).toBeVisible();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(SUPPORT_TEXT.fieldRequired, { exact: true })).toHaveCount(2);
  await page.getByRole('link', { name: SUPPORT_TEXT.myTickets }).click();

  const ticketId = await openNewTicket(page, 'Incident Report', 'My parcel arrived with a crushed corner.');
  await expect(page.getByText('Incident Report')).toBeVisible();
  await expect(bubbles(page)).toHaveCount(1);
  await expect(bubbles(page).first()).toContainText('Me');
  await expect(bubbles(page).first()).toContainText('My parcel arrived with a crushed corner.');

  // The admin answers through the API; the answer appears without a reload.
  expect(
    (
      await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, {
        data: { messageBody: 'Sorry about that! Can you send a photo?' },
      })
    ).status(),
  ).toBe(200);
  await expect(bubbles(page)).toHaveCount(2, { timeout: 15_000 });
  await expect(bubbles(page).last()).toContainText('Admin');
  await expect(bubbles(page).last()).toContainText('Sorry about that! Can you send a photo?');

  // Enter sends; Shift+Enter is a new line; Send is disabled while the box is blank.
  const box = page.getByLabel('Your message');
  const send = page.getByRole('button', { name: 'Send' });
  await expect(send).toBeDisabled();
  await box.fill('   ');
  await expect(send).toBeDisabled();
  await box.fill('First line');
  await box.press('Shift+Enter');
  await box.pressSequentially('second line');
  await expect(box).toHaveValue('First line\nsecond line');
  await box.press('Enter');
  await expect(bubbles(page)).toHaveCount(3);
  await expect(bubbles(page).last()).toContainText('First line\nsecond line');
  await expect(box).toHaveValue('');

  // The list shows the ticket, newest first, and links back to it.
  await page.getByRole('link', { name: SUPPORT_TEXT.myTickets }).click();
  const row = page.getByRole('row').filter({ hasText: 'Incident Report' });
  await expect(row).toBeVisible();
  for (const column of SUPPORT_TEXT.columns)
    await expect(page.getByRole('columnheader', { name: column })).toBeVisible();
  await row.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/support/ticket/${ticketId}$`));

  // Closing the ticket takes the reply box away, live.
  await expect(box).toBeVisible();
  expect((await admin.post(`/api/admin/support/tickets/${ticketId}/close`)).status()).toBe(200);
  await expect(box).toBeHidden({ timeout: 15_000 });
  await expect(page.getByText(SUPPORT_TEXT.replyRejected)).toBeVisible();
  await page.getByRole('link', { name: SUPPORT_TEXT.myTickets }).click();
  await expect(page.getByText(SUPPORT_TEXT.noOpen)).toBeVisible();
  await page.getByRole('button', { name: SUPPORT_TEXT.closedTickets }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Incident Report' })).toBeVisible();

  expect(await cspViolations(page)).toEqual([]);
  expect(watched.problems).toEqual([]);
  await admin.dispose();
});

test('messages sent while the connection was down all arrive, exactly once', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const user = await verifiedAccount(request);
  const admin = await adminApi(baseURL!);
  await signInAt(page, '/support', user);
  const ticketId = await openNewTicket(page, 'General Enquiry', 'Is my trip verified yet?');
  await expect(page.getByText('Live', { exact: true })).toBeVisible();

  await context.setOffline(true);
  await expect(page.getByText('Reconnecting…')).toBeVisible();
  for (const text of ['Answer one', 'Answer two', 'Answer three']) {
    expect(
      (await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { data: { messageBody: text } })).status(),
    ).toBe(200);
  }
  await context.setOffline(false);
  await expect(bubbles(page)).toHaveCount(4, { timeout: 15_000 });
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  // And nothing repeats afterwards either: a later answer comes down the same stream after anything
  // it could still replay, so once it is shown, each earlier one is there once.
  expect(
    (
      await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { data: { messageBody: 'Answer four' } })
    ).status(),
  ).toBe(200);
  await expect(bubbles(page).filter({ hasText: 'Answer four' })).toHaveCount(1, { timeout: 15_000 });
  await expect(bubbles(page)).toHaveCount(5);
  for (const text of ['Answer one', 'Answer two', 'Answer three'])
    await expect(bubbles(page).filter({ hasText: text })).toHaveCount(1);
  await admin.dispose();
});

test('a reply the server refuses shows the spec message', async ({ page, request, baseURL }) => {
  const user = await verifiedAccount(request);
  const admin = await adminApi(baseURL!);
  await signInAt(page, '/support', user);
  const ticketId = await openNewTicket(page, 'General Enquiry', 'Please check my payout.');

  // Hold back the live close event, so the page still offers the reply box when the ticket closes.
  await page.route('**/messages/stream**', (route) => route.abort());
  await page.reload();
  await page.evaluate(() => undefined);
  expect((await admin.post(`/api/admin/support/tickets/${ticketId}/close`)).status()).toBe(200);
  await page.unroute('**/messages/stream**');
  await page.route('**/messages/stream**', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/event-stream',
      body: `retry: 60000\nevent: ticket\ndata: ${JSON.stringify({ id: ticketId, ticketNo: 1, reason: 'General', open: true, creationDate: new Date().toISOString(), lastMessage: new Date().toISOString() })}\n\n`,
    }),
  );
  await page.reload();
  await page.getByLabel('Your message').fill('Are you still there?');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText(SUPPORT_TEXT.replyRejected)).toBeVisible();
  await expect(page.getByLabel('Your message')).toBeHidden();
  // The words are kept, and can start a new ticket.
  await expect(page.getByText(SUPPORT_TEXT.replyNotSent)).toBeVisible();
  await expect(page.locator('.ticket__unsent-text')).toHaveText('Are you still there?');
  await page.getByRole('link', { name: SUPPORT_TEXT.newTicketWithMessage }).click();
  await expect(page.getByRole('heading', { name: SUPPORT_TEXT.createTitle })).toBeVisible();
  await expect(page.getByLabel('Message')).toHaveValue('Are you still there?');
  await admin.dispose();
});

test('another user’s ticket does not exist for you', async ({ page, browser, request, baseURL }) => {
  const owner = await verifiedAccount(request);
  const other = await verifiedAccount(request);
  await signInAt(page, '/support', owner);
  const ticketId = await openNewTicket(page, 'Account Deactivation', 'Please close my account.');

  const otherContext = await browser.newContext({ baseURL });
  const otherPage = await otherContext.newPage();
  await signInAt(otherPage, '/support', other);
  await expect(otherPage.getByRole('heading', { name: SUPPORT_TEXT.listTitle })).toBeVisible();
  await otherPage.goto(`/support/ticket/${ticketId}`);
  await expect(otherPage.getByRole('heading', { name: SUPPORT_TEXT.ticketMissing })).toBeVisible();
  await expect(otherPage.getByText('Please close my account.')).toHaveCount(0);
  await otherContext.close();
});

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`the support pages pass axe and fit the screen at ${label} width`, async ({ page, request }) => {
    await page.setViewportSize(viewport);
    const user = await verifiedAccount(request);
    await signInAt(page, '/support', user);
    await expect(page.getByText(SUPPORT_TEXT.noOpen)).toBeVisible();
    await expectNoAxeViolations(page);
    await expectFitsScreen(page, 'no tickets');
    await openNewTicket(page, 'General Enquiry', 'Checking the layout of this page.');
    await expect(bubbles(page)).toHaveCount(1);
    await expectNoAxeViolations(page);
    await expectFitsScreen(page, 'the ticket');
    await page.getByRole('link', { name: SUPPORT_TEXT.myTickets }).click();
    await expect(page.getByRole('row')).toHaveCount(2);
    await expectNoAxeViolations(page);
    await expectFitsScreen(page, 'the ticket list');
    await page.getByRole('link', { name: SUPPORT_TEXT.newTicket }).click();
    await expectNoAxeViolations(page);
    await expectFitsScreen(page, 'a new ticket');
  });
}
