import { randomBytes } from 'node:crypto';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { ADMIN_TEXT } from '../../src/contracts/admin.ts';
import { LIVE_LABELS } from '../../src/web/features/support/live-indicator.tsx';
import { COMPANY_REVIEW_MESSAGES } from '../../src/contracts/partner-review.ts';
import { waitForMails } from '../helpers/mail.ts';
import { apply, newCompany, realPng } from './companies.ts';
import {
  adminApi,
  hydrated,
  HYDRATED_HEADER,
  newPassword,
  openTicketByCallable,
  signInAt,
  verifiedAccount,
} from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';
import { expectFitsScreen, expectNoAxeViolations } from './support.ts';

/**
 * The console at the widths staff use it (a small laptop, a laptop, a desktop, a phone): every
 * page fits, no table scrolls sideways, every row's actions are on screen, tables fold into cards
 * on a phone, the header is one row from 1280 px and no label breaks over two lines.
 */

const ADMIN = teamAdmin('layout');
const WIDTHS = [
  { width: 1024, height: 800 },
  { width: 1280, height: 900 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
] as const;
const dataDir = process.env.E2E_DATA_DIR!;

/** Elements that scroll sideways (a table in a scrolling frame, a code block): none may. */
const sidewaysScrollers = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main *')]
      .filter((el) => {
        const overflow = getComputedStyle(el).overflowX;
        return (overflow === 'auto' || overflow === 'scroll') && el.scrollWidth > el.clientWidth + 1;
      })
      .map((el) => {
        // Name what sticks out, to say why.
        const edge = el.getBoundingClientRect().left + el.clientWidth;
        const out = [...el.querySelectorAll<HTMLElement>('*')].find(
          (child) => child.getBoundingClientRect().right > edge + 1,
        );
        const culprit = out
          ? ` by ${out.tagName.toLowerCase()}.${out.className} “${out.textContent?.slice(0, 40)}”`
          : '';
        return `${el.tagName.toLowerCase()}.${el.className} (${el.scrollWidth} in ${el.clientWidth})${culprit}`;
      }),
  );

/** Buttons and links of table rows that are not wholly on the screen. */
const offScreenActions = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('table a, table button, table select')]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && (box.left < 0 || box.right > document.documentElement.clientWidth + 0.5);
      })
      .map((el) => el.textContent?.trim() || el.tagName),
  );

/**
 * Labels (links and buttons), message times and one-word table cells ('Unassigned', not an address,
 * which may break at its @) whose visible words wrap onto a second line.
 */
const brokenLabels = (page: Page, selector: string) =>
  page.evaluate((selector) => {
    const linesOf = (el: HTMLElement) => {
      const tops: number[] = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim() || node.parentElement?.closest('.visually-hidden')) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) if (rect.width > 1) tops.push(rect.top);
      }
      // Pieces of one line share their top (within a few pixels); a wrapped label has two tops.
      return tops.filter((top, i) => tops.every((other, j) => j >= i || Math.abs(other - top) > 4)).length;
    };
    return (
      [...document.querySelectorAll<HTMLElement>(selector)]
        // A table's headings are hidden (1 px) where its rows are cards. A cell's words are read as
        // shown (innerText): a list of pairs in a cell (an audit entry's Before and Now) is several
        // lines by design, where its textContent would run them together as one word.
        .filter((el) => !el.matches('td') || /^[^\s@]+$/.test(el.innerText.trim()))
        .filter((el) => el.offsetParent !== null && (el.closest('thead')?.clientHeight ?? 9) > 2 && linesOf(el) > 1)
        .map((el) => el.textContent!.trim())
    );
  }, selector);

/** Whether the page's tables show as tables (a header row) or as cards (rows as grids, headers hidden). */
const tableLook = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('table')].map((table) => {
      const head = table.querySelector('thead');
      return head && head.getBoundingClientRect().height > 2 ? 'table' : 'cards';
    }),
  );

/** What the console's pages show in these tests, made afresh for each test (so each runs alone). */
interface Console {
  companyId: string;
  longAddress: string;
  ticketId: string;
}

/**
 * A partner application, a user with a long address, an entry in the audit log, and a ticket nobody
 * is assigned; the page signed in as this spec's admin (signIn), on the console.
 */
async function consoleWithData(page: Page, request: APIRequestContext, baseURL: string): Promise<Console> {
  const companyId = await apply(request, newCompany(), realPng());
  // A long address with nowhere to break but its @ and dots: the lists still fit.
  const longAddress = `mailbox${randomBytes(12).toString('hex')}@subdomain.example-company.co.nz`;
  expect(
    (await request.post('/api/auth/signup', { data: { email: longAddress, password: newPassword() } })).status(),
  ).toBe(202);
  await waitForMails(dataDir, longAddress);
  const api = await adminApi(baseURL);
  // Something in the audit log and the users list, however this test is run.
  const probe = await api.post('/api/admin/faqs', {
    data: { type: 'traveller', title: 'Layout probe', content: 'Temporary' },
  });
  expect((await api.delete(`/api/admin/faqs/${(await probe.json()).faq.id}`)).status()).toBe(200);
  await api.dispose();

  await signInAt(page, '/admin', ADMIN);
  await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
  const created = await page.request.post('/api/functions/createSupportTicket', {
    data: { data: { reason: 'General', message: 'Checking the console layout.' } },
  });
  const { ticketId } = (await created.json()).result as { ticketId: string };
  await page.request.post(`/api/admin/support/${ticketId}/assign`, { data: { assignee: null } });
  return { companyId, longAddress, ticketId };
}

/** Every console page at one width: it fits, nothing scrolls sideways, actions on screen, labels whole. */
async function expectConsoleFits(page: Page, viewport: (typeof WIDTHS)[number], world: Console) {
  const { companyId, longAddress, ticketId } = world;
  const pages: Array<[string, () => Promise<void>]> = [
    ['/admin', () => expect(page.getByRole('heading', { level: 1, name: ADMIN_TEXT.title })).toBeVisible()],
    ['/admin/support', () => expect(page.getByRole('row').nth(1)).toBeVisible()],
    [
      `/admin/support/${ticketId}`,
      // In the thread (the merge picker shows the customer's other tickets' first lines too).
      () => expect(page.getByRole('log', { name: 'Messages' }).getByText('Checking the console layout.')).toBeVisible(),
    ],
    [
      '/admin/saved-replies',
      () => expect(page.getByRole('heading', { level: 1, name: ADMIN_TEXT.nav.savedReplies })).toBeVisible(),
    ],
    [
      '/admin/business-hours',
      () => expect(page.getByRole('heading', { level: 1, name: ADMIN_TEXT.nav.businessHours })).toBeVisible(),
    ],
    ['/admin/partners', () => expect(page.getByRole('row').nth(1)).toBeVisible()],
    [`/admin/partners/${companyId}`, () => expect(page.getByRole('region', { name: 'History' })).toBeVisible()],
    ['/admin/faqs', () => expect(page.getByRole('list', { name: /General FAQ entries/ })).toBeVisible()],
    ['/admin/legal', () => expect(page.getByRole('form', { name: 'Our Privacy Policy' })).toBeVisible()],
    ['/admin/users', () => expect(page.getByRole('row').filter({ hasText: longAddress })).toBeVisible()],
    ['/admin/audit', () => expect(page.getByRole('row').nth(1)).toBeVisible()],
    ['/admin/mail', () => expect(page.getByRole('row').nth(1)).toBeVisible()],
    ['/admin/mail/incoming', () => expect(page.getByRole('heading', { level: 1 })).toBeVisible()],
    ['/admin/security', () => expect(page.getByRole('button', { name: 'Get new recovery codes' })).toBeVisible()],
  ];
  await page.setViewportSize(viewport);
  const phone = viewport.width < 1024;
  for (const [path, ready] of pages) {
    const where = `${path} at ${viewport.width} px`;
    await page.goto(path);
    await ready();
    if (process.env.CONSOLE_SCREENSHOTS) {
      const name = `${path.replace(/[^a-z]+/g, '-')}-${viewport.width}.png`;
      await page.screenshot({ path: `${process.env.CONSOLE_SCREENSHOTS}/${name}`, fullPage: true });
    }
    await expectFitsScreen(page, where);
    expect.soft(await sidewaysScrollers(page), `${where}: nothing scrolls sideways`).toEqual([]);
    expect.soft(await offScreenActions(page), `${where}: every action on screen`).toEqual([]);
    expect
      .soft(
        await brokenLabels(page, 'header a, header button, .admin-nav__link, .button, .bubble__meta time, main td'),
        `${where}: labels`,
      )
      .toEqual([]);
    const looks = await tableLook(page);
    expect
      .soft(looks, `${where}: tables as ${phone ? 'cards' : 'tables'}`)
      .toEqual(looks.map(() => (phone ? 'cards' : 'table')));
    if (viewport.width >= 1280) {
      // The site header is one row: its height is that of its tallest item, not two rows.
      const header = await page.locator('header.site-header').boundingBox();
      expect.soft(header!.height, `${where}: the header is one row`).toBeLessThan(90);
    }
    if (viewport.width === 1280 || phone) await expectNoAxeViolations(page);
  }
}

// One test per width (the four were one 300-second test): Playwright's workers share them.
for (const viewport of WIDTHS) {
  test(`every console page fits at ${viewport.width} px: no sideways scrolling, actions on screen`, async ({
    page,
    request,
    baseURL,
  }) => {
    // Fourteen pages, each checked five ways (and by axe at 1280 and 390 px): minutes on a loaded
    // 2-core machine.
    test.setTimeout(180_000);
    await expectConsoleFits(page, viewport, await consoleWithData(page, request, baseURL!));
  });
}

/** An admin's console has a link for every section the navigation names. */
const ADMIN_SECTIONS_COUNT = Object.keys(ADMIN_TEXT.nav).length;

test('on a phone the console’s navigation is one control, with or without JavaScript; wider, a row of links', async ({
  browser,
  baseURL,
}) => {
  for (const javaScriptEnabled of [false, true]) {
    const context = await browser.newContext({ baseURL, javaScriptEnabled, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signInAt(page, '/admin/saved-replies', ADMIN);
    const nav = page.getByRole('navigation', { name: 'Admin' });
    const menu = nav.getByText(`${ADMIN_TEXT.navMenu}: ${ADMIN_TEXT.nav.savedReplies}`);
    await expect(menu).toBeVisible();
    // Closed, it is one line: no link of the console's shows until it is opened.
    await expect(nav.getByRole('link')).toHaveCount(0);
    expect((await nav.boundingBox())!.height).toBeLessThan(60);
    await menu.click();
    await expect(nav.getByRole('link')).toHaveCount(ADMIN_SECTIONS_COUNT);
    await nav.getByRole('link', { name: ADMIN_TEXT.nav.audit }).click();
    await expect(page).toHaveURL(/\/admin\/audit$/);
    // The next page's menu is closed again and names where you are.
    await expect(nav.getByText(`${ADMIN_TEXT.navMenu}: ${ADMIN_TEXT.nav.audit}`)).toBeVisible();
    await expect(nav.getByRole('link')).toHaveCount(0);
    // Wider, the links themselves, and no menu.
    await page.setViewportSize({ width: 1024, height: 800 });
    await expect(nav.getByRole('link')).toHaveCount(ADMIN_SECTIONS_COUNT);
    await expect(nav.getByText(ADMIN_TEXT.navMenu)).toBeHidden();
    await context.close();
  }
});

test('the refusal a signed-in customer gets, and the staff sign-in, pass axe', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const customer = await verifiedAccount(request);
  const login = await browser.newContext({ baseURL });
  const customerPage = await login.newPage();
  await signInAt(customerPage, '/admin', customer);
  await expect(customerPage.getByRole('heading', { name: ADMIN_TEXT.notAllowedTitle })).toBeVisible();
  await expectNoAxeViolations(customerPage);
  await login.close();
  await page.goto('/admin');
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('the reject form with its refusal, and an opened ticket’s header and tools in view as it scrolls', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const { companyId, ticketId } = await consoleWithData(page, request, baseURL!);
  // The reject form, with its refusal, is part of the partner page too.
  await page.setViewportSize(WIDTHS[1]);
  await page.goto(`/admin/partners/${companyId}`);
  await page.getByRole('button', { name: ADMIN_TEXT.reject }).click();
  await page.getByRole('button', { name: 'Reject application' }).click();
  await expect(page.getByText(COMPANY_REVIEW_MESSAGES.reasonRequired)).toBeVisible();
  await expectNoAxeViolations(page);
  // An opened ticket keeps its number, reason, customer and tools in view while the page scrolls
  // (a short window, so it has to).
  await page.setViewportSize({ width: 1280, height: 560 });
  await page.goto(`/admin/support/${ticketId}`);
  // Escape closes the menu with the app's script: the app has the page first.
  await hydrated(page);
  // To the ticket's end (its reply and note boxes; the side conversations come after the ticket).
  await page.evaluate(() => {
    const ticket = document.querySelector('section.ticket')!.getBoundingClientRect();
    window.scrollTo(0, window.scrollY + ticket.bottom - window.innerHeight);
  });
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
  const header = page.locator('header.admin-ticket__header');
  await expect(header.getByRole('heading', { level: 1, name: /Ticket #\d+/ })).toBeInViewport();
  // The reason under the heading (the pickers in the tools' menu name reasons too).
  await expect(header.locator('.ticket__reason').getByText('General Enquiry')).toBeInViewport();
  await expect(header.getByRole('button', { name: ADMIN_TEXT.closeTicket })).toBeInViewport();
  // The rest of the tools are in a menu the keyboard opens and Escape closes.
  const more = header.locator('summary', { hasText: 'More actions' });
  await more.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('keep-for-record')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('keep-for-record')).toBeHidden();
  await expect(more).toBeFocused();
});

test('the ticket’s tools stay where the server put them while the page hydrates, whatever the live status says', async ({
  page,
  browser,
  baseURL,
}) => {
  await signInAt(page, '/admin', ADMIN);
  await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
  const { ticketId } = await openTicketByCallable(page, 'Incident', 'The buttons should not move under my pointer.');
  const more = page.locator('summary', { hasText: 'More actions' });

  // The server's page, its scripts held back: where a person would click before they run.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\.js(\?.*)?$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/admin/support/${ticketId}`, { waitUntil: 'commit' });
  await expect(more).toBeVisible();
  // As a person sees it: styled (the browser paints nothing before the stylesheets are in).
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].every((link) => link.sheet),
  );
  await expect(page.locator(HYDRATED_HEADER)).toHaveCount(0);
  // Where it is on the page, not on the screen: once the app runs, the page scrolls to the newest
  // message (a ticket longer than the screen), which moves nothing on the page.
  const onPage = async () =>
    more.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return { x: box.x + scrollX, y: box.y + scrollY, width: box.width, height: box.height };
    });
  const before = await onPage();
  // A person opens the menu before the scripts run (the browser's own <details>): it stays open
  // when the app takes the page over.
  await more.click();
  await expect(page.getByTestId('keep-for-record')).toBeVisible();
  release();
  await hydrated(page);
  await expect(page.getByText(LIVE_LABELS.live, { exact: true })).toBeVisible();
  await expect(page.getByTestId('keep-for-record')).toBeVisible();
  expect(await onPage()).toEqual(before);

  // Each thing the status can say fits its box: the menu's button does not move when it changes.
  for (const label of Object.values(LIVE_LABELS)) {
    await page.locator('.live-indicator').evaluate((status, text) => {
      status.lastChild!.textContent = text;
    }, label);
    expect(await onPage(), label).toEqual(before);
  }
  await page.unrouteAll({ behavior: 'ignoreErrors' });

  // Without JavaScript there is no status and no empty space held for one.
  const noScript = await browser.newContext({
    baseURL,
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const plain = await noScript.newPage();
  await plain.goto(`/admin/support/${ticketId}`);
  await expect(plain.locator('summary', { hasText: 'More actions' })).toBeVisible();
  await expect(plain.locator('.live-indicator')).toBeHidden();
  const toolbar = plain.getByRole('group', { name: 'Ticket actions' });
  const [bar, first] = await Promise.all([
    toolbar.boundingBox(),
    toolbar.getByRole('button', { name: ADMIN_TEXT.closeTicket }).boundingBox(),
  ]);
  expect(first!.x).toBe(bar!.x);
  await noScript.close();
});
