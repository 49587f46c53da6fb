import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { ADMIN_TEXT } from '../../src/contracts/admin.ts';
import { DESK_TEXT } from '../../src/contracts/desk.ts';
import { customerTicket as openCustomerTicket, hydrated, signInAt } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';
import { watchPage } from './support.ts';

/**
 * Two agents on one ticket (docs/decisions/140-stale-writes-stopped.md): what one sends while the
 * other is writing stops the other's send; the other reads what changed and sends anyway, edits or
 * discards, with JavaScript and without it. The customer never gets two answers written against the
 * same state without the second agent having seen the first.
 */
const AGENT_A = teamAdmin('stale-a');
const AGENT_B = teamAdmin('stale-b');

/** A customer's open ticket, opened as the mobile app does; and a way to read what the customer sees. */
async function customerTicket(request: APIRequestContext, words: string) {
  const { ticketId } = await openCustomerTicket(request, words);
  return {
    ticketId,
    write: async (messageBody: string) =>
      expect(
        (await request.post(`/api/support/tickets/${ticketId}/messages`, { data: { messageBody } })).status(),
      ).toBe(200),
    answers: async () =>
      (
        (await (await request.get(`/api/support/tickets/${ticketId}/messages`)).json()).messages as Array<{
          admin: boolean;
          messageBody: string;
        }>
      )
        .filter((m) => m.admin)
        .map((m) => m.messageBody),
  };
}

async function agentOn(browser: Browser, baseURL: string, agent: typeof AGENT_A, ticketId: string, js: boolean) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: js });
  const page = await context.newPage();
  await signInAt(page, `/admin/support/${ticketId}`, agent);
  await expect(page.getByPlaceholder('Write a message')).toBeVisible();
  if (js) await hydrated(page);
  return { context, page };
}

const replyBox = (page: Page) => page.getByPlaceholder('Write a message');
const notice = (page: Page) => page.getByRole('alert').filter({ hasText: DESK_TEXT.stale });

for (const js of [true, false]) {
  test(`JavaScript ${js ? 'on' : 'off'}: an answer sent while another agent wrote stops theirs; they read it and send anyway`, async ({
    browser,
    request,
    baseURL,
  }) => {
    const customer = await customerTicket(request, 'Can I change the delivery address?');
    const a = await agentOn(browser, baseURL!, AGENT_A, customer.ticketId, true);
    const b = await agentOn(browser, baseURL!, AGENT_B, customer.ticketId, js);
    const watched = watchPage(b.page, baseURL!);

    // B starts writing; A answers first.
    await replyBox(b.page).fill('Yes, you can: tell us the new one.');
    await replyBox(a.page).fill('Reply with the new address and we will update it.');
    await a.page.getByRole('button', { name: 'Send' }).click();
    await expect(a.page.locator('.bubble__body', { hasText: 'Reply with the new address' })).toBeVisible();

    // B sends: stopped, nothing sent, the words kept, and what changed listed.
    await b.page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(notice(b.page)).toBeVisible();
    await expect(notice(b.page).getByRole('listitem').first()).toContainText(
      '“Reply with the new address and we will update it.”',
    );
    await expect(notice(b.page)).toContainText(DESK_TEXT.staleNow(true, null));
    await expect(replyBox(b.page)).toHaveValue('Yes, you can: tell us the new one.');
    await b.page.screenshot({ path: `.tmp/stale-notice-${js ? 'js' : 'no-js'}.png` });
    expect(await customer.answers()).toEqual(['Reply with the new address and we will update it.']);

    // Send anyway: it goes, once.
    await notice(b.page).getByRole('button', { name: DESK_TEXT.sendAnyway }).click();
    await expect(notice(b.page)).toHaveCount(0);
    await expect(b.page.locator('.bubble__body', { hasText: 'Yes, you can: tell us the new one.' })).toBeVisible();
    await expect
      .poll(() => customer.answers())
      .toEqual(['Reply with the new address and we will update it.', 'Yes, you can: tell us the new one.']);
    // The stopped send's answer is a 412, which the browser logs; nothing else may be.
    expect(watched.problems.filter((problem) => !problem.includes('status of 412'))).toEqual([]);
    await a.context.close();
    await b.context.close();
  });
}

test('the agent’s own note stops nothing; the customer writing while they type does: Edit keeps the words, Discard drops them', async ({
  browser,
  request,
  baseURL,
}) => {
  const customer = await customerTicket(request, 'My parcel was due on Monday.');
  const b = await agentOn(browser, baseURL!, AGENT_B, customer.ticketId, true);

  // The agent's own note while an answer is half written stops nothing.
  await replyBox(b.page).fill('Checking with the courier now.');
  await b.page.getByLabel(DESK_TEXT.internalNote, { exact: true }).fill('Courier ref 88213.');
  await b.page.getByRole('button', { name: DESK_TEXT.addNote }).click();
  await expect(b.page.locator('.bubble__body', { hasText: 'Courier ref 88213.' })).toBeVisible();
  await b.page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(b.page.locator('.bubble__body', { hasText: 'Checking with the courier now.' })).toBeVisible();
  await expect(notice(b.page)).toHaveCount(0);

  await replyBox(b.page).fill('It left Auckland this morning.');
  await customer.write('Actually it has arrived, thank you!');
  await b.page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(notice(b.page)).toContainText('“Actually it has arrived, thank you!”');
  await expect(notice(b.page)).toContainText(DESK_TEXT.staleWho.customer);

  // Edit: the notice goes, the words stay, and the next send is written against what is now seen.
  await notice(b.page).getByRole('button', { name: DESK_TEXT.editReply }).click();
  await expect(notice(b.page)).toHaveCount(0);
  await expect(replyBox(b.page)).toBeFocused();
  await replyBox(b.page).fill('Great news: enjoy!');
  await b.page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(b.page.locator('.bubble__body', { hasText: 'Great news: enjoy!' })).toBeVisible();

  // Discard: stopped again by the customer's next words, and dropped.
  await replyBox(b.page).fill('Anything else?');
  await customer.write('One more question, sorry.');
  await b.page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(notice(b.page)).toContainText('“One more question, sorry.”');
  await notice(b.page).getByRole('button', { name: DESK_TEXT.discardReply }).click();
  await expect(notice(b.page)).toHaveCount(0);
  await expect(replyBox(b.page)).toHaveValue('');
  expect(await customer.answers()).toEqual(['Checking with the courier now.', 'Great news: enjoy!']);
  await b.context.close();
});

test('without JavaScript, Close after the customer wrote again is stopped with the page as it is now; Close again closes', async ({
  browser,
  request,
  baseURL,
}) => {
  const customer = await customerTicket(request, 'Is my bag on the 9 am flight?');
  const b = await agentOn(browser, baseURL!, AGENT_B, customer.ticketId, false);
  await customer.write('Sorry, I meant the 11 am flight.');
  await b.page.getByRole('button', { name: ADMIN_TEXT.closeTicket }).click();
  await expect(b.page.getByText(DESK_TEXT.staleAction)).toBeVisible();
  // The page read again: the new words are there, and the ticket is still open.
  await expect(b.page.locator('.bubble__body', { hasText: 'Sorry, I meant the 11 am flight.' })).toBeVisible();
  await b.page.getByRole('button', { name: ADMIN_TEXT.closeTicket }).click();
  await expect(b.page.getByRole('button', { name: ADMIN_TEXT.reopenTicket })).toBeVisible();
  await b.context.close();
});
