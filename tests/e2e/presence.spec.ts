import { type Browser, expect, type Page, test } from '@playwright/test';
import { DESK_TEXT } from '../../src/contracts/desk.ts';
import { customerTicket, signInAt } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';

/**
 * Presence (docs/decisions/142-presence.md): an agent on the inbox sees, on a ticket's row, that a
 * colleague has it open and then that they are typing, and on the ticket itself; closing the
 * colleague's tab takes them off the row.
 */
const AGENT_A = teamAdmin('presence-a');
const AGENT_B = teamAdmin('presence-b');

async function agentAt(browser: Browser, baseURL: string, agent: typeof AGENT_A, path: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInAt(page, path, agent);
  return { context, page };
}

const rowOf = (page: Page, ticketNo: number) =>
  page.getByRole('row').filter({ has: page.getByRole('link', { name: `#${ticketNo}`, exact: true }) });

test('the inbox row and the ticket show who has it open and who is typing, and forget a closed tab', async ({
  browser,
  request,
  baseURL,
}) => {
  const { ticketId, ticketNo } = await customerTicket(request, 'Is my bag on the 6 pm flight?');
  const a = await agentAt(browser, baseURL!, AGENT_A, '/admin/support');
  const row = rowOf(a.page, ticketNo);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('presence')).toHaveCount(0);

  const b = await agentAt(browser, baseURL!, AGENT_B, `/admin/support/${ticketId}`);
  await expect(row.getByTestId('presence')).toHaveText(`${DESK_TEXT.viewing} ${AGENT_B.email}`);

  await b.page.getByPlaceholder('Write a message').pressSequentially('Checking with the traveller');
  await expect(row.getByTestId('presence')).toContainText(DESK_TEXT.typing([AGENT_B.email]));

  // On the ticket itself, each sees the other.
  await a.page.goto(`/admin/support/${ticketId}`);
  await expect(a.page.getByRole('status').filter({ hasText: AGENT_B.email })).toBeVisible();
  await expect(
    b.page.getByRole('status').filter({ hasText: `${DESK_TEXT.alsoViewing} ${AGENT_A.email}` }),
  ).toBeVisible();

  // Back on the inbox: B's tab closes, and B leaves the row (the stream's close says so at once).
  await a.page.goto('/admin/support');
  await expect(row.getByTestId('presence')).toBeVisible();
  await b.context.close();
  await expect(row.getByTestId('presence')).toHaveCount(0);
  await a.context.close();
});
