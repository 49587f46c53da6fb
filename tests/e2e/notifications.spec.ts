import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { ADMIN_TEXT } from '../../src/contracts/admin.ts';
import { INBOUND_TEXT } from '../../src/contracts/inbound.ts';
import { SUPPORT_TEXT } from '../../src/contracts/support.ts';
import { mailToReceiver } from '../helpers/inbound-mail.ts';
import { linkIn, readOutbox, tokenFrom, waitForMail, waitForMails } from '../helpers/mail.ts';
import { freePort } from '../helpers/ports.ts';
import { createUserWithCli, ROOT, type ServerProcess, startServer } from '../helpers/server-process.ts';
import { newEmail, newPassword, signInAt, signInOnLoginScreen } from './fixtures.ts';
import { generateSecret } from 'otplib';
import { registerAdminSecret } from './second-factor.ts';

/**
 * Notification mail as a user meets it: they open a ticket and leave; an admin answers in the
 * console; the answer reaches them by mail (it never reached an open page of theirs), and the link
 * in that mail brings them, after signing in, to the ticket with the answer.
 *
 * The shared e2e server waits the default NOTIFY_DELAY_SECONDS (60 s) before mailing an answer, and
 * its environment is fixed in playwright.config.ts, so this file starts its own server like
 * `npm start` does, on its own data directory, with an eight-second delay: longer than a page takes
 * to count an answer as seen (SEEN_AFTER_MS, 3 s), so that a page's report comes before the mail.
 */

const ADMIN = { email: newEmail('ops'), password: newPassword() };
// Its authenticator app, enrolled by the CLI (docs/product.md §2.15); sign-ins compute its codes.
const ADMIN_SECRET = generateSecret();
registerAdminSecret(ADMIN.email, ADMIN_SECRET);
const ANSWER = 'Thanks for waiting! Your bag was found at the Auckland depot and goes out on tomorrow’s run.';
const bubbles = (page: Page) => page.getByRole('log', { name: 'Messages' }).getByRole('listitem');

let server: ServerProcess | undefined;
let smtpPort = 0;
const RELAY = 'relay.e2e.test';
let baseURL = '';
let dataDir = '';

/** Signs up and confirms the address from the mail, like tests/e2e/fixtures.ts, against this file's server. */
async function verifiedAccount(request: APIRequestContext) {
  const email = newEmail('notify');
  const password = newPassword();
  expect((await request.post('/api/auth/signup', { data: { email, password } })).status()).toBe(202);
  const [mail] = await waitForMails(dataDir, email);
  const token = tokenFrom(linkIn(mail!, baseURL));
  expect((await request.post('/api/auth/verify-email', { data: { token } })).status()).toBe(200);
  return { email, password };
}

async function newPage(browser: Browser) {
  const context = await browser.newContext({ baseURL });
  return { context, page: await context.newPage() };
}

const replyMailsTo = async (email: string) =>
  (await readOutbox(dataDir)).filter(
    (m) => m.to.toLowerCase().includes(email.toLowerCase()) && m.subject.startsWith('New reply on ticket'),
  );

test.beforeAll(async () => {
  test.setTimeout(90_000);
  fs.mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  dataDir = fs.mkdtempSync(path.join(ROOT, '.tmp', 'e2e-notifications-'));
  const port = await freePort();
  smtpPort = await freePort();
  baseURL = `http://localhost:${port}`;
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: baseURL,
    NOTIFY_DELAY_SECONDS: '8',
    REGISTRATIONS_PER_IP_PER_HOUR: '1000',
    LOGIN_FAILURES_PER_IP: '1000',
    ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '1000',
    // Reply by email (decision 105): the receiver on a port of its own, behind a "relay" whose
    // Authentication-Results the test writes (these machines have no DNS for a DMARC check).
    REPLY_DOMAIN: 'reply.e2e.test',
    INBOUND_SMTP_PORT: String(smtpPort),
    INBOUND_SMTP_HOST: '127.0.0.1',
    INBOUND_AUTHSERV_ID: RELAY,
  };
  // The only way to become admin: the CLI, before the server takes the data directory.
  await createUserWithCli(env, ADMIN.email, ADMIN.password, ['--admin', '--totp-secret', ADMIN_SECRET]);
  server = startServer(env, { script: 'scripts/start.js' });
  const url = await server.ready;
  expect(url).toBe(baseURL);
});

test.afterEach(async () => {
  const testInfo = test.info();
  if (server && testInfo.status !== testInfo.expectedStatus)
    await testInfo.attach('server output', { body: server.output(), contentType: 'text/plain' });
});

test.afterAll(async () => {
  const code = await server?.stop();
  expect(code, server?.output()).toBe(0);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('an answer to a ticket nobody is looking at is mailed; the link leads to it after signing in', async ({
  browser,
}) => {
  // Three browsers, a mail after a delay, a reply by mail: more than the default time on a loaded
  // 2-core machine.
  test.setTimeout(120_000);

  // The user signs in, opens a ticket, and closes the tab.
  const user = await newPage(browser);
  const account = await verifiedAccount(user.context.request);
  await signInAt(user.page, '/support', account);
  await expect(user.page.getByRole('heading', { name: SUPPORT_TEXT.listTitle })).toBeVisible();
  await user.page.getByRole('link', { name: SUPPORT_TEXT.newTicket }).click();
  await expect(user.page.getByRole('heading', { name: SUPPORT_TEXT.createTitle })).toBeVisible();
  await user.page.getByLabel('Reason').selectOption({ label: 'Incident Report' });
  await user.page.getByLabel('Message').fill('My bag did not arrive in Wellington.');
  await user.page.getByRole('button', { name: 'Submit' }).click();
  await expect(user.page).toHaveURL(/\/support\/ticket\/[0-9a-f-]{36}$/);
  const heading = user.page.getByRole('heading', { name: /^Ticket #\d+$/ });
  await expect(heading).toBeVisible();
  await expect(user.page.getByText('Live', { exact: true })).toBeVisible();
  const ticketId = user.page.url().split('/').at(-1)!;
  const ticketNo = Number((await heading.textContent())!.replace(/\D/g, ''));
  await user.page.close();
  await user.context.close();

  // The admin answers in the console, in a browser of their own.
  const admin = await newPage(browser);
  await signInAt(admin.page, '/admin/support', ADMIN);
  await expect(admin.page.getByRole('heading', { level: 1, name: ADMIN_TEXT.nav.support })).toBeVisible();
  const row = admin.page.getByRole('row').filter({ hasText: account.email });
  await expect(row).toContainText(`#${ticketNo}`);
  await row.getByRole('link', { name: `#${ticketNo}` }).click();
  await expect(admin.page.getByRole('heading', { level: 1, name: `Ticket #${ticketNo}` })).toBeVisible();
  await expect(bubbles(admin.page)).toHaveCount(1);
  await admin.page.getByLabel('Your message').fill(ANSWER);
  await admin.page.getByRole('button', { name: 'Send' }).click();
  await expect(bubbles(admin.page)).toHaveCount(2);
  await expect(bubbles(admin.page).last()).toContainText(ANSWER);
  const answeredAt = Date.now();

  // The mail arrives once the delay is over, with the answer and a link to the ticket.
  const subject = `New reply on ticket #${ticketNo}`;
  const mail = await waitForMail(dataDir, account.email, subject);
  test.info().annotations.push({ type: 'mail after answer', description: `${Date.now() - answeredAt} ms` });
  expect(mail.text).toContain(ANSWER);
  expect(mail.html).toContain('Auckland depot');
  const link = linkIn(mail, `${baseURL}/support/ticket/`);
  expect(link).toBe(`${baseURL}/support/ticket/${ticketId}`);
  expect(await replyMailsTo(account.email)).toHaveLength(1);
  await admin.context.close();

  // Signed out, in a fresh browser: the link shows the login screen, then the ticket with the answer.
  const reader = await newPage(browser);
  await reader.page.goto(link);
  await expect(reader.page.getByLabel('Email')).toBeVisible();
  await expect(bubbles(reader.page)).toHaveCount(0);
  await expect(reader.page.getByText(ANSWER)).toHaveCount(0);
  // Typed into the login screen: that it lands on the mailed link is the point here.
  await signInOnLoginScreen(reader.page, account.email, account.password);
  await expect(reader.page).toHaveURL(link);
  await expect(reader.page.getByRole('heading', { name: `Ticket #${ticketNo}` })).toBeVisible();
  await expect(bubbles(reader.page)).toHaveCount(2);
  await expect(bubbles(reader.page).first()).toContainText('My bag did not arrive in Wellington.');
  await expect(bubbles(reader.page).last()).toContainText('Admin');
  await expect(bubbles(reader.page).last()).toContainText(ANSWER);

  // With the ticket still open, they answer the mail from their mail program instead: the reply
  // appears in the thread, live, with only their new words and the "by email" mark.
  const replyAddress = mail.headers['reply-to']!.replace(/^.*<|>.*$/g, '').trim();
  expect(replyAddress).toMatch(/^reply\+[0-9a-f]{48}@reply\.e2e\.test$/);
  const sent = await mailToReceiver(smtpPort, {
    from: account.email,
    to: replyAddress,
    subject: `Re: ${subject}`,
    words: `Kia ora, tomorrow morning suits me.\n\nOn Fri, 27 Nov 2026 at 10:12, Bagspace <${replyAddress}> wrote:\n> ${ANSWER}`,
    vouchedBy: RELAY,
    inReplyTo: mail.messageId,
  });
  expect(sent.response).toMatch(/^250/);
  await expect(bubbles(reader.page)).toHaveCount(3, { timeout: 30_000 });
  await expect(bubbles(reader.page).last()).toContainText('Kia ora, tomorrow morning suits me.');
  await expect(bubbles(reader.page).last()).not.toContainText('wrote:');
  await expect(bubbles(reader.page).last()).toContainText(INBOUND_TEXT.byEmail);
  await reader.context.close();

  // Still exactly one such mail: the worker has run several rounds since, and nothing was sent twice.
  const mails = await replyMailsTo(account.email);
  expect(mails.map((m) => m.subject)).toEqual([subject]);
});

/**
 * Seen means seen: an answer is mailed unless the customer's ticket page had it in front of them
 * (visible and focused, or scrolled into view while visible) for a few moments. A page that only
 * received it over the live stream, in a background tab or closed right away, did not show it.
 */
test.describe('an answer is mailed unless the customer saw it', () => {
  /** A signed-in customer on the page of a new ticket of theirs, its stream live. */
  async function customerOnTicket(browser: Browser, words: string) {
    const user = await newPage(browser);
    const account = await verifiedAccount(user.context.request);
    await signInAt(user.page, '/support', account);
    await expect(user.page.getByRole('heading', { name: SUPPORT_TEXT.listTitle })).toBeVisible();
    const created = await user.page.request.post('/api/functions/createSupportTicket', {
      data: { data: { reason: 'General', message: words } },
    });
    expect(created.status()).toBe(200);
    const { ticketId, ticketNo } = (await created.json()).result as { ticketId: string; ticketNo: number };
    await user.page.goto(`/support/ticket/${ticketId}`);
    await expect(user.page.getByRole('heading', { name: `Ticket #${ticketNo}` })).toBeVisible();
    await expect(user.page.getByText('Live', { exact: true })).toBeVisible();
    return { ...user, account, ticketId, ticketNo };
  }

  /** The admin, signed in to the console, answering (and closing) through the console's API. */
  async function adminDesk(browser: Browser) {
    const admin = await newPage(browser);
    await signInAt(admin.page, '/admin/support', ADMIN);
    await expect(admin.page.getByRole('heading', { level: 1, name: ADMIN_TEXT.nav.support })).toBeVisible();
    return {
      context: admin.context,
      async answer(ticketId: string, messageBody: string) {
        const sent = await admin.page.request.post(`/api/admin/support/tickets/${ticketId}/messages`, {
          data: { messageBody },
        });
        expect(sent.status()).toBe(200);
      },
      async close(ticketId: string) {
        expect((await admin.page.request.post(`/api/admin/support/tickets/${ticketId}/close`)).status()).toBe(200);
      },
    };
  }

  /** The tab goes to the background: hidden, and without the focus (as a tab behind another is). */
  const sendToBackground = (page: Page) =>
    page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.hasFocus = () => false;
      window.dispatchEvent(new Event('blur'));
      document.dispatchEvent(new Event('visibilitychange'));
    });

  const mailsAbout = async (email: string, ticketNo: number) =>
    (await readOutbox(dataDir)).filter(
      (m) => m.to.toLowerCase().includes(email.toLowerCase()) && m.subject.includes(`#${ticketNo}`),
    );

  test('an answer that reaches a ticket page left in a background tab is mailed', async ({ browser }) => {
    test.setTimeout(120_000);
    const customer = await customerOnTicket(browser, 'Is my parcel insured?');
    await sendToBackground(customer.page);
    const desk = await adminDesk(browser);
    const answer = 'Yes: every parcel is insured up to $500 while we carry it.';
    await desk.answer(customer.ticketId, answer);
    // The live stream brought it to the page, which nobody was looking at.
    await expect(bubbles(customer.page).last()).toContainText(answer);
    const mail = await waitForMail(dataDir, customer.account.email, `New reply on ticket #${customer.ticketNo}`);
    expect(mail.text).toContain(answer);
    await customer.context.close();
    await desk.context.close();
  });

  test('answered and closed at once, with the page closed right after: the closed mail carries the answer', async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const customer = await customerOnTicket(browser, 'Can you refund the delivery fee?');
    const desk = await adminDesk(browser);
    const answer = 'Done: the delivery fee is back on your card within three days.';
    await desk.answer(customer.ticketId, answer);
    await desk.close(customer.ticketId);
    // The page, in front of the customer, shows the answer and the close live, and is closed at once.
    await expect(bubbles(customer.page).last()).toContainText(answer);
    await expect(customer.page.getByText(SUPPORT_TEXT.replyRejected)).toBeVisible();
    await customer.page.close();
    await customer.context.close();

    const mail = await waitForMail(dataDir, customer.account.email, `Ticket #${customer.ticketNo} was closed`);
    expect(mail.text).toContain(`> ${answer}`);
    expect(mail.html).toContain('three days');
    // One mail says both: no separate reply mail, and never a close without its answer.
    expect((await mailsAbout(customer.account.email, customer.ticketNo)).map((m) => m.subject)).toEqual([
      `Ticket #${customer.ticketNo} was closed`,
    ]);
    await desk.context.close();
  });

  test('an answer the customer had in front of them is not mailed; the next one, sent while they were away, is', async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const customer = await customerOnTicket(browser, 'When does my bag arrive?');
    const desk = await adminDesk(browser);
    const seenAnswer = 'Tomorrow before noon.';
    // The page reports the answer once it has been in sight for a moment (use-seen-report.ts).
    const reported = customer.page.waitForResponse(
      (res) => res.url().endsWith(`/api/support/tickets/${customer.ticketId}/seen`) && res.status() === 200,
    );
    await desk.answer(customer.ticketId, seenAnswer);
    await expect(bubbles(customer.page).last()).toContainText(seenAnswer);
    await reported;

    await sendToBackground(customer.page);
    const awayAnswer = 'Correction: the courier says by 3 pm.';
    await desk.answer(customer.ticketId, awayAnswer);
    await expect(bubbles(customer.page).last()).toContainText(awayAnswer);
    const mail = await waitForMail(dataDir, customer.account.email, `New reply on ticket #${customer.ticketNo}`);
    expect(mail.text).toContain(awayAnswer);
    expect(mail.text).not.toContain(seenAnswer);
    expect(await mailsAbout(customer.account.email, customer.ticketNo)).toHaveLength(1);
    await customer.context.close();
    await desk.context.close();
  });

  test('a mailed reply keeps each question its answers sit under, as a quote, and a forwarded mail folded (JavaScript on and off)', async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const customer = await customerOnTicket(browser, 'My bag came back damaged.');
    await sendToBackground(customer.page);
    const desk = await adminDesk(browser);
    await desk.answer(customer.ticketId, 'Which day suits you for the pickup?\n\nIs the bag still sealed?');
    const subject = `New reply on ticket #${customer.ticketNo}`;
    const mail = await waitForMail(dataDir, customer.account.email, subject);
    const replyAddress = mail.headers['reply-to']!.replace(/^.*<|>.*$/g, '').trim();
    const quoted = `On Fri, 27 Nov 2026 at 10:12, Bagspace <${replyAddress}> wrote:\n> Kia ora,\n>\n> > Which day suits you for the pickup?\n\nTuesday\n\n> >\n> > Is the bag still sealed?\n\nYes, still sealed.\n\n> Ngā mihi,\n> The Bagspace team`;
    for (const [words, mailSubject] of [
      [quoted, `Re: ${subject}`],
      [
        'FYI, from the courier.\n\n---------- Forwarded message ---------\nFrom: Kiri Walker <kiri@courier.example.co.nz>\nDate: Thu, 26 Nov 2026 at 16:40\nSubject: Your parcel\nTo: <me@example.co.nz>\n\nYour parcel is at the Ōtaki depot.',
        `Fwd: Your parcel`,
      ],
    ] as const) {
      const sent = await mailToReceiver(smtpPort, {
        from: customer.account.email,
        to: replyAddress,
        subject: mailSubject,
        words,
        vouchedBy: RELAY,
        inReplyTo: mail.messageId,
      });
      expect(sent.response).toMatch(/^250/);
    }
    const statePath = path.join(dataDir, `quotes-${customer.ticketNo}.json`);
    await customer.context.storageState({ path: statePath });
    for (const javaScriptEnabled of [true, false]) {
      const context = await browser.newContext({ baseURL, javaScriptEnabled, storageState: statePath });
      const page = await context.newPage();
      await page.goto(`/support/ticket/${customer.ticketId}`);
      await expect(bubbles(page)).toHaveCount(4, { timeout: 30_000 });
      const answers = bubbles(page).nth(2);
      await expect(answers.locator('blockquote')).toHaveText([
        'Which day suits you for the pickup?',
        'Is the bag still sealed?',
      ]);
      await expect(answers.locator('.bubble__body > p').filter({ hasText: 'Tuesday' })).toBeVisible();
      await expect(answers).not.toContainText('wrote:');
      await expect(answers).not.toContainText('The Bagspace team');
      const forward = bubbles(page).nth(3);
      await expect(forward.locator('.bubble__body > p')).toHaveText('FYI, from the courier.');
      const folded = forward.locator('details');
      await expect(folded.locator('summary')).toHaveText(
        `${INBOUND_TEXT.forwardedFrom} Kiri Walker <kiri@courier.example.co.nz>`,
      );
      await expect(folded.getByText('Your parcel is at the Ōtaki depot.')).toBeHidden();
      await folded.locator('summary').click();
      await expect(folded.getByText('Your parcel is at the Ōtaki depot.')).toBeVisible();
      await context.close();
    }
    await customer.context.close();
    await desk.context.close();
  });
});
