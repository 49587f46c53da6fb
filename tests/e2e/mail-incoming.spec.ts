import { type APIRequestContext, type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { generateSecret } from 'otplib';
import { ADMIN_TEXT } from '../../src/contracts/admin.ts';
import {
  heldMailsText,
  INBOUND_STATE_LABELS,
  INBOUND_TEXT,
  INBOUND_VIEW_STATES,
  type InboundViewState,
} from '../../src/contracts/inbound.ts';
import { InboundListSchema } from '../../src/contracts/inbound.schemas.ts';
import { mailToReceiver, receiverClient } from '../helpers/inbound-mail.ts';
import { createUserWithCli } from '../helpers/server-process.ts';
import { newEmail, newPassword, openTicketByCallable, signIn, signInAt, verifiedAccount } from './fixtures.ts';
import { registerAdminSecret } from './second-factor.ts';
import { expectFitsScreen, expectNoAxeViolations, VIEWPORTS, watchPage } from './support.ts';

/**
 * Reply by email as the team meets it in the console: the Mail page's two views (what the site
 * sends, what comes in), the Incoming view's state filters and its empty state, its Post and
 * Discard forms, a held mail opened to be read before deciding (from its ticket's page), and the
 * whole-mail page behind a message, which only a message that came by mail has. Mail that really comes in (SMTP, the mailbox) is the server's own specs' part: these tests
 * make only what the API and the fixtures can make, on the shared e2e server.
 */

// An admin of this file's own, made by the CLI beside the running server (as global-setup.ts makes
// the team admins), with an authenticator app whose codes this file computes: its sign-ins spend
// none of the shared admins' codes.
const ADMIN = { email: newEmail('mail-in'), password: newPassword() };
const ADMIN_SECRET = generateSecret();
registerAdminSecret(ADMIN.email, ADMIN_SECRET);

// Made once per worker process: with fully parallel tests a worker may come back to this file after
// running another's, and Playwright then runs this hook again in the same process.
let adminMade: Promise<void> | undefined;
test.beforeAll(async () => {
  adminMade ??= createUserWithCli({ DATA_DIR: process.env.E2E_DATA_DIR! }, ADMIN.email, ADMIN.password, [
    '--admin',
    '--totp-secret',
    ADMIN_SECRET,
  ]);
  await adminMade;
});

const adminNav = (page: Page) => page.getByRole('navigation', { name: 'Admin' });
const direction = (page: Page) => page.getByRole('navigation', { name: 'Which mail' });
const stateFilters = (page: Page) => page.getByRole('navigation', { name: 'Show incoming mail that is' });
const bubbles = (page: Page) => page.getByRole('log', { name: 'Messages' }).getByRole('listitem');
const EMPTY = 'No mail has come in yet. Replies to the site’s mail will appear here.';

async function signInAsAdmin(page: Page, path: string) {
  await signInAt(page, path, ADMIN);
  await expect(adminNav(page)).toBeVisible();
}

/**
 * What the Incoming view lists right now, as the API tells this admin: the e2e server is shared,
 * and the server's own specs may add real incoming mail to it, so the page is compared with the
 * API's answer rather than with a fixed number.
 */
async function incomingNow(request: APIRequestContext, state?: InboundViewState) {
  const answer = await request.get(`/api/admin/mail/incoming${state ? `?state=${state}` : ''}`);
  expect(answer.status()).toBe(200);
  return InboundListSchema.parse(await answer.json());
}

async function otherBrowser(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  return { context, page: await context.newPage() };
}

test('the admin switches the Mail page from outgoing to incoming mail, with its state filters', async ({
  page,
  baseURL,
}) => {
  const watched = watchPage(page, baseURL!);
  await page.setViewportSize(VIEWPORTS.desktop);
  await signInAsAdmin(page, '/admin/mail');
  await expect(page.getByRole('heading', { level: 1, name: ADMIN_TEXT.nav.mail })).toBeVisible();
  await expect(direction(page).getByRole('link', { name: 'Outgoing' })).toHaveAttribute('aria-current', 'page');

  await direction(page).getByRole('link', { name: 'Incoming' }).click();
  await expect(page).toHaveURL(/\/admin\/mail\/incoming$/);
  await expect(page.getByRole('heading', { level: 1, name: ADMIN_TEXT.nav.mail })).toBeVisible();
  await expect(direction(page).getByRole('link', { name: 'Incoming' })).toHaveAttribute('aria-current', 'page');
  await expect(direction(page).getByRole('link', { name: 'Outgoing' })).not.toHaveAttribute('aria-current');
  // Still the console's Mail section.
  await expect(adminNav(page).getByRole('link', { name: ADMIN_TEXT.nav.mail })).toHaveAttribute('aria-current', 'page');

  // Every state, with its count, as the API counts it; All is chosen. Other browser tests receive
  // mail meanwhile: a mail that lands between the page's read and the API's makes them differ, so
  // the page is read again until the two agree (what is compared is the page against the API).
  let first = true;
  await expect(async () => {
    if (!first) await page.reload();
    first = false;
    const { mails, counts } = await incomingNow(page.request);
    const total = INBOUND_VIEW_STATES.reduce((sum, state) => sum + counts[state], 0);
    await expect(stateFilters(page).getByRole('link', { name: `All (${total})` })).toHaveAttribute(
      'aria-current',
      'page',
      { timeout: 3000 },
    );
    for (const state of INBOUND_VIEW_STATES) {
      await expect(
        stateFilters(page).getByRole('link', { name: `${INBOUND_STATE_LABELS[state]} (${counts[state]})` }),
      ).toBeVisible({ timeout: 3000 });
    }
    if (mails.length === 0) {
      await expect(page.getByText(EMPTY)).toBeVisible({ timeout: 3000 });
      await expect(page.getByRole('table')).toHaveCount(0, { timeout: 3000 });
    } else {
      await expect(page.getByRole('table', { name: 'Incoming mail, newest first' }).getByRole('row')).toHaveCount(
        mails.length + 1,
        { timeout: 3000 },
      );
    }
  }).toPass({ timeout: 30_000 });

  // On a desktop and on a phone: no accessibility violations, nothing wider than the screen.
  for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page);
    await expectFitsScreen(page, `/admin/mail/incoming at ${viewport.width} px`);
  }

  // A state filter is a link: linkable, and the page says when there is none of that state.
  await stateFilters(page)
    .getByRole('link', { name: /^Held \(/ })
    .click();
  await expect(page).toHaveURL(/\/admin\/mail\/incoming\?state=held$/);
  await expect(stateFilters(page).getByRole('link', { name: /^Held \(/ })).toHaveAttribute('aria-current', 'page');
  const held = await incomingNow(page.request, 'held');
  if (held.mails.length === 0) await expect(page.getByText('No held mail.')).toBeVisible();
  else await expect(page.getByRole('button', { name: /^Post the mail/ })).toHaveCount(held.mails.length);

  // And back to what the site sends.
  await direction(page).getByRole('link', { name: 'Outgoing' }).click();
  await expect(page).toHaveURL(/\/admin\/mail$/);
  await expect(page.getByRole('group', { name: 'Show mail that is' })).toBeVisible();
  expect(watched.problems).toEqual([]);
});

test('Post and Discard are plain forms: one for a mail that is not there is refused in the API’s words, on the page', async ({
  page,
  baseURL,
}) => {
  await signInAsAdmin(page, '/admin/mail/incoming?state=held');
  // What the Post and Discard buttons send (without JavaScript, as a browser posts a form): the
  // page answers with itself, never JSON, and says why.
  for (const intent of ['post', 'discard']) {
    const answer = await page.request.post('/admin/mail/incoming?state=held', {
      form: { intent, inboundId: '987654321' },
      headers: { accept: 'text/html', origin: baseURL! },
    });
    expect(answer.status()).toBe(404);
    expect(answer.headers()['content-type']).toContain('text/html');
    const html = await answer.text();
    expect(html).toContain(INBOUND_TEXT.notFound);
    expect(html).toContain('Show incoming mail that is');
  }
});

test('only a message that came by mail has a whole mail: the page of any other is not found, for its owner and for an admin', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  const user = await verifiedAccount(request);
  await signIn(page, user.email, user.password);
  const { ticketId } = await openTicketByCallable(page, 'General', 'My bag was left at the Wellington depot.');
  const thread = await page.request.get(`/api/support/tickets/${ticketId}/messages`);
  const [message] = (await thread.json()).messages as Array<{ id: number; byEmail?: true }>;
  expect(message!.byEmail).toBeUndefined();

  // The thread: the message as sent on the site, with no mail mark and no way to a mail.
  await page.goto(`/support/ticket/${ticketId}`);
  await expect(bubbles(page)).toHaveCount(1);
  await expect(bubbles(page).first().getByText(INBOUND_TEXT.byEmail, { exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: INBOUND_TEXT.showWholeMail })).toHaveCount(0);

  const owner = await page.goto(`/support/ticket/${ticketId}/mail/${message!.id}`);
  expect(owner!.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  // An id that cannot be a message's is not found either.
  expect((await page.goto(`/support/ticket/${ticketId}/mail/not-a-number`))!.status()).toBe(404);

  const admin = await otherBrowser(browser, baseURL!);
  await signInAsAdmin(admin.page, `/admin/support/${ticketId}`);
  await expect(bubbles(admin.page)).toHaveCount(1);
  await expect(admin.page.getByRole('link', { name: INBOUND_TEXT.showWholeMail })).toHaveCount(0);
  const inConsole = await admin.page.goto(`/admin/support/${ticketId}/mail/${message!.id}`);
  expect(inConsole!.status()).toBe(404);
  await expect(admin.page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await admin.context.close();
});

/** Every column header and `action` lie inside the screen: nothing needs a sideways scroll. */
async function expectAllInView(page: Page, action: Locator, what: string) {
  for (const width of [1024, 1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectFitsScreen(page, `${what} at ${width} px`);
    const box = await action.boundingBox();
    expect(box, `${what}: the action at ${width} px`).not.toBeNull();
    expect(box!.x + box!.width, `${what}: the action at ${width} px`).toBeLessThanOrEqual(width);
    for (const header of await page.getByRole('columnheader').all()) {
      if (!(await header.isVisible())) continue; // a phone shows each cell's label instead
      const cell = (await header.boundingBox())!;
      expect(cell.x + cell.width, `${what}: a column at ${width} px`).toBeLessThanOrEqual(width);
    }
  }
}

test('without JavaScript, an admin posts a held mail from the Incoming view, and the whole mail can be read', async ({
  browser,
  request,
  baseURL,
}) => {
  // A mail through the receiver, a page of forms at three widths and the whole mail: more than the
  // default time on a loaded 2-core machine.
  test.setTimeout(120_000);
  // A customer's reply, mailed into their ticket's thread but not vouched for by their domain: held.
  const user = await verifiedAccount(request);
  expect((await request.post('/api/auth/login', { data: user })).status()).toBe(200);
  const created = await request.post('/api/functions/createSupportTicket', {
    data: { data: { reason: 'General', message: 'My bag has a broken wheel.' } },
  });
  const { ticketId, ticketNo } = (await created.json()).result as { ticketId: string; ticketNo: number };
  const subject = `Re: New reply on ticket #${ticketNo} ${Date.now()}`;
  await mailToReceiver(Number(process.env.E2E_SMTP_PORT), {
    from: user.email,
    to: 'support@reply.e2e.test',
    subject,
    words:
      'The wheel came off at Christchurch airport.\n\nOn Fri, 27 Nov 2026 at 10:12, Bagspace wrote:\n> Our support team answered your ticket.',
    references: `<ticket-${ticketId}@localhost>`,
  });

  const admin = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await admin.newPage();
  await signInAsAdmin(page, '/admin/mail/incoming?state=held');
  const row = page.getByRole('row').filter({ hasText: subject });
  await expect(async () => {
    await page.reload();
    await expect(row).toHaveCount(1);
  }).toPass({ timeout: 60_000 });
  await expect(row).toContainText(user.email);
  await expect(row).toContainText('The sender’s domain did not vouch for it');
  await expect(row.getByRole('link', { name: `#${ticketNo}`, exact: true })).toBeVisible();
  const post = row.getByRole('button', { name: /^Post the mail/ });
  await expectAllInView(page, post, 'the Incoming view');

  await page.setViewportSize(VIEWPORTS.desktop);
  await post.click();
  await expect(page.getByText(INBOUND_TEXT.posted)).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/mail\/incoming\?state=held&done=post/);
  await expect(page.getByRole('row').filter({ hasText: subject })).toHaveCount(0);

  // In the console's thread: the new words only, marked by email, and the whole mail behind them.
  await page.getByRole('link', { name: 'Open the ticket' }).click();
  await expect(bubbles(page)).toHaveCount(2);
  await expect(bubbles(page).last()).toContainText('The wheel came off at Christchurch airport.');
  await expect(bubbles(page).last()).not.toContainText('Our support team answered');
  await expect(bubbles(page).last()).toContainText(INBOUND_TEXT.byEmail);
  await bubbles(page).last().getByRole('link', { name: INBOUND_TEXT.showWholeMail }).click();
  await expect(page.getByRole('heading', { level: 1, name: INBOUND_TEXT.wholeMailTitle })).toBeVisible();
  await expect(page.getByText('> Our support team answered your ticket.')).toBeVisible();
  await expectAllInView(page, page.getByRole('link', { name: /^Back to/ }), 'the whole mail');

  // The Incoming view names who posted it.
  await page.goto('/admin/mail/incoming?state=posted');
  await expect(page.getByRole('row').filter({ hasText: subject })).toContainText(`by ${ADMIN.email}`);
  await admin.close();
});

for (const javaScriptEnabled of [true, false]) {
  test(`from the ticket's page an admin opens its held mail and reads it before deciding: text as text, a file as a download, headers on request (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({
    browser,
    request,
    baseURL,
  }) => {
    // A mail through the receiver and the worker's decision, then a page of forms: more than the
    // default time on a loaded 2-core machine.
    test.setTimeout(120_000);
    // A customer's mail into their ticket's thread, not vouched for by their domain: held. Its text
    // has markup in it, and its file is a page a browser would render.
    const user = await verifiedAccount(request);
    expect((await request.post('/api/auth/login', { data: user })).status()).toBe(200);
    const created = await request.post('/api/functions/createSupportTicket', {
      data: { data: { reason: 'General', message: 'My bag tag is missing.' } },
    });
    const { ticketId } = (await created.json()).result as { ticketId: string };
    const subject = `Tag photo ${Date.now()} ${javaScriptEnabled ? 'js' : 'no-js'}`;
    const words = 'The tag is in the file. <script>window.heldMailRan = true</script> <b>not bold</b>';
    const transport = receiverClient(Number(process.env.E2E_SMTP_PORT));
    try {
      await transport.sendMail({
        envelope: { from: user.email, to: 'support@reply.e2e.test' },
        from: user.email,
        to: 'support@reply.e2e.test',
        subject,
        text: words,
        references: `<ticket-${ticketId}@localhost>`,
        attachments: [{ filename: 'tag-notes.html', content: '<script>alert(1)</script>', contentType: 'text/html' }],
      });
    } finally {
      transport.close();
    }

    const admin = await browser.newContext({ baseURL, javaScriptEnabled, acceptDownloads: true });
    const page = await admin.newPage();
    await signInAsAdmin(page, `/admin/support/${ticketId}`);
    const held = page.getByRole('link', { name: heldMailsText(1), exact: true });
    await expect(async () => {
      await page.reload();
      await expect(held).toBeVisible();
    }).toPass({ timeout: 60_000 });

    await held.click();
    await expect(page).toHaveURL(/\/admin\/mail\/incoming\?state=held&mail=\d+$/);
    const opened = page.getByRole('region', { name: `${INBOUND_TEXT.heldMailTitle}: “${subject}”` });
    await expect(opened).toBeVisible();
    await expect(opened).toContainText(user.email);
    await expect(opened).toContainText('The sender’s domain did not vouch for it');
    // The text as the characters it is: the markup is shown, not run or rendered.
    await expect(opened.getByText(words, { exact: true })).toBeVisible();
    await expect(opened.locator('b')).toHaveCount(0);
    if (javaScriptEnabled) expect(await page.evaluate(() => 'heldMailRan' in window)).toBe(false);

    // Its file: a download, never a page of ours; an admin's only.
    const file = opened.getByRole('link', { name: 'tag-notes.html' });
    const href = (await file.getAttribute('href'))!;
    const answer = await page.request.get(href);
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-disposition']).toMatch(/^attachment; filename="tag-notes\.html"/);
    expect(answer.headers()['content-type']).toBe('application/octet-stream');
    expect(answer.headers()['x-content-type-options']).toBe('nosniff');
    expect(await answer.text()).toBe('<script>alert(1)</script>');
    expect((await request.get(href)).status()).toBe(403);
    const [download] = await Promise.all([page.waitForEvent('download'), file.click()]);
    expect(download.suggestedFilename()).toBe('tag-notes.html');
    await expect(page).toHaveURL(/mail=\d+$/);

    // Its headers, on request.
    const messageIdLine = opened.getByText(/^Message-ID: </m);
    await expect(messageIdLine).toBeHidden();
    await opened.getByText(INBOUND_TEXT.showHeaders, { exact: true }).click();
    await expect(messageIdLine).toBeVisible();
    await expect(opened.getByText(/^Subject: Tag photo/m)).toBeVisible();

    if (javaScriptEnabled) {
      for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
        await page.setViewportSize(viewport);
        await expectNoAxeViolations(page);
        await expectFitsScreen(page, `a held mail opened at ${viewport.width} px`);
      }
      await page.setViewportSize(VIEWPORTS.desktop);
    }

    // Then decided from where it was read: posted with JavaScript, discarded without.
    const decision = javaScriptEnabled ? 'Post' : 'Discard';
    await opened.getByRole('button', { name: new RegExp(`^${decision} the mail`) }).click();
    await expect(page.getByText(javaScriptEnabled ? INBOUND_TEXT.posted : INBOUND_TEXT.discarded)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`state=held&done=${decision.toLowerCase()}`));
    await expect(page.getByRole('region', { name: /^Held mail:/ })).toHaveCount(0);
    await page.goto(`/admin/support/${ticketId}`);
    await expect(page.getByRole('heading', { level: 1, name: /^Ticket #/ })).toBeVisible();
    await expect(page.getByText(/held mail/)).toHaveCount(0);
    await admin.close();
  });
}
