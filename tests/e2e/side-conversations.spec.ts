import { type Browser, expect, type Page, test } from '@playwright/test';
import { generateSecret } from 'otplib';
import { INBOUND_TEXT } from '../../src/contracts/inbound.ts';
import { SIDE_STATE_LABELS, SIDE_TEXT } from '../../src/contracts/side-conversations.ts';
import { pdf, png } from '../helpers/attachment-files.ts';
import { mailToReceiver } from '../helpers/inbound-mail.ts';
import { waitForMails } from '../helpers/mail.ts';
import { createUserWithCli } from '../helpers/server-process.ts';
import { newEmail, newPassword, openTicketByCallable, signInAt, verifiedAccount } from './fixtures.ts';
import { registerAdminSecret } from './second-factor.ts';
import { watchPage } from './support.ts';

/**
 * Side conversations as the team uses them (docs/decisions/138-side-conversations.md): from a
 * ticket's page, an agent mails a partner; the partner's mailed reply appears on the page with its
 * whole mail; the agent writes again and closes it. With JavaScript the reply appears live; without
 * it every form still posts to the page and the page shows the result. The customer's page never
 * shows any of it.
 */
const ADMIN = { email: newEmail('side-desk'), password: newPassword() };
const ADMIN_SECRET = generateSecret();
registerAdminSecret(ADMIN.email, ADMIN_SECRET);
const RELAY = 'relay.e2e.test';

let adminMade: Promise<void> | undefined;
test.beforeAll(async () => {
  adminMade ??= createUserWithCli({ DATA_DIR: process.env.E2E_DATA_DIR! }, ADMIN.email, ADMIN.password, [
    '--admin',
    '--totp-secret',
    ADMIN_SECRET,
  ]);
  await adminMade;
});

/** A customer with an open ticket, signed in in a browser of their own. */
async function customerWithTicket(browser: Browser, baseURL: string, words: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const account = await verifiedAccount(context.request);
  await signInAt(page, '/support', account);
  const ticket = await openTicketByCallable(page, 'General', words);
  return { context, page, account, ...ticket };
}

const sideSection = (page: Page) => page.getByRole('region', { name: SIDE_TEXT.title });
const startForm = (page: Page) => page.getByRole('form', { name: SIDE_TEXT.start });

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled });

    test('an agent mails a partner from the ticket, reads their reply and its whole mail, writes again and closes it; the customer sees none of it', async ({
      page,
      browser,
      baseURL,
    }) => {
      const watched = watchPage(page, baseURL!);
      const customer = await customerWithTicket(browser, baseURL!, 'My bag never reached the Wellington depot.');
      const partner = newEmail('depot');
      const subject = `The bag of ticket #${customer.ticketNo}`;

      // The customer sent a photo: the agent may send it on.
      const photo = await customer.page.request.post(`/api/support/tickets/${customer.ticketId}/messages`, {
        multipart: {
          messageBody: 'The handle, as it is now.',
          files: { name: 'handle.png', mimeType: 'image/png', buffer: await png() },
        },
      });
      expect(photo.status()).toBe(200);

      await signInAt(page, `/admin/support/${customer.ticketId}`, ADMIN);
      await expect(page.getByRole('heading', { name: `Ticket #${customer.ticketNo}` })).toBeVisible();
      await expect(sideSection(page).getByText(SIDE_TEXT.none)).toBeVisible();

      // Start one, quoting the customer's message.
      const form = startForm(page);
      await form.getByLabel(SIDE_TEXT.to).fill(partner);
      await form.getByLabel(SIDE_TEXT.subject).fill(subject);
      await form.getByLabel(SIDE_TEXT.message).fill('Kia ora, is a blue suitcase on your shelf?');
      await form.getByRole('checkbox', { name: /My bag never reached the Wellington depot/ }).check();
      await form
        .getByRole('group', { name: SIDE_TEXT.includeFiles })
        .getByRole('checkbox', { name: /handle\.png/ })
        .check();
      await form.getByRole('button', { name: SIDE_TEXT.send }).click();
      const conversation = sideSection(page).getByRole('article', { name: subject });
      await expect(conversation).toBeVisible();
      await expect(conversation.getByText(SIDE_STATE_LABELS.waiting)).toBeVisible();
      await expect(conversation.getByText('Kia ora, is a blue suitcase on your shelf?')).toBeVisible();
      // The start form is empty again, ready for the next one.
      await expect(form.getByLabel(SIDE_TEXT.to)).toHaveValue('');
      await expect(form.getByLabel(SIDE_TEXT.message)).toHaveValue('');
      await expect(form.getByRole('checkbox', { checked: true })).toHaveCount(0);

      // The partner got it from the support address, with a reply address of its own, and answers it.
      const [mail] = await waitForMails(process.env.E2E_DATA_DIR!, partner);
      expect(mail!.text).toContain('> My bag never reached the Wellington depot.');
      expect(mail!.attachments.map((a) => [a.filename, a.contentType])).toEqual([['handle.png', 'image/png']]);
      await expect(conversation.getByText(/handle\.png \(/)).toBeVisible();
      const replyTo = mail!.headers['reply-to']!.replace(/^.*<|>.*$/g, '').trim();
      expect(replyTo).toMatch(/^reply\+[0-9a-f]{48}@reply\.e2e\.test$/);
      const sent = await mailToReceiver(Number(process.env.E2E_SMTP_PORT), {
        from: partner,
        to: replyTo,
        subject: `Re: ${subject}`,
        words: `Yes, it is here; we send it on tomorrow.\n\nOn Mon, Bagspace <${replyTo}> wrote:\n> Kia ora, is a blue suitcase on your shelf?`,
        vouchedBy: RELAY,
        inReplyTo: mail!.messageId,
        attachments: [{ filename: 'waybill.pdf', contentType: 'application/pdf', content: pdf(3_000) }],
      });
      expect(sent.response).toMatch(/^250/);
      const answer = conversation.getByText('Yes, it is here; we send it on tomorrow.');
      if (javaScriptEnabled) {
        // Live: the page reads its side conversations again when the stream says they changed.
        await expect(answer).toBeVisible({ timeout: 30_000 });
      } else {
        // Without a script nothing is live: the agent reloads until the reply is there.
        await expect(async () => {
          await page.reload();
          await expect(answer).toBeVisible({ timeout: 1000 });
        }).toPass({ timeout: 30_000 });
      }
      await expect(conversation.getByText(SIDE_STATE_LABELS.answered)).toBeVisible();
      await expect(conversation.getByText('wrote:')).toHaveCount(0);
      await sideSection(page).screenshot({ path: `.tmp/side-files-${javaScriptEnabled ? 'js' : 'no-js'}.png` });
      // Their file: a download, for the team only.
      const waybill = conversation.getByRole('link', { name: 'waybill.pdf' });
      const download = await page.request.get((await waybill.getAttribute('href'))!);
      expect(download.status()).toBe(200);
      expect(download.headers()['content-disposition']).toMatch(/^attachment; filename="waybill\.pdf"/);
      expect((await download.body()).subarray(0, 5).toString()).toBe('%PDF-');
      expect((await customer.page.request.get((await waybill.getAttribute('href'))!)).status()).toBe(403);

      // The whole mail, with what the reply quoted.
      await conversation.getByRole('link', { name: INBOUND_TEXT.showWholeMail }).click();
      await expect(page.getByRole('heading', { level: 1, name: INBOUND_TEXT.wholeMailTitle })).toBeVisible();
      await expect(page.getByText('> Kia ora, is a blue suitcase on your shelf?')).toBeVisible();
      await page.getByRole('link', { name: 'Back to the ticket' }).click();
      await expect(conversation).toBeVisible();

      // Written again: waiting on them once more, and mailed.
      await conversation.getByLabel(SIDE_TEXT.replyLabel(partner)).fill('Thank you! Which courier?');
      await conversation.getByRole('button', { name: SIDE_TEXT.reply, exact: true }).click();
      await expect(conversation.getByText('Thank you! Which courier?')).toBeVisible();
      await expect(conversation.getByLabel(SIDE_TEXT.replyLabel(partner))).toHaveValue('');
      await expect(conversation.getByText(SIDE_STATE_LABELS.waiting)).toBeVisible();
      await waitForMails(process.env.E2E_DATA_DIR!, partner, 2);

      // Closed: no reply box any more.
      await conversation.getByRole('button', { name: SIDE_TEXT.close }).click();
      await expect(conversation.getByText(SIDE_TEXT.closedNote)).toBeVisible();
      await expect(conversation.getByLabel(SIDE_TEXT.replyLabel(partner))).toHaveCount(0);

      // The customer's page has none of it.
      await customer.page.goto(`/support/ticket/${customer.ticketId}`);
      await expect(customer.page.getByRole('heading', { name: `Ticket #${customer.ticketNo}` })).toBeVisible();
      await expect(customer.page.getByText('My bag never reached the Wellington depot.')).toBeVisible();
      const html = await customer.page.content();
      for (const secret of [SIDE_TEXT.title, partner, 'blue suitcase', 'we send it on tomorrow'])
        expect(html).not.toContain(secret);
      await customer.context.close();
      expect(watched.problems).toEqual([]);
    });
  });
}

test('the inbox lists the tickets waiting on a third party', async ({ page, browser, baseURL }) => {
  const customer = await customerWithTicket(browser, baseURL!, 'Where is my parcel to Dunedin?');
  await signInAt(page, `/admin/support/${customer.ticketId}`, ADMIN);
  const form = startForm(page);
  await form.getByLabel(SIDE_TEXT.to).fill(newEmail('dunedin-depot'));
  await form.getByLabel(SIDE_TEXT.subject).fill('A parcel for Dunedin');
  await form.getByLabel(SIDE_TEXT.message).fill('Has it reached you?');
  await form.getByRole('button', { name: SIDE_TEXT.send }).click();
  await expect(sideSection(page).getByRole('article', { name: 'A parcel for Dunedin' })).toBeVisible();

  await page.goto('/admin/support');
  await page.getByRole('group', { name: 'Waiting on whom' }).getByRole('button', { name: SIDE_TEXT.filter }).click();
  await expect(page).toHaveURL(/waiting=third-party/);
  await expect(page.getByRole('link', { name: `#${customer.ticketNo}` }).first()).toBeVisible();
  await expect(page.getByRole('status').getByText(SIDE_TEXT.filter.toLowerCase())).toBeVisible();
  await customer.context.close();
});
