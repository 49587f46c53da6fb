import { expect, test } from '@playwright/test';
import { LABEL_TEXT } from '../../src/contracts/labels.ts';
import { customerTicket, signInAt } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';
import { watchPage } from './support.ts';

/**
 * Labels as the team uses them (docs/decisions/141-labels.md), with JavaScript and without: add and
 * rename on Labels, put them on a ticket from its menu, and list a label's tickets in the inbox.
 */
const ADMIN = teamAdmin('labels');

for (const javaScriptEnabled of [true, false]) {
  test(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}: labels are added, put on a ticket and filter the inbox`, async ({
    browser,
    request,
    baseURL,
  }) => {
    // Label names are the team's, unique: a repeat (--repeat-each) names its own.
    const repeat = test.info().repeatEachIndex;
    const suffix = `${repeat > 0 ? `r${repeat}-` : ''}${javaScriptEnabled ? 'js' : 'no-js'}`;
    const labelled = await customerTicket(request, `My bag went to Nelson (${suffix}).`);
    const other = await customerTicket(request, `A question about fees (${suffix}).`);
    const context = await browser.newContext({ baseURL, javaScriptEnabled });
    const page = await context.newPage();
    const watched = watchPage(page, baseURL!);

    // Add two labels, one of them twice (refused in words), and rename one.
    await signInAt(page, '/admin/labels', ADMIN);
    await expect(page.getByRole('heading', { name: LABEL_TEXT.title, level: 1 })).toBeVisible();
    const add = page.getByRole('form', { name: LABEL_TEXT.add });
    for (const name of [`Lost bag ${suffix}`, `Fees ${suffix}`]) {
      await add.getByLabel(LABEL_TEXT.nameLabel).fill(name);
      await add.getByRole('button', { name: LABEL_TEXT.add }).click();
      await expect(page.getByText(LABEL_TEXT.added(name))).toBeVisible();
    }
    await add.getByLabel(LABEL_TEXT.nameLabel).fill(`lost BAG ${suffix}`);
    await add.getByRole('button', { name: LABEL_TEXT.add }).click();
    await expect(page.getByText(LABEL_TEXT.nameTaken)).toBeVisible();
    await page.getByText(`Fees ${suffix} (0)`).click();
    const fees = page.getByRole('form', { name: `Fees ${suffix}` });
    await fees.getByLabel(LABEL_TEXT.nameLabel).fill(`Fees and refunds ${suffix}`);
    await fees.getByRole('button', { name: LABEL_TEXT.rename }).click();
    await expect(page.getByText(LABEL_TEXT.renamed(`Fees and refunds ${suffix}`))).toBeVisible();

    // On the ticket: ticked in its menu, then shown with its facts.
    await page.goto(`/admin/support/${labelled.ticketId}`);
    await page.getByText('More actions').click();
    const picker = page.getByRole('group', { name: LABEL_TEXT.onTicket });
    await picker.getByRole('checkbox', { name: `Lost bag ${suffix}` }).check();
    await page.getByRole('button', { name: LABEL_TEXT.save }).click();
    await expect(page.getByRole('list', { name: 'Labels' }).getByText(`Lost bag ${suffix}`)).toBeVisible();
    await page.screenshot({ path: `.tmp/labels-ticket-${suffix}.png` });

    // The inbox: the label's tickets only.
    await page.goto('/admin/support');
    await page.getByLabel(LABEL_TEXT.filter, { exact: true }).selectOption({ label: `Lost bag ${suffix}` });
    await page.getByRole('button', { name: LABEL_TEXT.show }).click();
    await expect(page).toHaveURL(/[?&]label=/);
    await expect(page.getByRole('link', { name: `#${labelled.ticketNo}`, exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: `#${other.ticketNo}`, exact: true })).toHaveCount(0);
    await expect(page.getByRole('status').getByText(`labelled “Lost bag ${suffix}”`)).toBeVisible();
    await page.screenshot({ path: `.tmp/labels-inbox-${suffix}.png` });
    // The refused name's answer is a 409, which the browser logs; nothing else may be.
    expect(watched.problems.filter((problem) => !problem.includes('status of 409'))).toEqual([]);
    await context.close();
  });
}
