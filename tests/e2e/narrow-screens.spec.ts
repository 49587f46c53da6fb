import { randomBytes } from 'node:crypto';
import { type APIRequestContext, type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { linkIn, tokenFrom, waitForMails } from '../helpers/mail.ts';
import { apply, newCompany } from './companies.ts';
import { adminApi, hydrated, newPassword, openTicketByCallable, signIn, verifiedAccount } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';
import { expectFitsScreen, VIEWPORTS } from './support.ts';

/**
 * A phone (390 × 844), with and without JavaScript: the sticky header leaves the page the screen,
 * a ticket's composer leaves the thread room, a ticket opens at its newest message, and an email
 * address breaks only after its @ and before its dots.
 */

const ADMIN = teamAdmin('narrow');
const PHONE = VIEWPORTS.phone;
const dataDir = process.env.E2E_DATA_DIR!;

/**
 * A long address whose only break points, without help, would be its hyphens; each of its parts
 * fits a phone's narrowest column (a table's card), so none may break inside.
 */
const hyphenatedAddress = () => `kiri-${randomBytes(2).toString('hex')}-tane@long-mail-server.example-company.co.nz`;

async function phoneContext(browser: Browser, baseURL: string, javaScriptEnabled: boolean, storageState?: string) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled, viewport: PHONE, storageState });
  return { context, page: await context.newPage() };
}

/** The storage state of a context signed in as `user`, to open other contexts (JavaScript on or off) with. */
async function sessionOf(browser: Browser, baseURL: string, user: { email: string; password: string }) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/');
  await signIn(page, user.email, user.password);
  const file = `${dataDir}/narrow-session-${randomBytes(4).toString('hex')}.json`;
  await context.storageState({ path: file });
  await context.close();
  return file;
}

/** A page open and used as the server sent it (or once the app has it, with JavaScript). */
async function open(page: Page, path: string, javaScriptEnabled: boolean) {
  await page.goto(path);
  if (javaScriptEnabled) await hydrated(page);
}

async function ticketWithMessages(request: APIRequestContext, count: number) {
  const user = await verifiedAccount(request);
  expect((await request.post('/api/auth/login', { data: user })).status()).toBe(200);
  const created = await request.post('/api/functions/createSupportTicket', {
    data: { data: { reason: 'General', message: 'Message 1 of the thread.' } },
  });
  const { ticketId } = (await created.json()).result as { ticketId: string };
  for (let i = 2; i <= count; i++) {
    const res = await request.post(`/api/support/tickets/${ticketId}/messages`, {
      data: { messageBody: `Message ${i} of the thread.` },
    });
    expect(res.status()).toBe(200);
  }
  return { user, ticketId };
}

for (const javaScriptEnabled of [false, true]) {
  const js = `JavaScript ${javaScriptEnabled ? 'on' : 'off'}`;

  test(`the sticky header takes at most a quarter of a phone's screen on every page, its menu still opens (${js})`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    // An admin has the longest menu (Admin, Account and Sign Out too), on customer pages and the console.
    const session = await sessionOf(browser, baseURL!, ADMIN);
    const { context, page } = await phoneContext(browser, baseURL!, javaScriptEnabled, session);
    const { ticketId } = await openTicketByCallable(page, 'General', 'A ticket to see the header over.');
    const paths = [
      '/',
      '/about',
      '/faqs',
      '/legal',
      '/register',
      '/support',
      `/support/ticket/${ticketId}`,
      '/support/create-ticket',
      '/account',
      '/admin',
      '/admin/support',
      `/admin/support/${ticketId}`,
      '/admin/partners',
      '/admin/audit',
      '/no-such-page',
    ];
    for (const path of paths) {
      await open(
        page,
        path,
        javaScriptEnabled && !['/', '/about', '/faqs', '/legal', '/register', '/no-such-page'].includes(path),
      );
      const header = await page.locator('header.site-header').boundingBox();
      expect.soft(header!.height, `${path}: the header's height`).toBeLessThanOrEqual(PHONE.height / 4);
    }
    // The menu is one tap away, and takes you where you ask.
    await open(page, '/about', false);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Support' })).toBeHidden();
    await page.locator('header.site-header').locator('button, summary').filter({ visible: true }).click();
    await nav.getByRole('link', { name: 'Support' }).click();
    await expect(page).toHaveURL(/\/support$/);
    await expect(nav.getByRole('link', { name: 'Support' })).toBeHidden();
    await context.close();
  });

  test(`a ticket opens at its newest message, for the customer and in the console (${js})`, async ({
    browser,
    baseURL,
    request,
  }) => {
    test.setTimeout(90_000);
    const { user, ticketId } = await ticketWithMessages(request, 30);
    for (const [who, path] of [
      [user, `/support/ticket/${ticketId}`],
      [ADMIN, `/admin/support/${ticketId}`],
    ] as const) {
      const { context, page } = await phoneContext(
        browser,
        baseURL!,
        javaScriptEnabled,
        await sessionOf(browser, baseURL!, who),
      );
      await open(page, path, javaScriptEnabled);
      if (process.env.NARROW_SCREENSHOTS)
        await page.screenshot({
          path: `${process.env.NARROW_SCREENSHOTS}/ticket-${path.split('/')[1]}-${javaScriptEnabled}.png`,
        });
      const newest = page.getByRole('log', { name: 'Messages' }).getByRole('listitem').last();
      await expect(newest).toContainText('Message 30 of the thread.');
      // Wholly on the screen, below the sticky header and above the pinned reply box.
      const header = (await page.locator('header.site-header').boundingBox())!;
      const reply = (await page.getByLabel('Your message', { exact: true }).boundingBox())!;
      await expect
        .poll(async () => {
          const box = (await newest.boundingBox())!;
          return box.y >= header.y + header.height - 1 && box.y + box.height <= reply.y + 1;
        }, `${path}: the newest message in view`)
        .toBe(true);
      await context.close();
    }
  });

  test(`the console's composer leaves at least half a phone's screen to the thread (${js})`, async ({
    browser,
    baseURL,
    request,
  }) => {
    const { ticketId } = await ticketWithMessages(request, 12);
    // With a saved reply the composer carries its picker too, as on any desk past its first day.
    const api = await adminApi(baseURL!);
    const saved = await api.post('/api/admin/support/saved-replies', {
      data: { title: `Where is my parcel ${randomBytes(3).toString('hex')}`, body: 'It is on its way.' },
    });
    expect(saved.status()).toBe(200);
    const { context, page } = await phoneContext(
      browser,
      baseURL!,
      javaScriptEnabled,
      await sessionOf(browser, baseURL!, ADMIN),
    );
    await open(page, `/admin/support/${ticketId}`, javaScriptEnabled);
    if (process.env.NARROW_SCREENSHOTS)
      await page.screenshot({ path: `${process.env.NARROW_SCREENSHOTS}/admin-ticket-${javaScriptEnabled}.png` });
    // What the agent sees as the ticket opens: the screen's rows below the sticky header and above
    // the reply box's top (its tools and the note box below it) that show the thread.
    const visibleThreadRows = async () => {
      const header = (await page.locator('header.site-header').boundingBox())!;
      const composer = (await page.locator('form.reply-box--files').boundingBox())!;
      const thread = (await page.getByRole('log', { name: 'Messages' }).boundingBox())!;
      const top = Math.max(header.y + header.height, thread.y, 0);
      const bottom = Math.min(composer.y, thread.y + thread.height, PHONE.height);
      return bottom - top;
    };
    await expect.poll(visibleThreadRows, 'the thread rows on screen').toBeGreaterThanOrEqual(PHONE.height / 2);
    await context.close();
  });
}

/**
 * Where an address is shown as text it breaks only after its @ and before a dot: the client rects
 * of a range over each character say which line the character is on.
 */
async function expectBreaksOnlyAtDotsAndAt(page: Page, address: string, where: string) {
  const element = page.locator('.email', { hasText: address }).first();
  await expect(element, `${where}: the address, shown with the Email component`).toBeVisible();
  const lines = await element.evaluate((el) => {
    const chars: Array<{ char: string; top: number }> = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.textContent!.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = [...range.getClientRects()].find((r) => r.width > 0);
        if (rect) chars.push({ char: node.textContent![i]!, top: rect.top });
      }
    }
    return chars;
  });
  expect(lines.map((c) => c.char).join(''), where).toBe(address);
  const breaks: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (Math.abs(lines[i]!.top - lines[i - 1]!.top) < 4) continue;
    breaks.push(`${address.slice(0, i)}|${address.slice(i)}`);
    expect
      .soft(lines[i - 1]!.char === '@' || lines[i]!.char === '.', `${where}: a break at ${breaks.at(-1)}`)
      .toBe(true);
  }
  // The address is wider than a phone's line: it does break somewhere.
  expect(breaks.length, `${where}: the address takes more than one line`).toBeGreaterThan(0);
  await expectFitsScreen(page, where);
}

/** A verified account with this address (signed up, confirmed from its mail). */
async function accountWithAddress(request: APIRequestContext, email: string) {
  const password = newPassword();
  expect((await request.post('/api/auth/signup', { data: { email, password } })).status()).toBe(202);
  const [mail] = await waitForMails(dataDir, email);
  const token = tokenFrom(linkIn(mail!, 'http://localhost'));
  expect((await request.post('/api/auth/verify-email', { data: { token } })).status()).toBe(200);
  return { email, password };
}

test('an email address breaks only after its @ and before its dots, wherever it is shown', async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(120_000);
  let context: BrowserContext;
  let page: Page;

  // Sign-up: 'We sent it to …' (without JavaScript: the form posts itself).
  const signedUp = hyphenatedAddress();
  ({ context, page } = await phoneContext(browser, baseURL!, false));
  await page.goto('/signup');
  await page.getByLabel('Email').fill(signedUp);
  const password = newPassword();
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: /Sign up|Create account/ }).click();
  await expect(page.getByText('We sent it to')).toBeVisible();
  await expectBreaksOnlyAtDotsAndAt(page, signedUp, 'sign-up');
  await context.close();

  // 'Signed in as …' on the account's password and delete pages.
  const own = await accountWithAddress(request, hyphenatedAddress());
  ({ context, page } = await phoneContext(browser, baseURL!, false, await sessionOf(browser, baseURL!, own)));
  for (const path of ['/account/password', '/account/delete']) {
    await page.goto(path);
    await expect(page.getByText('Signed in as')).toBeVisible();
    await expectBreaksOnlyAtDotsAndAt(page, own.email, path);
  }
  await context.close();

  // The partners list's contact email and the audit log (disabling an account names it).
  const contact = hyphenatedAddress();
  await apply(request, { ...newCompany(), contactPersonEmail: contact });
  const api = await adminApi(baseURL!);
  const found = await api.get(`/api/admin/users?q=${encodeURIComponent(own.email)}`);
  const [user] = ((await found.json()) as { users: Array<{ id: string }> }).users;
  expect((await api.post(`/api/admin/users/${user!.id}/disable`)).status()).toBe(200);
  await api.dispose();
  const session = await sessionOf(browser, baseURL!, ADMIN);
  ({ context, page } = await phoneContext(browser, baseURL!, true, session));
  await open(page, '/admin/partners', true);
  await expectBreaksOnlyAtDotsAndAt(page, contact, 'partners');
  await open(page, '/admin/audit', true);
  await expectBreaksOnlyAtDotsAndAt(page, own.email, 'audit log');
  await open(page, `/admin/users?q=${encodeURIComponent(own.email)}`, true);
  await expectBreaksOnlyAtDotsAndAt(page, own.email, 'users');
  await context.close();
});
