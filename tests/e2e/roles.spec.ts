import { expect, type Page, test } from '@playwright/test';
import { ADMIN_TEXT } from '../../src/contracts/admin.ts';
import { adminApi, customerTicket, signInAt } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';

/**
 * Roles (docs/decisions/147-roles-and-permissions.md) as a lead, an agent and an auditor meet them in
 * the console, with JavaScript and without: the navigation offers each exactly their part, a page
 * outside it says so instead of opening, an agent answers tickets and an auditor only reads them.
 * What each role is shown is written here by hand, not read from the roles table.
 */
const PEOPLE = {
  lead: { person: teamAdmin('role-lead'), role: 'lead' },
  agent: { person: teamAdmin('role-agent'), role: 'agent' },
  auditor: { person: teamAdmin('role-auditor'), role: 'auditor' },
} as const;

const N = ADMIN_TEXT.nav;
const NAVIGATION: Record<keyof typeof PEOPLE, string[]> = {
  lead: [N.support, N.savedReplies, N.reports, N.businessHours, N.mail, N.security],
  agent: [N.support, N.savedReplies, N.businessHours, N.security],
  auditor: [
    N.support,
    N.savedReplies,
    N.reports,
    N.businessHours,
    N.partners,
    N.faqs,
    N.legal,
    N.users,
    N.audit,
    N.mail,
    N.integrations,
    N.security,
  ],
};

test.beforeAll(async ({ baseURL }) => {
  const admin = await adminApi(baseURL!);
  for (const { person, role } of Object.values(PEOPLE)) {
    const found = await admin.get(`/api/admin/users?q=${encodeURIComponent(person.email)}`);
    const [user] = ((await found.json()) as { users: Array<{ id: string }> }).users;
    const res = await admin.post(`/api/admin/users/${user!.id}/roles`, { data: { roles: [role] } });
    expect(res.status(), await res.text()).toBe(200);
  }
  await admin.dispose();
});

const thread = (page: Page) => page.getByRole('log', { name: 'Messages' });
const navLinks = (page: Page) => page.getByRole('navigation', { name: 'Admin' }).getByRole('link');
const closedSection = (page: Page) => page.getByRole('heading', { level: 1, name: ADMIN_TEXT.sectionClosedTitle });

for (const js of [true, false]) {
  test.describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled: js });

    test('a lead has the desk, reports and mail, not partners or accounts', async ({ page }) => {
      await signInAt(page, '/admin', PEOPLE.lead.person);
      await expect(navLinks(page)).toHaveText(NAVIGATION.lead);
      await page.goto('/admin/users');
      await expect(closedSection(page)).toBeVisible();
      await expect(page.getByRole('table')).toHaveCount(0);
      await page.goto('/admin/reports');
      await expect(page.getByRole('heading', { level: 1, name: N.reports })).toBeVisible();
    });

    test('an agent answers a ticket, and partner applications stay shut', async ({ page, request }) => {
      const words = `Roles ${js ? 'js' : 'no-js'}: my bag was left behind ${Date.now()}`;
      const ticket = await customerTicket(request, words);
      await signInAt(page, '/admin', PEOPLE.agent.person);
      await expect(navLinks(page)).toHaveText(NAVIGATION.agent);
      await page.goto(`/admin/support/${ticket.ticketId}`);
      await expect(thread(page).getByText(words)).toBeVisible();
      const answer = page.getByPlaceholder('Write a message');
      await answer.fill('We have found it and will send it on.');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(thread(page).getByText('We have found it and will send it on.')).toBeVisible();
      await page.goto('/admin/partners');
      await expect(closedSection(page)).toBeVisible();
    });

    test('an auditor reads every part, and changes nothing', async ({ page, request }) => {
      const words = `Roles ${js ? 'js' : 'no-js'}: audit this one ${Date.now()}`;
      const ticket = await customerTicket(request, words);
      await signInAt(page, '/admin', PEOPLE.auditor.person);
      await expect(navLinks(page)).toHaveText(NAVIGATION.auditor);
      // The ticket reads as anyone's on the desk, without a box to answer in or a tool to change it.
      await page.goto(`/admin/support/${ticket.ticketId}`);
      await expect(thread(page).getByText(words)).toBeVisible();
      await expect(page.getByRole('textbox')).toHaveCount(0);
      await expect(page.getByRole('button', { name: ADMIN_TEXT.closeTicket })).toHaveCount(0);
      // Nothing to tick in the inbox either.
      await page.goto('/admin/support');
      await expect(page.getByRole('table')).toBeVisible();
      await expect(page.getByRole('checkbox')).toHaveCount(0);
      // Accounts, read only: no role to give, nothing to disable.
      await page.goto(`/admin/users?q=${encodeURIComponent(PEOPLE.auditor.person.email)}`);
      const row = page.getByRole('row').filter({ hasText: PEOPLE.auditor.person.email });
      await expect(row).toContainText('Auditor');
      await expect(row).toContainText('This is you');
      await expect(page.getByRole('button', { name: /^Roles / })).toHaveCount(0);
      await page.goto('/admin/audit');
      await expect(page.getByRole('heading', { level: 1, name: N.audit })).toBeVisible();
    });
  });
}
