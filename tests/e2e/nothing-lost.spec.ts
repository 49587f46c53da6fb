import { randomBytes } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { ATTACHMENT_TEXT } from '../../src/contracts/attachments.ts';
import { ADMIN_TEXT } from '../../src/contracts/admin.ts';
import { DESK_TEXT } from '../../src/contracts/desk.ts';
import { SUPPORT_TEXT } from '../../src/contracts/support.ts';
import { png } from '../helpers/attachment-files.ts';
import { adminApi, E2E_ADMIN, hydrated, openTicketByCallable, signIn, signInAt, verifiedAccount } from './fixtures.ts';

/**
 * Nothing typed or chosen is lost: a half-written reply outlives a reload and the ticket closing,
 * and a file chosen before the page's script has run is sent with the message.
 */

const bubbles = (page: Page) => page.getByRole('log', { name: 'Messages' }).locator('.thread__list > li');
const unsentWords = (page: Page) => page.locator('.ticket__unsent-text');

/**
 * Holds the page's scripts back (the built modules under /assets) until the returned function lets
 * them through: the page is its server-rendered HTML until then, as on a slow phone.
 */
async function holdScripts(page: Page) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('a half-written reply survives a reload and the ticket closing and reopening, and goes once sent', async ({
  page,
  request,
  baseURL,
}) => {
  const user = await verifiedAccount(request);
  const admin = await adminApi(baseURL!);
  await signIn(page, user.email, user.password);
  const { ticketId } = await openTicketByCallable(page, 'General', 'Where is the refund for my cancelled trip?');
  await page.goto(`/support/ticket/${ticketId}`);
  await hydrated(page);
  const box = page.getByLabel('Your message');
  await box.fill('I also wanted to ask whether');
  await page.reload();
  await hydrated(page);
  await expect(box).toHaveValue('I also wanted to ask whether');

  // The team closes the ticket: the box goes, the words stay on the page, after a reload too.
  expect((await admin.post(`/api/admin/support/tickets/${ticketId}/close`)).status()).toBe(200);
  await expect(page.getByText(SUPPORT_TEXT.replyRejected)).toBeVisible();
  await expect(box).toBeHidden();
  await expect(page.getByText(SUPPORT_TEXT.replyNotSent)).toBeVisible();
  await expect(unsentWords(page)).toHaveText('I also wanted to ask whether');
  await page.reload();
  await hydrated(page);
  await expect(unsentWords(page)).toHaveText('I also wanted to ask whether');
  await expect(page.getByRole('link', { name: SUPPORT_TEXT.newTicketWithMessage })).toHaveAttribute(
    'href',
    /message=I\+also\+wanted/,
  );

  // Reopened: the words are back in the box; sent, they are gone from it for good.
  expect((await admin.post(`/api/admin/support/tickets/${ticketId}/reopen`)).status()).toBe(200);
  await expect(box).toHaveValue('I also wanted to ask whether');
  await box.fill('I also wanted to ask whether the fee comes back.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(bubbles(page).last()).toContainText('the fee comes back.');
  await expect(box).toHaveValue('');
  await page.reload();
  await hydrated(page);
  await expect(bubbles(page).last()).toContainText('the fee comes back.');
  await expect(box).toHaveValue('');
  await expect(unsentWords(page)).toHaveCount(0);

  // A draft left on signing out is not kept on this computer for the next person.
  await box.fill('Something I did not send');
  await expect
    .poll(() => page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('bagspace:draft:'))))
    .toHaveLength(1);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  expect(
    await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('bagspace:draft:'))),
  ).toEqual([]);
  await admin.dispose();
});

test('an admin’s half-written answer and note are kept apart, and the answer shows once the ticket is closed', async ({
  browser,
  page,
  request,
  baseURL,
}) => {
  const user = await verifiedAccount(request);
  await signIn(page, user.email, user.password);
  const { ticketId } = await openTicketByCallable(page, 'Incident', 'My bag never arrived in Wellington.');

  const context = await browser.newContext({ baseURL });
  const desk = await context.newPage();
  await signInAt(desk, `/admin/support/${ticketId}`, E2E_ADMIN);
  await hydrated(desk);
  const answer = desk.getByLabel('Your message', { exact: true });
  const note = desk.getByLabel(DESK_TEXT.internalNote, { exact: true });
  await answer.fill('Kia ora, we have found your bag and');
  await note.fill('Bag is at the Auckland depot');
  await desk.reload();
  await hydrated(desk);
  await expect(answer).toHaveValue('Kia ora, we have found your bag and');
  await expect(note).toHaveValue('Bag is at the Auckland depot');

  // Closing the ticket with the answer unsent: its words stay on the page, across a reload.
  await desk.getByRole('button', { name: ADMIN_TEXT.closeTicket }).click();
  await expect(answer).toBeHidden();
  await expect(unsentWords(desk)).toHaveText('Kia ora, we have found your bag and');
  await expect(note).toHaveValue('Bag is at the Auckland depot');
  await desk.reload();
  await hydrated(desk);
  await expect(unsentWords(desk)).toHaveText('Kia ora, we have found your bag and');
  await desk.getByRole('button', { name: ADMIN_TEXT.reopenTicket }).click();
  await expect(answer).toHaveValue('Kia ora, we have found your bag and');
  await expect(unsentWords(desk)).toHaveCount(0);

  // The note sent: only its draft goes.
  await desk.getByRole('button', { name: DESK_TEXT.addNote }).click();
  // In the thread (the stream can show it while the box still holds the words, until the send answers).
  await expect(desk.getByRole('log', { name: 'Messages' }).getByText('Bag is at the Auckland depot')).toBeVisible();
  await expect(note).toHaveValue('');
  await desk.reload();
  await hydrated(desk);
  await expect(note).toHaveValue('');
  await expect(answer).toHaveValue('Kia ora, we have found your bag and');
  await context.close();
});

test('a photo chosen in the reply box before the page’s script ran is sent with the words', async ({
  page,
  request,
}) => {
  const user = await verifiedAccount(request);
  await signIn(page, user.email, user.password);
  const { ticketId } = await openTicketByCallable(page, 'Incident', 'The strap of my bag snapped on the way home.');
  const letScriptsRun = await holdScripts(page);
  await page.goto(`/support/ticket/${ticketId}`, { waitUntil: 'commit' });
  const box = page.getByLabel('Your message');
  await expect(box).toBeVisible();
  await page
    .getByLabel(ATTACHMENT_TEXT.attach)
    .setInputFiles([{ name: 'strap.png', mimeType: 'image/png', buffer: await png(120, 80) }]);
  await box.fill('Here is the strap.');
  letScriptsRun();
  await hydrated(page);
  await expect(page.getByRole('list', { name: ATTACHMENT_TEXT.attachments })).toContainText('strap.png');
  await expect(box).toHaveValue('Here is the strap.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(bubbles(page)).toHaveCount(2);
  const sent = bubbles(page).nth(1);
  await expect(sent).toContainText('Here is the strap.');
  await expect(sent.getByRole('img', { name: 'strap.png' })).toBeVisible();
});

test('a photo chosen on Contact us before the page’s script ran opens the ticket with it', async ({
  page,
  request,
}) => {
  const user = await verifiedAccount(request);
  await signIn(page, user.email, user.password);
  const letScriptsRun = await holdScripts(page);
  await page.goto('/support/create-ticket', { waitUntil: 'commit' });
  await expect(page.getByLabel('Reason')).toBeVisible();
  await page.getByLabel('Reason').selectOption('Incident');
  await page.getByLabel('Message').fill('The handle came off my suitcase at the carousel.');
  await page
    .getByLabel(ATTACHMENT_TEXT.attach)
    .setInputFiles([{ name: 'handle.png', mimeType: 'image/png', buffer: await png(90, 60) }]);
  letScriptsRun();
  await hydrated(page);
  await expect(page.getByRole('list', { name: ATTACHMENT_TEXT.attachments })).toContainText('handle.png');
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.waitForURL(/\/support\/ticket\//, { timeout: 15_000 });
  const first = bubbles(page).first();
  await expect(first).toContainText('The handle came off my suitcase');
  await expect(first.getByRole('img', { name: 'handle.png' })).toBeVisible();
});

test.describe('partner registration', () => {
  const LICENSE_LABEL = 'Commercial licence (JPG, PNG or PDF) (optional)';

  function newCompany() {
    const tag = randomBytes(3).toString('hex');
    const digits = String(parseInt(tag, 16)).padStart(8, '0').slice(-8);
    return { companyName: `Early Freight ${tag}`, phoneNumber: `022${digits}`, address: '12 Quay Street, Auckland' };
  }

  async function fillBeforeTheScript(page: Page, company: ReturnType<typeof newCompany>, licence: Buffer) {
    await page.getByRole('textbox', { name: 'Company name', exact: true }).fill(company.companyName);
    await page.getByRole('textbox', { name: 'Phone number', exact: true }).fill(company.phoneNumber);
    await page.getByRole('textbox', { name: 'Address 1', exact: true }).fill(company.address);
    await page
      .getByLabel(LICENSE_LABEL, { exact: true })
      .setInputFiles({ name: 'licence.png', mimeType: 'image/png', buffer: licence });
  }

  test('a licence chosen before the page’s script ran is sent with the application', async ({ page, baseURL }) => {
    const alerts: string[] = [];
    page.on('dialog', async (dialog) => {
      alerts.push(dialog.message());
      await dialog.accept();
    });
    const company = newCompany();
    const letScriptRun = await holdScripts(page);
    await page.goto('/register', { waitUntil: 'commit' });
    await expect(page.getByRole('textbox', { name: 'Company name', exact: true })).toBeVisible();
    await fillBeforeTheScript(page, company, await png(200, 120));
    letScriptRun();
    await expect(page.locator('form[data-hydrated="true"]')).toBeVisible();
    await expect(page.getByLabel(LICENSE_LABEL, { exact: true })).toHaveAttribute('aria-invalid', 'false');
    await page.getByRole('button', { name: /^Submit/ }).click();
    await expect.poll(() => alerts).toEqual(['Company Profile submitted successfully!']);

    // The application the team reviews has the licence.
    const admin = await adminApi(baseURL!);
    const listed = await admin.get(`/api/admin/companies?status=pending&q=${encodeURIComponent(company.companyName)}`);
    const [application] = ((await listed.json()) as { companies: Array<{ commercialLicenseUrl: string | null }> })
      .companies;
    expect(application?.commercialLicenseUrl).toBeTruthy();
    const licence = await admin.get(application!.commercialLicenseUrl!);
    expect(licence.status()).toBe(200);
    expect(licence.headers()['content-type']).toMatch(/^image\//);
    await admin.dispose();
  });

  test('a licence chosen before the page’s script ran is checked as soon as it runs', async ({ page }) => {
    const letScriptRun = await holdScripts(page);
    await page.goto('/register', { waitUntil: 'commit' });
    await expect(page.getByRole('textbox', { name: 'Company name', exact: true })).toBeVisible();
    await fillBeforeTheScript(page, newCompany(), Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00;', 'latin1'));
    letScriptRun();
    await expect(page.locator('form[data-hydrated="true"]')).toBeVisible();
    const licence = page.getByLabel(LICENSE_LABEL, { exact: true });
    await expect(licence).toHaveAttribute('aria-invalid', 'true');
    await expect(licence).toHaveAccessibleDescription(/Unsupported File Format/);
  });
});
