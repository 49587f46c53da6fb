import { randomBytes } from 'node:crypto';
import { enrolOnConsole, teamAdmin } from './second-factor.ts';
import { apply, newCompany, realPng } from './companies.ts';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { ADMIN_TEXT } from '../../src/contracts/admin.ts';
import { COMPANY_REVIEW_MESSAGES, LICENCE_TEXT } from '../../src/contracts/partner-review.ts';
import { FAQ_MESSAGES, LEGAL_MESSAGES } from '../../src/contracts/content-admin.ts';
import { SUPPORT_TEXT } from '../../src/contracts/support.ts';
import { readOutbox, waitForMail, waitForMails } from '../helpers/mail.ts';
import { adminApi, newEmail, newPassword, signInAt, signInOnLoginScreen, verifiedAccount } from './fixtures.ts';
import { cspViolations, recordCspViolations, watchPage } from './support.ts';

/**
 * The admin console as the support and operations team uses it, in Chromium against the real
 * server: sign-in and refusal, the live support inbox, partner review with its mails, FAQs, legal
 * documents, users and the audit log.
 */

const dataDir = process.env.E2E_DATA_DIR!;
// An admin of this spec's own (its own one-time codes: second-factor.ts).
const ADMIN = teamAdmin('console');
const adminNav = (page: Page) => page.getByRole('navigation', { name: 'Admin' });
const bubbles = (page: Page) => page.getByRole('log', { name: 'Messages' }).getByRole('listitem');

async function signInAsAdmin(page: Page, path = '/admin') {
  await signInAt(page, path, ADMIN);
  await expect(adminNav(page)).toBeVisible();
}

/** A second browser (its own cookies) signed in as someone else. */
async function otherBrowser(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  return { context, page: await context.newPage() };
}

test.describe('who may use the console', () => {
  test('visitors get the login screen, users a plain refusal with no admin data, admins the console', async ({
    page,
    browser,
    request,
    baseURL,
  }) => {
    const adminCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/admin')) adminCalls.push(r.url());
    });
    await page.goto('/admin/support');
    await expect(page.getByRole('heading', { level: 1, name: 'Staff sign-in' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Forgot your password?' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Create an account' })).toHaveCount(0);
    await expect(adminNav(page)).toHaveCount(0);

    // Typed into the console's own login screen: a customer who signs in there is refused the console.
    const user = await verifiedAccount(request);
    await signInOnLoginScreen(page, user.email, user.password);
    await expect(page.getByRole('heading', { level: 1, name: ADMIN_TEXT.notAllowedTitle })).toBeVisible();
    await expect(page.getByText(ADMIN_TEXT.notAllowed)).toBeVisible();
    await expect(adminNav(page)).toHaveCount(0);
    await expect(page.getByRole('heading', { name: ADMIN_TEXT.nav.support })).toHaveCount(0);
    expect(adminCalls).toEqual([]);
    // Its API says the same.
    expect((await page.request.get('/api/admin/support/tickets?open=true')).status()).toBe(403);

    const admin = await otherBrowser(browser, baseURL!);
    await signInAsAdmin(admin.page);
    await expect(admin.page.getByRole('heading', { level: 1, name: ADMIN_TEXT.title })).toBeVisible();
    for (const label of Object.values(ADMIN_TEXT.nav)) {
      await adminNav(admin.page).getByRole('link', { name: label }).click();
      await expect(admin.page.getByRole('heading', { level: 1, name: label })).toBeVisible();
      await expect(adminNav(admin.page).getByRole('link', { name: label })).toHaveAttribute('aria-current', 'page');
    }
    await admin.context.close();
  });
});

test.describe('support inbox', () => {
  test('a new ticket and the user’s replies arrive live; answers, closing and reopening reach the user live', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    await recordCspViolations(page);
    const watched = watchPage(page, baseURL!);
    await signInAsAdmin(page, '/admin/support');
    await expect(page.getByRole('heading', { level: 1, name: ADMIN_TEXT.nav.support })).toBeVisible();
    await expect(page.getByText('Live', { exact: true })).toBeVisible();

    // The user opens a ticket in their own browser; it appears in the inbox without a reload.
    const customer = await otherBrowser(browser, baseURL!);
    const account = await verifiedAccount(customer.context.request);
    await signInAt(customer.page, '/support', account);
    await expect(customer.page.getByRole('heading', { name: SUPPORT_TEXT.listTitle })).toBeVisible();
    const created = await customer.page.request.post('/api/functions/createSupportTicket', {
      data: { data: { reason: 'Incident', message: 'My suitcase handle broke in transit.' } },
    });
    expect(created.status()).toBe(200);
    const { ticketId, ticketNo } = (await created.json()).result as { ticketId: string; ticketNo: number };

    const row = page.getByRole('row').filter({ hasText: account.email });
    await expect(row).toBeVisible({ timeout: 15_000 });
    await expect(row).toContainText(`#${ticketNo}`);
    await expect(row).toContainText('Incident Report');
    await expect(row).toContainText(SUPPORT_TEXT.waitingOnUs);

    // Search by email, then by ticket number.
    const search = page.getByRole('searchbox', { name: 'Search tickets by number, user email or message text' });
    await search.fill(account.email.toUpperCase());
    await search.press('Enter');
    await expect(page).toHaveURL(/q=/);
    await expect(page.getByRole('row')).toHaveCount(2);
    await search.fill(String(ticketNo));
    await search.press('Enter');
    // The ticket with that number first (the digits may also appear in an address or a message).
    await expect(page.getByRole('status')).toContainText(`matching “${ticketNo}”`);
    await expect(page.getByRole('row').nth(1)).toContainText(`#${ticketNo}`);
    await search.fill('nobody-at-all@example.nz');
    await search.press('Enter');
    await expect(page.getByRole('status')).toContainText('matching “nobody-at-all@example.nz”');
    await expect(page.getByText(ADMIN_TEXT.noMatchingTickets)).toBeVisible();
    await search.fill(String(ticketNo));
    await search.press('Enter');
    await page.getByRole('link', { name: `#${ticketNo}` }).click();

    // The thread: the user's message is labelled with their email.
    await expect(page.getByRole('heading', { level: 1, name: `Ticket #${ticketNo}` })).toBeVisible();
    await expect(bubbles(page)).toHaveCount(1);
    await expect(bubbles(page).first()).toContainText(account.email);
    await expect(bubbles(page).first()).toContainText('My suitcase handle broke in transit.');

    // The user writes from their ticket page; the admin sees it live.
    await customer.page.goto(`/support/ticket/${ticketId}`);
    await expect(bubbles(customer.page)).toHaveCount(1);
    await customer.page.getByLabel('Your message').fill('I have photos if you need them.');
    await customer.page.getByLabel('Your message').press('Enter');
    await expect(bubbles(page)).toHaveCount(2, { timeout: 15_000 });
    await expect(bubbles(page).last()).toContainText('I have photos if you need them.');

    // The admin answers with Enter; the user sees it live, labelled Admin.
    const box = page.getByLabel('Your message');
    await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
    await box.fill('Yes please, send them here.');
    await box.press('Enter');
    await expect(box).toHaveValue('');
    await expect(bubbles(page)).toHaveCount(3);
    await expect(bubbles(page).last()).toContainText('Admin');
    await expect(bubbles(customer.page)).toHaveCount(3, { timeout: 15_000 });
    await expect(bubbles(customer.page).last()).toContainText('Admin');
    await expect(bubbles(customer.page).last()).toContainText('Yes please, send them here.');

    // Closing takes the user's reply box away live; reopening brings it back.
    await page.getByRole('button', { name: ADMIN_TEXT.closeTicket }).click();
    await expect(page.getByRole('button', { name: ADMIN_TEXT.reopenTicket })).toBeVisible();
    await expect(box).toBeHidden();
    await expect(customer.page.getByLabel('Your message')).toBeHidden({ timeout: 15_000 });
    await expect(customer.page.getByText(SUPPORT_TEXT.replyRejected)).toBeVisible();
    await page.getByRole('button', { name: ADMIN_TEXT.reopenTicket }).click();
    await expect(page.getByRole('button', { name: ADMIN_TEXT.closeTicket })).toBeVisible();
    await expect(customer.page.getByLabel('Your message')).toBeVisible({ timeout: 15_000 });

    // Back in the inbox the ticket is answered; closed tickets have their own filter.
    await page.getByRole('link', { name: ADMIN_TEXT.nav.support }).first().click();
    await expect(page.getByRole('row').filter({ hasText: account.email })).toContainText(
      SUPPORT_TEXT.waitingOnCustomer,
    );
    await page.getByRole('button', { name: 'Closed' }).click();
    await expect(page).toHaveURL(/status=closed/);
    await expect(page.getByRole('row').filter({ hasText: account.email })).toHaveCount(0);

    expect(await cspViolations(page)).toEqual([]);
    expect(watched.problems).toEqual([]);
    expect(watched.foreign).toEqual([]);
    await customer.context.close();
  });
});

test.describe('partner applications', () => {
  test('approve emails the contact; reject needs a reason and frees the details; ban and unban', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const approved = newCompany();
    const approvedId = await apply(request, approved, realPng());
    const rejected = newCompany();
    const rejectedId = await apply(request, rejected);

    await signInAsAdmin(page, '/admin/partners');
    await expect(page.getByRole('button', { name: /^Pending \(\d+\)$/ })).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('searchbox', { name: 'Search applications' }).fill(approved.companyName);
    await page.getByRole('searchbox', { name: 'Search applications' }).press('Enter');
    await page.getByRole('link', { name: approved.companyName }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/partners/${approvedId}$`));

    // Every field, and the licence image served by the admin-only download.
    await expect(page.getByRole('heading', { level: 1, name: approved.companyName })).toBeVisible();
    for (const value of [
      approved.phoneNumber,
      approved.address,
      approved.street,
      approved.contactPersonName,
      approved.contactPersonJobTitle,
      approved.contactPersonPhoneNumber,
      approved.contactPersonEmail,
    ]) {
      await expect(page.locator('.admin-fields').getByText(value, { exact: true })).toBeVisible();
    }
    const image = page.getByRole('img', { name: `Commercial licence of ${approved.companyName}` });
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);

    // Approving asks for the licence's expiry date (docs/decisions/115-licence-expiry.md).
    await page.getByLabel(LICENCE_TEXT.expiresLabel).fill('2099-12-31');
    await page.getByRole('button', { name: ADMIN_TEXT.approve }).click();
    await expect(page.getByText(`Approved. The email to ${approved.contactPersonEmail} is on its way`)).toBeVisible();
    await expect(page.locator('.admin-fields').getByText('Verified', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: ADMIN_TEXT.approve })).toHaveCount(0);
    const mail = await waitForMail(
      dataDir,
      approved.contactPersonEmail,
      'Your Bagspace partner application is approved',
    );
    expect(mail.text).toContain(approved.companyName);
    // Delivered: the record says so once the page is read again.
    await expect(async () => {
      await page.reload();
      await expect(page.locator('.admin-fields')).toContainText(/Decision email sent\s*Yes/);
    }).toPass({ timeout: 60_000 });
    await expect(
      page.getByRole('region', { name: 'History' }).getByText(`Approved the application of ${approved.companyName}`),
    ).toBeVisible();

    // Ban and unban.
    await page.getByRole('button', { name: ADMIN_TEXT.ban }).click();
    await expect(page.getByText('The company is banned.')).toBeVisible();
    await page.getByRole('link', { name: ADMIN_TEXT.nav.partners }).first().click();
    await page.getByRole('button', { name: /^Banned \(\d+\)$/ }).click();
    await page.getByRole('link', { name: approved.companyName }).click();
    await page.getByRole('button', { name: ADMIN_TEXT.unban }).click();
    await expect(page.getByText('The ban is lifted.')).toBeVisible();

    // Reject: the reason is required, then mailed; the same details may apply again.
    await page.goto(`/admin/partners/${rejectedId}`);
    await page.getByRole('button', { name: ADMIN_TEXT.reject }).click();
    await page.getByRole('button', { name: 'Reject application' }).click();
    await expect(page.getByText(COMPANY_REVIEW_MESSAGES.reasonRequired)).toBeVisible();
    await page.getByLabel('Reason').fill('Your commercial license is missing.');
    await page.getByRole('button', { name: 'Reject application' }).click();
    await expect(page.getByText(`Rejected. The email to ${rejected.contactPersonEmail} is on its way`)).toBeVisible();
    await expect(page.locator('.admin-fields').getByText('Your commercial license is missing.')).toBeVisible();
    const rejection = await waitForMail(
      dataDir,
      rejected.contactPersonEmail,
      'About your Bagspace partner application',
    );
    expect(rejection.text).toContain('Your commercial license is missing.');
    await apply(request, rejected);

    // No contact email: the admin is told.
    const silent = newCompany(false);
    const silentId = await apply(request, silent);
    await page.goto(`/admin/partners/${silentId}`);
    await expect(page.getByText(ADMIN_TEXT.noContactEmailYet)).toBeVisible();
    await page.getByLabel(LICENCE_TEXT.expiresLabel).fill('2099-12-31');
    await page.getByRole('button', { name: ADMIN_TEXT.approve }).click();
    await expect(page.getByText(`Approved. ${ADMIN_TEXT.noContactEmail}`)).toBeVisible();
    // Other tests' mail keeps arriving on this shared server: none of it is about this company.
    expect((await readOutbox(dataDir)).filter((m) => m.text.includes(silent.companyName))).toEqual([]);
  });
});

test.describe('FAQs', () => {
  test('entries added, edited, reordered and deleted show on the public FAQ page at once', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const tag = randomBytes(3).toString('hex');
    const first = `Can I send plants ${tag}?`;
    const second = `Can I send a bicycle ${tag}?`;
    await signInAsAdmin(page, '/admin/faqs');
    await page.getByRole('button', { name: 'Sender' }).click();
    await expect(page.getByRole('heading', { name: 'Sender FAQ' })).toBeVisible();

    const add = page.getByRole('form', { name: 'Add an entry' });
    await expect(add.getByLabel('Type')).toHaveValue('sender');
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add.getByText(FAQ_MESSAGES.titleRequired)).toBeVisible();
    await expect(add.getByText(FAQ_MESSAGES.contentRequired)).toBeVisible();
    // Focus follows the errors: the first field in error.
    await expect(add.getByLabel('Title')).toBeFocused();
    for (const title of [first, second]) {
      await add.getByLabel('Title').fill(title);
      await add.getByLabel('Content').fill(`Answer about ${title}`);
      await add.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText(`Added “${title}”.`)).toBeVisible();
      await expect(add.getByLabel('Title')).toHaveValue('');
    }

    const visitor = await otherBrowser(browser, baseURL!);
    const publicTitles = async () => {
      await visitor.page.goto('/faqs?type=sender');
      return visitor.page.getByRole('heading', { level: 3 }).allInnerTexts();
    };
    let titles = await publicTitles();
    expect(titles.indexOf(first)).toBeGreaterThanOrEqual(0);
    expect(titles.indexOf(second)).toBe(titles.indexOf(first) + 1);

    await page.getByRole('button', { name: `Move up “${second}”` }).click();
    await expect(page.getByText(`Moved “${second}” up.`)).toBeVisible();
    titles = await publicTitles();
    expect(titles.indexOf(first)).toBe(titles.indexOf(second) + 1);

    await page.getByRole('button', { name: `Edit “${first}”` }).click();
    const edit = page.getByRole('form', { name: `Edit “${first}”` });
    await edit.getByLabel('Title').fill(`Can I send houseplants ${tag}?`);
    await edit.getByLabel('Content').fill('Only within the North Island.');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`Saved “Can I send houseplants ${tag}?”.`)).toBeVisible();
    await visitor.page.goto('/faqs?type=sender');
    await expect(visitor.page.getByRole('heading', { name: `Can I send houseplants ${tag}?` })).toBeVisible();
    await expect(visitor.page.getByRole('heading', { name: first })).toHaveCount(0);
    await visitor.page.getByRole('button', { name: `Can I send houseplants ${tag}?` }).click();
    await expect(visitor.page.getByText('Only within the North Island.')).toBeVisible();

    for (const title of [`Can I send houseplants ${tag}?`, second]) {
      await page.getByRole('button', { name: `Delete “${title}”` }).click();
      await page.getByRole('button', { name: 'Yes, delete it' }).click();
      await expect(page.getByText(`Deleted “${title}”.`)).toBeVisible();
    }
    titles = await publicTitles();
    expect(titles.filter((t) => t.includes(tag))).toEqual([]);
    await visitor.context.close();
  });
});

test.describe('legal documents', () => {
  test('links must be https or our own paths; edited document text is served at once', async ({ page, baseURL }) => {
    test.setTimeout(60_000);
    const admin = await adminApi(baseURL!);
    const original = (
      (await (await admin.get('/api/admin/legal')).json()).documents as Array<{
        slug: string;
        title: string;
        body: string;
      }>
    ).find((d) => d.slug === 'privacy')!;
    try {
      await signInAsAdmin(page, '/admin/legal');
      const links = page.getByRole('form', { name: 'Links on the legal page' });
      const terms = links.getByLabel('Terms and Conditions link');
      await expect(terms).toHaveValue('/documents/terms');
      for (const bad of ['javascript:alert(1)', 'http://example.com/terms', '//evil.example/terms']) {
        await terms.fill(bad);
        await links.getByRole('button', { name: 'Save' }).click();
        await expect(links.getByText(LEGAL_MESSAGES.linkInvalid)).toBeVisible();
      }
      await terms.fill('/documents/terms');
      await links.getByRole('button', { name: 'Save' }).click();
      await expect(links.getByText('Saved. The legal page shows these links now.')).toBeVisible();

      const privacy = page.getByRole('form', { name: 'Our Privacy Policy' });
      await privacy
        .getByLabel('Text')
        .fill(`${original.body}\n\n## Contacting our privacy officer\nWrite to privacy@example.nz <any time>.`);
      await privacy.getByRole('button', { name: 'Save' }).click();
      await expect(privacy.getByText('Saved. /documents/privacy shows the new text now.')).toBeVisible();
      await page.goto('/documents/privacy');
      await expect(page.getByRole('heading', { level: 2, name: 'Contacting our privacy officer' })).toBeVisible();
      await expect(page.getByText('Write to privacy@example.nz <any time>.')).toBeVisible();
    } finally {
      await admin.put('/api/admin/documents/privacy', { data: { title: original.title, body: original.body } });
      await admin.dispose();
    }
  });
});

test.describe('users', () => {
  test('find an account, sign it out everywhere, disable it (signed out at once), enable it, give and take the admin role; never disable yourself', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const member = await otherBrowser(browser, baseURL!);
    const account = await verifiedAccount(member.context.request);
    await signInAt(member.page, '/support', account);
    await expect(member.page.getByRole('heading', { name: SUPPORT_TEXT.listTitle })).toBeVisible();

    await signInAsAdmin(page, '/admin/users');
    const find = async (email: string) => {
      await page.getByRole('searchbox', { name: 'Find accounts by email' }).fill(email);
      await page.getByRole('searchbox', { name: 'Find accounts by email' }).press('Enter');
      // The search is a navigation: wait for it, so the next search's words are not replaced by this one's.
      await page.waitForURL((url) => url.searchParams.get('q') === email);
      await expect(page.getByRole('row').filter({ hasText: email })).toBeVisible();
      return page.getByRole('row').filter({ hasText: email });
    };

    const self = await find(ADMIN.email);
    await expect(self).toContainText('This is you');
    // Only the admin's own roles (the last admin keeps theirs): no sign-out, disabling or erasing oneself.
    await expect(self.getByRole('button')).toHaveText([`Roles ${ADMIN.email}`]);

    let row = await find(account.email);
    await expect(row).toContainText('Yes');
    await expect(row).toContainText('Customer');
    await expect(row).toContainText('Active');
    // A lost laptop: signed out everywhere at once, and free to sign in again.
    await row.getByRole('button', { name: `Sign out everywhere ${account.email}` }).click();
    await expect(page.getByText(`${account.email} is signed out everywhere; they can sign in again.`)).toBeVisible();
    await member.page.reload();
    await expect(member.page.getByRole('heading', { level: 1, name: 'Sign in to get help' })).toBeVisible();
    await signInAt(member.page, '/support', account);
    await expect(member.page.getByRole('heading', { name: SUPPORT_TEXT.listTitle })).toBeVisible();

    row = await find(account.email);
    await row.getByRole('button', { name: `Disable ${account.email}` }).click();
    await row.getByRole('button', { name: 'Yes, disable' }).click();
    await expect(page.getByText(`${account.email} is disabled and signed out everywhere.`)).toBeVisible();
    await expect(row).toContainText('Disabled');
    await member.page.reload();
    await expect(member.page.getByRole('heading', { level: 1, name: 'Sign in to get help' })).toBeVisible();

    await row.getByRole('button', { name: `Enable ${account.email}` }).click();
    await expect(row).toContainText('Active');
    await row.getByRole('button', { name: `Roles ${account.email}` }).click();
    await row.getByRole('checkbox', { name: /^Admin / }).check();
    await row.getByRole('button', { name: 'Save roles' }).click();
    await expect(page.getByText(`Roles saved for ${account.email}.`)).toBeVisible();
    await signInAt(member.page, '/admin', account);
    // A new admin sets up a second factor before the console opens (docs/product.md §2.15).
    await enrolOnConsole(member.page);
    await expect(adminNav(member.page)).toBeVisible();

    row = await find(account.email);
    await row.getByRole('button', { name: `Roles ${account.email}` }).click();
    await row.getByRole('checkbox', { name: /^Admin / }).uncheck();
    await row.getByRole('button', { name: 'Save roles' }).click();
    await expect(page.getByText(`Roles saved for ${account.email}.`)).toBeVisible();
    await member.page.reload();
    await expect(member.page.getByRole('heading', { level: 1, name: ADMIN_TEXT.notAllowedTitle })).toBeVisible();

    // An account that never confirmed its address gets a new verification mail.
    const unconfirmed = newEmail('unconfirmed');
    expect(
      (
        await member.context.request.post('/api/auth/signup', { data: { email: unconfirmed, password: newPassword() } })
      ).status(),
    ).toBe(202);
    await waitForMails(dataDir, unconfirmed, 1);
    row = await find(unconfirmed);
    await expect(row).toContainText('No');
    await row.getByRole('button', { name: `Resend verification ${unconfirmed}` }).click();
    await expect(page.getByText(`A new verification email is on its way to ${unconfirmed}.`)).toBeVisible();
    await waitForMails(dataDir, unconfirmed, 2);
    await member.context.close();
  });
});

test.describe('audit log', () => {
  test('lists each admin action with who, what, when and the record, newest first, page by page', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const admin = await adminApi(baseURL!);
    const tag = randomBytes(3).toString('hex');
    for (let i = 0; i < 13; i++) {
      const res = await admin.post('/api/admin/faqs', {
        data: { type: 'traveller', title: `Audit probe ${tag} ${i}`, content: 'Temporary' },
      });
      expect(res.status()).toBe(201);
      expect((await admin.delete(`/api/admin/faqs/${(await res.json()).faq.id}`)).status()).toBe(200);
    }
    await admin.dispose();

    await signInAsAdmin(page, '/admin/audit');
    const rows = page.getByRole('row').filter({ hasText: `Audit probe ${tag} 12` });
    await expect(rows).toHaveCount(2);
    // Each entry reads as a sentence naming the record.
    await expect(rows.first()).toContainText(`Deleted the FAQ entry “Audit probe ${tag} 12” from the Traveller FAQ`);
    await expect(rows.last()).toContainText(`Added the FAQ entry “Audit probe ${tag} 12” to the Traveller FAQ`);
    // Who acted: the admin of the API client above, not the one reading the log.
    await expect(rows.first()).toContainText(process.env.E2E_ADMIN_EMAIL!);
    await expect(rows.first().locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);

    await page.getByRole('link', { name: 'Older entries' }).click();
    await expect(page).toHaveURL(/before=\d+/);
    await expect(
      page
        .getByRole('row')
        .filter({ hasText: `Audit probe ${tag} 0` })
        .first(),
    ).toBeVisible();
    await page.getByRole('link', { name: 'Newest entries' }).click();
    await expect(rows).toHaveCount(2);

    // Filtered by action (its plain label) and by who acted: only that admin's additions.
    const filters = page.getByRole('form', { name: 'Filter the audit log' });
    await filters.getByLabel('What').selectOption({ label: 'Added a FAQ entry' });
    await filters.getByLabel('Who').selectOption(process.env.E2E_ADMIN_EMAIL!);
    await filters.getByRole('button', { name: 'Show entries' }).click();
    await expect(page).toHaveURL(/action=faq\.create/);
    const probes = page.getByRole('row').filter({ hasText: `Audit probe ${tag}` });
    await expect(probes).toHaveCount(13);
    await expect(page.getByRole('row').filter({ hasText: 'Deleted the FAQ entry' })).toHaveCount(0);
    await filters.getByRole('link', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(/\/admin\/audit$/);
    await expect(rows).toHaveCount(2);
  });
});
