import { expect, test } from '@playwright/test';
import { SAVED_REPLY_TEXT } from '../../src/contracts/desk.ts';
import { MACRO_TEXT } from '../../src/contracts/macros.ts';
import { MACRO_ACTION_TEXT } from '../../src/contracts/macro-actions.ts';
import { adminApi, customerTicket, signInAt } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';
import { expectFitsScreen, expectNoAxeViolations, VIEWPORTS } from './support.ts';

/**
 * Macros (docs/decisions/145-macro-actions.md): an agent gives a saved reply actions, previews it on a
 * ticket, finishes its reply, applies it as one change and takes it back with Undo; the same plain
 * forms with JavaScript and without.
 */
const AGENTS = { true: teamAdmin('macros-js'), false: teamAdmin('macros-no-js') };

for (const js of [true, false]) {
  test(`JavaScript ${js ? 'on' : 'off'}: a macro is made, previewed, applied as one change and undone`, async ({
    browser,
    request,
    baseURL,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: js, viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    const suffix = `${js ? 'js' : 'no-js'} ${Date.now()}`;
    const admin = await adminApi(baseURL!);
    const label = (await (await admin.post('/api/admin/labels', { data: { name: `Courier ${suffix}` } })).json())
      .label as { id: string; name: string };
    const { ticketId, ticketNo } = await customerTicket(request, 'Where is my parcel?');

    // The saved reply, with what it also does.
    await signInAt(page, '/admin/saved-replies', AGENTS[`${js}`]);
    const title = `Parcel found ${suffix}`;
    const add = page.locator('form').filter({ has: page.getByRole('button', { name: SAVED_REPLY_TEXT.add }) });
    await add.getByLabel(SAVED_REPLY_TEXT.titleLabel).fill(title);
    await add.getByLabel(SAVED_REPLY_TEXT.bodyLabel).fill('Kia ora, ticket #{{ticket.number}} is {{ask:Where}}.');
    await add.getByLabel(MACRO_ACTION_TEXT.status).selectOption({ label: MACRO_ACTION_TEXT.close });
    await add.getByLabel(MACRO_ACTION_TEXT.assignee).selectOption({ label: MACRO_ACTION_TEXT.assignMe });
    await add.getByRole('checkbox', { name: label.name }).check();
    await add.getByLabel(MACRO_ACTION_TEXT.note).fill('Courier asked about #{{ticket.number}}');
    await add.getByRole('button', { name: SAVED_REPLY_TEXT.add }).click();
    await expect(page.getByText(SAVED_REPLY_TEXT.added(title))).toBeVisible();

    // Previewed on the ticket: the reply filled in, and what it will do.
    await page.goto(`/admin/support/${ticketId}`);
    await page.getByText(MACRO_ACTION_TEXT.panel, { exact: true }).click();
    await page.getByLabel(MACRO_ACTION_TEXT.choose, { exact: true }).selectOption({ label: title });
    await page.getByRole('button', { name: MACRO_ACTION_TEXT.preview, exact: true }).click();
    await expect(page.getByRole('heading', { name: MACRO_ACTION_TEXT.previewOf(title) })).toBeVisible();
    const reply = page.getByLabel(MACRO_ACTION_TEXT.replyLabel);
    await expect(reply).toHaveValue(`Kia ora, ticket #${ticketNo} is {{ask:Where}}.`);
    const lines = page.locator('.macro-panel__lines li');
    await expect(lines).toContainText([
      'Add an internal note',
      `Add the label “${label.name}”`,
      'Assign the ticket to you',
      MACRO_ACTION_TEXT.close,
    ]);
    await page.screenshot({ path: `.tmp/macro-preview-${js ? 'js' : 'no-js'}.png`, fullPage: true });
    if (js) {
      for (const viewport of [VIEWPORTS.phone, { width: 1024, height: 800 }, VIEWPORTS.desktop]) {
        await page.setViewportSize(viewport);
        await expectNoAxeViolations(page);
        await expectFitsScreen(page, `the macro preview at ${viewport.width} px`);
      }
    }

    // Its question left in: refused in words, the text kept, nothing done.
    await page.getByRole('button', { name: MACRO_ACTION_TEXT.apply, exact: true }).click();
    await expect(page.getByText(MACRO_TEXT.unfilled('{{ask:Where}}')).first()).toBeVisible();
    await expect(reply).toHaveValue(`Kia ora, ticket #${ticketNo} is {{ask:Where}}.`);

    await reply.fill(`Kia ora, ticket #${ticketNo} is in Auckland.`);
    await page.getByRole('button', { name: MACRO_ACTION_TEXT.apply, exact: true }).click();
    await expect(page.getByText(MACRO_ACTION_TEXT.applied(title))).toBeVisible();
    await expect(page.getByText('This ticket is closed. Reopen it to answer.')).toBeVisible();
    await expect(page.locator('.bubble__body', { hasText: `Courier asked about #${ticketNo}` })).toBeVisible();
    await expect(
      page.locator('.bubble__body', { hasText: `Kia ora, ticket #${ticketNo} is in Auckland.` }),
    ).toBeVisible();

    await page.getByRole('button', { name: MACRO_ACTION_TEXT.undo, exact: true }).click();
    await expect(page.getByText(MACRO_ACTION_TEXT.undone)).toBeVisible();
    await expect(page.getByPlaceholder('Write a message')).toBeVisible();
    await expect(page.locator('.bubble__body', { hasText: `Courier asked about #${ticketNo}` })).toHaveCount(0);
    // The reply was sent: it stays.
    await expect(
      page.locator('.bubble__body', { hasText: `Kia ora, ticket #${ticketNo} is in Auckland.` }),
    ).toBeVisible();
    await context.close();
    await admin.dispose();
  });
}
