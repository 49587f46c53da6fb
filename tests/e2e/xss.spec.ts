import { randomBytes } from 'node:crypto';
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { COMPANY_MESSAGES } from '../../src/contracts/companies.ts';
import { SUPPORT_TEXT } from '../../src/contracts/support.ts';
import { recordFigure } from '../helpers/figures.ts';
import { adminApi, signInAt, verifiedAccount } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';
import { cspViolations, recordCspViolations } from './support.ts';

/**
 * IN-03 in Chromium: no stored XSS. Hostile text goes in through every way a person can store text
 * that someone else's browser shows (a ticket message and its replies, an admin answer, a partner
 * application, a FAQ entry), and each page that shows it is opened in the real browser: the payload
 * must read as text, nothing may run (window.__xss stays unset, no dialog opens, no element gains
 * an event handler) and the page reports no CSP violation. Advisories (docs/security-checks.md#advisory-regressions): Zammad CVE-2018-1000154,
 * FreeScout CVE-2026-32754, UVdesk CVE-2025-71419, osTicket CVE-2020-24917.
 */
test.describe.configure({ mode: 'serial' });

const PAYLOADS = [
  '<img src=x onerror="window.__xss=1">',
  '<script>window.__xss=1</script>',
  '<svg onload="window.__xss=1">',
  'javascript:window.__xss=1',
  // Mutation XSS: harmless as parsed once, active if re-parsed after serialisation.
  '<noscript><p title="</noscript><img src=x onerror=window.__xss=1>">',
  '<img src=x onerror=alert(1)>',
];

// An admin of this spec's own (its own one-time codes: second-factor.ts).
const ADMIN = teamAdmin('xss');
const bubbles = (page: Page) => page.getByRole('log', { name: 'Messages' }).getByRole('listitem');

/** What the run checked: pages (by route) and payload executions seen. */
const checkedPages = new Set<string>();
let pageChecks = 0;
let executed = 0;

/** A browser context of its own, watched for dialogs and CSP violations from the first script on. */
async function watchedBrowser(
  browser: Browser,
  baseURL: string,
): Promise<{ context: BrowserContext; page: Page; dialogs: string[] }> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await recordCspViolations(page);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { context, page, dialogs };
}

/** Nothing ran and nothing became markup; every payload it should show reads literally. */
async function expectInert(route: string, page: Page, dialogs: string[], shown: string[] = []) {
  // Shown somewhere a reader sees it (a closed menu's list of messages, such as the console's
  // 'Split from message', holds the words too, out of sight).
  for (const text of shown)
    await expect(page.getByText(text, { exact: false }).filter({ visible: true }).first()).toBeVisible();
  const state = await readState(page);
  if (state.xss !== undefined || dialogs.length > 0) executed++;
  expect(state, route).toEqual({
    xss: undefined,
    brokenImages: 0,
    handlers: [],
    injectedScripts: 0,
    javascriptLinks: 0,
  });
  expect(dialogs, route).toEqual([]);
  expect(await cspViolations(page), route).toEqual([]);
  // A page checked live and again after a reload is one page.
  checkedPages.add(route.replace(/ \(live\)$/, ''));
  pageChecks++;
}

/** What a payload would leave behind in the page, had it become markup. */
async function readState(page: Page) {
  // An injected handler (an image's error, an SVG's load) fires once its resource has settled: wait
  // until every image on the page is complete (an injected one would load at once; the page's own
  // lazy ones may wait for a scroll), then two frames, for the events queued by then to run.
  await page.waitForFunction(() => [...document.images].every((image) => image.complete || image.loading === 'lazy'));
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
  return page.evaluate(() => ({
    xss: (window as unknown as { __xss?: unknown }).__xss,
    brokenImages: document.querySelectorAll('img[src="x"]').length,
    handlers: [...document.querySelectorAll('*')]
      .filter((el) => [...el.attributes].some((a) => /^on/i.test(a.name)))
      .map((el) => el.outerHTML.slice(0, 120)),
    injectedScripts: [...document.scripts].filter((s) => (s.textContent ?? '').trim() === 'window.__xss=1').length,
    javascriptLinks: [...document.querySelectorAll('[href], [src], [action]')].filter((el) =>
      ['href', 'src', 'action'].some((name) => /^\s*javascript:/i.test(el.getAttribute(name) ?? '')),
    ).length,
  }));
}

async function signInAsAdmin(page: Page, path: string) {
  await signInAt(page, path, ADMIN);
  await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
}

test('ticket messages and admin answers show payloads as text, live and after a reload, to the user and the admin', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const user = await watchedBrowser(browser, baseURL!);
  const staff = await watchedBrowser(browser, baseURL!);
  const account = await verifiedAccount(request);

  // The user opens a ticket through the form, its message one payload after another.
  await signInAt(user.page, '/support', account);
  await expect(user.page.getByRole('heading', { name: SUPPORT_TEXT.listTitle })).toBeVisible();
  await user.page.getByRole('link', { name: SUPPORT_TEXT.newTicket }).click();
  await user.page.getByLabel('Reason').selectOption({ label: 'General Enquiry' });
  const opening = `Opening: ${PAYLOADS.join(' ')}`;
  await user.page.getByLabel('Message').fill(opening);
  await user.page.getByRole('button', { name: 'Submit' }).click();
  await expect(user.page).toHaveURL(/\/support\/ticket\/[0-9a-f-]{36}$/);
  const ticketId = user.page.url().split('/').at(-1)!;
  await expect(bubbles(user.page)).toHaveCount(1);

  // Each payload on its own, through the reply box.
  const box = user.page.getByLabel('Your message');
  for (const [i, payload] of PAYLOADS.entries()) {
    await box.fill(payload);
    await box.press('Enter');
    await expect(bubbles(user.page)).toHaveCount(2 + i);
  }

  // The admin answers with the same payloads from the console; they reach the user live.
  await signInAsAdmin(staff.page, `/admin/support/${ticketId}`);
  await expect(bubbles(staff.page)).toHaveCount(1 + PAYLOADS.length);
  const answer = staff.page.getByLabel('Your message');
  for (const [i, payload] of PAYLOADS.entries()) {
    await answer.fill(`Admin: ${payload}`);
    await answer.press('Enter');
    await expect(bubbles(staff.page)).toHaveCount(2 + PAYLOADS.length + i);
  }
  const total = 1 + 2 * PAYLOADS.length;
  await expect(bubbles(user.page)).toHaveCount(total, { timeout: 15_000 });
  const everyText = [...PAYLOADS, ...PAYLOADS.map((p) => `Admin: ${p}`)];
  await expectInert('/support/ticket/:id (live)', user.page, user.dialogs, everyText);
  await expectInert('/admin/support/:id (live)', staff.page, staff.dialogs, everyText);

  // Rendered afresh (server HTML, then hydration).
  await user.page.reload();
  await expect(bubbles(user.page)).toHaveCount(total);
  await expectInert('/support/ticket/:id', user.page, user.dialogs, everyText);
  await staff.page.reload();
  await expect(bubbles(staff.page)).toHaveCount(total);
  await expectInert('/admin/support/:id', staff.page, staff.dialogs, everyText);
  // The ticket list shows only metadata, but it is a page the user opens next: it stays inert too.
  await user.page.goto('/support');
  await expect(user.page.getByRole('heading', { name: SUPPORT_TEXT.listTitle })).toBeVisible();
  await expectInert('/support', user.page, user.dialogs);

  await user.context.close();
  await staff.context.close();
});

test('a partner application carrying payloads reads as text in the admin list and on its page', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const tag = randomBytes(3).toString('hex');
  const digits = String(parseInt(tag, 16)).padStart(8, '0').slice(-8);
  const company = {
    companyName: `${PAYLOADS[0]} ${tag}`,
    phoneNumber: `021${digits}`,
    address: `${PAYLOADS[1]} ${PAYLOADS[2]}`,
    street: `${PAYLOADS[4]} ${PAYLOADS[3]}`,
    contactPersonName: 'Hemi Walker',
    contactPersonJobTitle: 'Director',
    contactPersonPhoneNumber: `027${digits}`,
    contactPersonEmail: `hemi.${tag}@southerncouriers.co.nz`,
  };
  // The contact name and job title take letters only, so a payload cannot even be stored there.
  const refused = await request.post('/api/companies', {
    multipart: { ...company, contactPersonName: PAYLOADS[0]!, contactPersonJobTitle: PAYLOADS[5]! },
  });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).error.fields).toMatchObject({
    contactPersonName: COMPANY_MESSAGES.contactNameAlphabetic,
    contactPersonJobTitle: COMPANY_MESSAGES.jobTitleAlphabetic,
  });
  const created = await request.post('/api/companies', {
    multipart: {
      ...company,
      commercialLicense: {
        name: `${PAYLOADS[5]}.png`,
        mimeType: 'image/png',
        buffer: Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'),
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const companyId = (await created.json()).id as string;

  const staff = await watchedBrowser(browser, baseURL!);
  await signInAsAdmin(staff.page, `/admin/partners?q=${tag}`);
  const row = staff.page.getByRole('row').filter({ hasText: tag });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(company.companyName);
  await expectInert('/admin/partners', staff.page, staff.dialogs, [company.companyName]);

  await row.getByRole('link').first().click();
  await expect(staff.page).toHaveURL(new RegExp(`/admin/partners/${companyId}$`));
  await expect(staff.page.getByRole('heading', { level: 1 })).toHaveText(company.companyName);
  await expectInert('/admin/partners/:id', staff.page, staff.dialogs, [
    company.companyName,
    company.address,
    company.street,
  ]);
  // The file's name was never kept, so it shows nowhere.
  await expect(staff.page.getByText('onerror=alert(1)')).toHaveCount(0);
  await staff.context.close();
});

test('a FAQ entry an admin wrote with payloads reads as text on /faqs and in the console', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const tag = randomBytes(3).toString('hex');
  const api = await adminApi(baseURL!);
  const title = `${PAYLOADS[2]} Parcel sizes ${tag}`;
  const content = PAYLOADS.join('\n');
  const created = await api.post('/api/admin/faqs', { data: { type: 'traveller', title, content } });
  expect(created.status()).toBe(201);
  const faqId = (await created.json()).faq.id as number;
  try {
    const visitor = await watchedBrowser(browser, baseURL!);
    await visitor.page.goto('/faqs?type=traveller');
    const entry = visitor.page.locator('.faq-row').filter({ hasText: tag });
    await expect(entry).toHaveCount(1);
    // A click before hydration does nothing: retry until the answer opens.
    await expect(async () => {
      await entry.getByRole('button').click();
      await expect(entry.getByRole('button')).toHaveAttribute('aria-expanded', 'true', { timeout: 500 });
    }).toPass();
    await expectInert('/faqs', visitor.page, visitor.dialogs, [title, ...PAYLOADS]);
    // Loaded directly, the server's HTML is what shows first.
    await visitor.page.reload();
    await expectInert('/faqs', visitor.page, visitor.dialogs, [title]);
    await visitor.context.close();

    const staff = await watchedBrowser(browser, baseURL!);
    await signInAsAdmin(staff.page, '/admin/faqs?type=traveller');
    await expectInert('/admin/faqs', staff.page, staff.dialogs, [title]);
    await staff.context.close();
  } finally {
    expect((await api.delete(`/api/admin/faqs/${faqId}`)).status()).toBe(200);
    await api.dispose();
  }
});

test('control: the same checks do see a payload that became markup (and the CSP stops it running)', async ({
  browser,
  baseURL,
}) => {
  const visitor = await watchedBrowser(browser, baseURL!);
  await visitor.page.goto('/faqs');
  // Once hydrated (a question opens on click), so React does not replace the DOM we add to.
  const question = visitor.page.locator('.faq-row').first().getByRole('button');
  await expect(async () => {
    await question.click();
    await expect(question).toHaveAttribute('aria-expanded', 'true', { timeout: 500 });
  }).toPass();
  await visitor.page.evaluate(
    (payload) => document.querySelector('main')!.insertAdjacentHTML('beforeend', payload),
    PAYLOADS[0]!,
  );
  const state = await readState(visitor.page);
  expect(state.brokenImages).toBe(1);
  expect(state.handlers).toHaveLength(1);
  // The inline handler is blocked by the policy, and reported.
  expect(state.xss).toBeUndefined();
  await expect.poll(() => cspViolations(visitor.page)).toContainEqual(expect.stringMatching(/^script-src/));
  await visitor.context.close();
});

test('records the figure', () => {
  expect(executed).toBe(0);
  expect(checkedPages.size).toBeGreaterThanOrEqual(6);
  recordFigure('xss-browser', {
    checks: ['IN-03'],
    label: 'Stored XSS in Chromium',
    values: { payloads: PAYLOADS.length, pages: checkedPages.size, pageChecks, executed },
  });
});
