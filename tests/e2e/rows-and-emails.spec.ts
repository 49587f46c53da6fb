import { randomBytes } from 'node:crypto';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { E2E_ADMIN, hydrated, signInAt, signInToTickets } from './fixtures.ts';
import { linkIn, tokenFrom, waitForMails } from '../helpers/mail.ts';
import { expectNoAxeViolations, VIEWPORTS } from './support.ts';

/** A click where a person would click: the middle of the element, whatever lies on top of it. */
async function clickOn(page: Page, target: Locator) {
  // As a person would: scrolled into view first (the inbox's figures and search push rows down on a phone).
  await target.scrollIntoViewIfNeeded();
  const box = (await target.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/** A person whose address is long, with an open ticket. */
async function longAddressWithTicket(request: import('@playwright/test').APIRequestContext) {
  const email = `firstname.middlename.lastname-${randomBytes(4).toString('hex')}@subdomain.example-company.co.nz`;
  const password = `Harbour-${randomBytes(5).toString('hex')}-kite`;
  expect((await request.post('/api/auth/signup', { data: { email, password } })).status()).toBe(202);
  const [mail] = await waitForMails(process.env.E2E_DATA_DIR!, email);
  const token = tokenFrom(linkIn(mail!, 'http://localhost'));
  expect((await request.post('/api/auth/verify-email', { data: { token } })).status()).toBe(200);
  expect((await request.post('/api/auth/login', { data: { email, password } })).status()).toBe(200);
  const created = await request.post('/api/functions/createSupportTicket', {
    data: { data: { reason: 'General', message: 'Where is my parcel?' } },
  });
  const { ticketId, ticketNo } = (await created.json()).result as { ticketId: string; ticketNo: number };
  return { email, password, ticketId, ticketNo };
}

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`the whole row opens the ticket, by mouse and keyboard, and long emails wrap (${label})`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    const user = await longAddressWithTicket(request);
    await signInToTickets(page, user);
    await hydrated(page);
    // Nothing runs off the side of the screen, the long address included.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

    // A click anywhere on the row, here on its reason.
    const row = page.getByRole('row').filter({ hasText: `#${user.ticketNo}` });
    await clickOn(page, row.getByRole('cell', { name: /General/ }));
    await expect(page).toHaveURL(new RegExp(`/support/ticket/${user.ticketId}$`));

    // The keyboard: the row's link is its tab stop, and Enter opens it.
    await page.goBack();
    const link = page.getByRole('link', { name: `#${user.ticketNo}` });
    await link.focus();
    await expect(link).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/support/ticket/${user.ticketId}$`));
    await expectNoAxeViolations(page);
  });
}

test('the admin inbox opens a ticket from anywhere on its row; long emails wrap on a phone', async ({
  page,
  request,
}) => {
  await page.setViewportSize(VIEWPORTS.phone);
  const user = await longAddressWithTicket(request);
  await signInAt(page, `/admin/support?q=${encodeURIComponent(user.email)}`, E2E_ADMIN);
  const row = page.getByRole('row').filter({ hasText: `#${user.ticketNo}` });
  await expect(row).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
  await clickOn(page, row.getByRole('cell').nth(1));
  await expect(page).toHaveURL(new RegExp(`/admin/support/${user.ticketId}$`));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
});
