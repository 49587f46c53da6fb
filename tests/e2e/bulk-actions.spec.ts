import { expect, type Page, test } from '@playwright/test';
import { BULK_TEXT } from '../../src/contracts/bulk.ts';
import { customerTicket, signInAt } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';

/**
 * Bulk actions (docs/decisions/143-bulk-actions.md): an agent ticks tickets in the inbox, closes them
 * in one go, and takes it back with Undo; the same plain form with JavaScript and without.
 */
const AGENT = teamAdmin('bulk');
// Undo takes back its agent's last bulk action: the two variants run side by side, so each has its own agent.
const AGENTS = { true: teamAdmin('bulk-js'), false: teamAdmin('bulk-no-js') };

const rowOf = (page: Page, ticketNo: number) =>
  page.getByRole('row').filter({ has: page.getByRole('link', { name: `#${ticketNo}`, exact: true }) });

for (const js of [true, false]) {
  test.describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled: js });

    test('ticks two tickets, closes both at once, and undoes it', async ({ page, request }) => {
      const first = await customerTicket(request, 'Spam one: win a free suitcase');
      const second = await customerTicket(request, 'Spam two: win a free suitcase');
      await signInAt(page, '/admin/support', AGENTS[`${js}`]);
      for (const ticket of [first, second])
        await rowOf(page, ticket.ticketNo)
          .getByRole('checkbox', { name: BULK_TEXT.select(ticket.ticketNo) })
          .check();
      await page.getByRole('combobox', { name: BULK_TEXT.legend }).selectOption({ label: BULK_TEXT.actions.close });
      await page.getByRole('button', { name: BULK_TEXT.apply }).click();

      await expect(page.getByRole('status').filter({ hasText: BULK_TEXT.done('close', 2) })).toBeVisible();
      for (const ticket of [first, second]) await expect(rowOf(page, ticket.ticketNo)).toHaveCount(0);

      await page.getByRole('button', { name: BULK_TEXT.undo }).click();
      await expect(page.getByRole('status').filter({ hasText: BULK_TEXT.undone(2) })).toBeVisible();
      for (const ticket of [first, second]) await expect(rowOf(page, ticket.ticketNo)).toBeVisible();
    });
  });
}

test('Select all ticks every ticket the list shows, shows a mixed state when some are, and unticks them all', async ({
  page,
  request,
}) => {
  // Two at least, so one unticked leaves the other ticked.
  const ticket = await customerTicket(request, 'Spam three: win a free suitcase');
  await customerTicket(request, 'Spam four: win a free suitcase');
  await signInAt(page, '/admin/support', AGENT);
  const all = page.getByRole('checkbox', { name: BULK_TEXT.selectAll });
  const rowTicks = page.getByRole('checkbox', { name: /^Select ticket #/ });
  await expect(rowOf(page, ticket.ticketNo)).toBeVisible();
  await all.check();
  // Every row ticked, read in one look (the live list may add rows meanwhile: the box follows).
  await expect(async () => {
    const states = await rowTicks.evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).checked));
    expect(states.length).toBeGreaterThan(0);
    expect(states.every(Boolean)).toBe(true);
  }).toPass();
  await rowOf(page, ticket.ticketNo)
    .getByRole('checkbox', { name: BULK_TEXT.select(ticket.ticketNo) })
    .uncheck();
  await expect(all).not.toBeChecked();
  expect(await all.evaluate((box) => (box as HTMLInputElement).indeterminate)).toBe(true);
  await all.check();
  await all.uncheck();
  await expect(async () => {
    const states = await rowTicks.evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).checked));
    expect(states.some(Boolean)).toBe(false);
  }).toPass();
});

test('Apply with nothing ticked says so and changes nothing', async ({ page }) => {
  await signInAt(page, '/admin/support', AGENT);
  await page.getByRole('combobox', { name: BULK_TEXT.legend }).selectOption({ label: BULK_TEXT.actions.close });
  await page.getByRole('button', { name: BULK_TEXT.apply }).click();
  await expect(page.getByRole('alert').filter({ hasText: BULK_TEXT.noneTicked })).toBeVisible();
});
