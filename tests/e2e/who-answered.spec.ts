import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { DESK_TEXT } from '../../src/contracts/desk.ts';
import { SUPPORT_TEXT } from '../../src/contracts/support.ts';
import {
  adminApi,
  E2E_ADMIN,
  hydrated,
  newAdminAccount,
  openTicketByCallable,
  signIn,
  signInAt,
  verifiedAccount,
} from './fixtures.ts';
import { enrolOnConsole } from './second-factor.ts';
import { expectNoAxeViolations } from './support.ts';

/**
 * Who answered: two admins on one ticket each see the other's address on the other's answers, and
 * only their own answers on the right; the user reads every answer as from Admin. And 'Still need
 * help?': a closed ticket leads to a new one that follows it, both linked.
 */

const bubbles = (page: Page) => page.getByRole('log', { name: 'Messages' }).getByRole('listitem');
const bubble = (page: Page, text: string) => bubbles(page).filter({ hasText: text });

async function browserAs(browser: Browser, baseURL: string, path: string, email: string, password: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInAt(page, path, { email, password });
  return { context, page };
}

/** Where a bubble sits across the thread: its centre's distance from the thread's left edge, as a share of its width. */
async function across(page: Page, message: Locator): Promise<number> {
  const thread = (await page.getByRole('log', { name: 'Messages' }).boundingBox())!;
  const box = (await message.boundingBox())!;
  return (box.x + box.width / 2 - thread.x) / thread.width;
}

async function answer(page: Page, text: string) {
  await page.getByPlaceholder('Write a message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(bubble(page, text)).toBeVisible();
}

/** On `reader`'s page, their own answer sits right in their colour; the colleague's sits left, named. */
async function expectSides(reader: Page, own: string, theirs: string, colleagueEmail: string, ownEmail: string) {
  const mine = bubble(reader, own);
  const other = bubble(reader, theirs);
  await expect(mine).toHaveClass(/bubble--mine/);
  await expect(other).toHaveClass(/bubble--team/);
  await expect(other).not.toHaveClass(/bubble--mine/);
  await expect(other.locator('.bubble__author')).toContainText(colleagueEmail);
  await expect(mine.locator('.bubble__author')).toContainText(ownEmail);
  await expect(other.locator('.bubble__author')).toContainText('Admin');
  expect(await across(reader, mine)).toBeGreaterThan(0.5);
  expect(await across(reader, other)).toBeLessThan(0.5);
}

test('two admins answer one ticket: each sees who wrote what; the user sees Admin', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  // Three browsers, a second factor set up on the console's own screen, two live threads and an axe
  // check: more than the default time on a slow machine (CI's took 30.5 s).
  test.slow();
  const user = await verifiedAccount(request);
  await signIn(page, user.email, user.password);
  const { ticketId } = await openTicketByCallable(page, 'General', 'Can I fly with a surfboard bag?');
  const ticketPage = `/admin/support/${ticketId}`;

  // A colleague, made an admin, sets up a second factor and opens the ticket.
  const api = await adminApi(baseURL!);
  const colleague = await newAdminAccount(request, api);
  const second = await browserAs(browser, baseURL!, ticketPage, colleague.email, colleague.password);
  await enrolOnConsole(second.page);
  await second.page.goto(ticketPage);
  await hydrated(second.page);

  // The e2e admin opens it too, and answers first.
  const firstEmail = process.env.E2E_ADMIN_EMAIL!;
  const first = await browserAs(browser, baseURL!, ticketPage, firstEmail, process.env.E2E_ADMIN_PASSWORD!);
  await hydrated(first.page);
  const firstWords = 'Yes: boards up to 2.5 metres travel as checked bags.';
  const secondWords = 'And please pack it in a padded bag.';
  await answer(first.page, firstWords);
  // The colleague sees it arrive live, named as the first admin's, on the team's side.
  await expect(bubble(second.page, firstWords).locator('.bubble__author')).toContainText(firstEmail);
  await answer(second.page, secondWords);
  await expect(bubble(first.page, secondWords).locator('.bubble__author')).toContainText(colleague.email);

  // Live, and again as the server renders it.
  await expectSides(first.page, firstWords, secondWords, colleague.email, firstEmail);
  await expectSides(second.page, secondWords, firstWords, firstEmail, colleague.email);
  await first.page.reload();
  await second.page.reload();
  await expectSides(first.page, firstWords, secondWords, colleague.email, firstEmail);
  await expectSides(second.page, secondWords, firstWords, firstEmail, colleague.email);
  await expectNoAxeViolations(first.page);

  // The user reads both as from Admin, on the other side from their own words, and never an admin's address.
  await page.goto(`/support/ticket/${ticketId}`);
  await hydrated(page);
  await expect(bubbles(page)).toHaveCount(3);
  for (const words of [firstWords, secondWords]) {
    await expect(bubble(page, words).locator('.bubble__author')).toHaveText('Admin');
    expect(await across(page, bubble(page, words))).toBeLessThan(0.5);
  }
  await expect(bubble(page, 'surfboard bag').locator('.bubble__author')).toHaveText('Me');
  const html = await page.content();
  expect(html).not.toContain(firstEmail);
  expect(html).not.toContain(colleague.email);

  await first.context.close();
  await second.context.close();
});

test('Still need help? opens a new ticket that follows the closed one; both show the link', async ({
  page,
  request,
  baseURL,
}) => {
  const user = await verifiedAccount(request);
  await signIn(page, user.email, user.password);
  const old = await openTicketByCallable(page, 'Incident', 'The wheel of my case broke in transit.');
  const api = await adminApi(baseURL!);
  expect((await api.post(`/api/admin/support/tickets/${old.ticketId}/close`)).status()).toBe(200);

  await page.goto(`/support/ticket/${old.ticketId}`);
  await hydrated(page);
  await page.getByLabel(DESK_TEXT.good, { exact: true }).check();
  await page.getByRole('button', { name: DESK_TEXT.sendRating }).click();
  await expect(page.getByText(DESK_TEXT.ratedGood)).toBeVisible();
  await page.getByRole('link', { name: SUPPORT_TEXT.stillNeedHelp }).click();

  await expect(page.getByRole('heading', { name: SUPPORT_TEXT.createTitle })).toBeVisible();
  await expect(page.getByText(`${SUPPORT_TEXT.followsTicket} ticket #${old.ticketNo}`)).toBeVisible();
  await hydrated(page);
  await page.getByLabel('Reason').selectOption('Incident');
  await page.getByLabel('Message').fill('The new wheel broke too.');
  await page.getByRole('button', { name: 'Submit' }).click();

  await expect(page).toHaveURL(/\/support\/ticket\/[0-9a-f-]{36}$/);
  const nextId = page.url().split('/').at(-1)!;
  const heading = page.getByRole('heading', { name: /^Ticket #\d+$/ });
  await expect(heading).toBeVisible();
  const nextNo = Number((await heading.innerText()).replace('Ticket #', ''));
  await expect(page.getByText(`${SUPPORT_TEXT.followsTicket} ticket #${old.ticketNo}`)).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  await page.getByRole('link', { name: `ticket #${old.ticketNo}` }).click();
  await expect(page).toHaveURL(new RegExp(`/support/ticket/${old.ticketId}$`));
  await expect(page.getByText(`${SUPPORT_TEXT.continuedInTicket} ticket #${nextNo}`)).toBeVisible();
  // The page stays, but shows only the closed ticket's thread: nothing the other ticket's stream brought.
  await expect(page.getByRole('heading', { name: `Ticket #${old.ticketNo}` })).toBeVisible();
  await expect(bubbles(page)).toHaveCount(1);
  await expect(bubbles(page).first()).toContainText('The wheel of my case broke in transit.');
  await expect(page.getByRole('link', { name: SUPPORT_TEXT.stillNeedHelp })).toBeVisible();
  await expectNoAxeViolations(page);

  // The console shows both links, to its own pages.
  const admin = await page.context().browser()!.newContext({ baseURL });
  const desk = await admin.newPage();
  await signInAt(desk, `/admin/support/${old.ticketId}`, E2E_ADMIN);
  await expect(desk.getByRole('heading', { name: `Ticket #${old.ticketNo}` })).toBeVisible();
  await hydrated(desk);
  await expect(desk.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  await expect(desk.getByText(`${SUPPORT_TEXT.continuedInTicket} ticket #${nextNo}`)).toBeVisible();
  await desk.getByRole('link', { name: `ticket #${nextNo}` }).click();
  await expect(desk).toHaveURL(new RegExp(`/admin/support/${nextId}$`));
  await expect(desk.getByText(`${SUPPORT_TEXT.followsTicket} ticket #${old.ticketNo}`)).toBeVisible();
  await expect(desk.getByRole('heading', { name: `Ticket #${nextNo}` })).toBeVisible();
  await expect(bubbles(desk)).toHaveCount(1);
  await expect(bubbles(desk).first()).toContainText('The new wheel broke too.');
  await admin.close();
});
