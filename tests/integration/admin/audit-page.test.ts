// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_PAGE_SIZE } from '../../../src/contracts/audit.ts';
import { DELETION_TEXT } from '../../../src/contracts/account-deletion.ts';
import { apiClient, type ApiClient } from '../../helpers/admin-client.ts';
import { postPageForm } from '../../helpers/page-forms.ts';
import { register, validCompany } from '../../helpers/registration.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The console's audit log and histories as staff read them, without JavaScript: each entry one
 * plain sentence, records by name or number, people by email, dates in New Zealand time; never a
 * raw key, id or ISO timestamp. And the ticket's keep-for-record switch, a form that says its state.
 */
let t: TestApp;
let admin: ApiClient;
let customer: SupportUser;
beforeAll(async () => {
  t = await createTestApp({ web: true, env: { REGISTRATIONS_PER_IP_PER_HOUR: '10000' } });
  admin = await apiClient(t);
  customer = await supportUser(t);
});
afterAll(() => t?.close());

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const ISO_INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

const page = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...admin.headers } });
  expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
  return res.body;
};

/** What a person sees of a page: its text without scripts, tags or word-break hints (an address's marked hyphens). */
const textOf = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<wbr\/?>/g, '')
    .replace(/<span class="email__hyphen">-<\/span>/g, '-')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, ' ');

async function company(name: string) {
  const res = await register(t, { ...validCompany(), companyName: name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

describe('the audit log page', () => {
  it('tells each entry as a sentence, with no ids or raw timestamps', async () => {
    const { ticketId, ticketNo } = await customer.createTicket('Incident', 'My bag arrived wet.');
    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Sorry to hear that.' });
    await admin.post(`/api/admin/support/tickets/${ticketId}/close`);
    const kea = await company(`Kea Couriers ${Date.now()}`);
    expect((await admin.post(`/api/admin/companies/${kea}/approve`)).statusCode).toBe(200);
    const member = await supportUser(t);
    const users = await admin.get(`/api/admin/users?q=${encodeURIComponent(member.email)}`);
    const memberId = users.json().users[0].id as string;
    expect((await admin.post(`/api/admin/users/${memberId}/disable`)).statusCode).toBe(200);

    const html = await page('/admin/audit');
    const text = textOf(html);
    expect(text).toContain(`Answered ticket #${ticketNo}`);
    expect(text).toContain(`Closed ticket #${ticketNo}`);
    expect(text).toContain('Approved the application of Kea Couriers');
    expect(text).toContain(`Disabled the account of ${member.email}`);
    expect(text).toContain('Decision email queued for the contact person');
    expect(text).toContain(`Customer ${customer.email}`);
    expect(text).toContain('Signed out of 1 session');
    expect(text).not.toMatch(UUID);
    expect(text).not.toMatch(ISO_INSTANT);
    expect(text).not.toMatch(/ticketNo|messageId|companyName|endedSessions|from: 0|mail: queued/);
    // Records link to their pages in the console.
    expect(html).toContain(`href="/admin/support/${ticketId}"`);
    expect(html).toContain(`href="/admin/partners/${kea}"`);
  });

  it('filters by person, action and New Zealand days with a GET form, and pages back keeping the filters', async () => {
    for (let i = 0; i < AUDIT_PAGE_SIZE + 1; i++) {
      const res = await admin.post('/api/admin/faqs', { type: 'general', title: `Page probe ${i}`, content: 'Yes.' });
      expect(res.statusCode).toBe(201);
    }
    const html = await page('/admin/audit');
    // The form works without JavaScript: a GET to this page, with a select of people and of actions.
    expect(html).toMatch(
      /<form[^>]*method="get"[^>]*action="\/admin\/audit"|<form[^>]*action="\/admin\/audit"[^>]*method="get"/,
    );
    expect(html).toContain(`<option value="${admin.email}">${admin.email}</option>`);
    expect(html).toContain('<option value="ticket.close">Closed a ticket</option>');
    expect(html).toContain('name="from"');
    expect(html).toContain('name="to"');

    const query = `actor=${encodeURIComponent(admin.email)}&action=faq.create`;
    const filtered = await page(`/admin/audit?${query}`);
    const text = textOf(filtered);
    expect(text).toContain(`Added the FAQ entry “Page probe ${AUDIT_PAGE_SIZE}” to the General FAQ`);
    expect(text).not.toContain('Closed ticket');
    expect(filtered).toMatch(/<option value="faq.create" selected="">/);
    const older = /href="(\/admin\/audit\?[^"]*before=\d+[^"]*)"/.exec(filtered)?.[1]?.replace(/&amp;/g, '&');
    expect(older).toBeDefined();
    const params = new URL(older!, 'http://x').searchParams;
    expect(params.get('actor')).toBe(admin.email);
    expect(params.get('action')).toBe('faq.create');
    const back = textOf(await page(older!));
    expect(back).toContain('Added the FAQ entry “Page probe 0”');
    expect(back).not.toContain('Closed ticket');

    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(new Date());
    expect(textOf(await page(`/admin/audit?action=faq.create&from=${today}&to=${today}`))).toContain('Page probe');
    expect(textOf(await page(`/admin/audit?action=faq.create&to=2020-01-01`))).toContain(
      'No entries match these filters.',
    );
  });
});

describe('the partner history', () => {
  it('reads the decisions with who, when and the reason', async () => {
    const name = `Tui Freight ${Date.now()}`;
    const id = await company(name);
    expect(
      (await admin.post(`/api/admin/companies/${id}/reject`, { reason: 'The licence has expired.' })).statusCode,
    ).toBe(200);
    expect((await admin.post(`/api/admin/companies/${id}/approve`)).statusCode).toBe(200);
    const html = await page(`/admin/partners/${id}`);
    const history = textOf(html.slice(html.indexOf('id="history-title"')));
    expect(history).toContain(`Rejected the application of ${name}`);
    expect(history).toContain(`Approved the application of ${name}`);
    expect(history).toContain(`by ${admin.email}`);
    expect(history).toContain('Reason The licence has expired.');
    expect(history).toContain('Before Rejected');
    expect(history).toMatch(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2}\s?[ap]m/);
    expect(history).not.toMatch(UUID);
    expect(history).not.toMatch(ISO_INSTANT);
    expect(history).not.toMatch(/companyName|from: |mail: /);
  });
});

describe('the ticket page', () => {
  it('has a keep-for-record switch that says its state and works as a plain form', async () => {
    const { ticketId, ticketNo } = await customer.createTicket('General', 'Keep this one.');
    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Right away.' });
    const url = `/admin/support/${ticketId}`;
    const before = await page(url);
    expect(before).toMatch(/role="switch" aria-checked="false"[^>]*data-testid="keep-for-record"/);
    expect(textOf(before)).toContain(DELETION_TEXT.keepForRecordHint);
    expect(before).not.toContain('☐');
    // Answered within seconds: said so, not '0 min'.
    expect(textOf(before)).toMatch(/First response\s*:?\s*under a minute/);

    const posted = await postPageForm(
      t,
      url,
      { intent: 'keep-for-record', keep: 'true' },
      { origin: 'http://localhost:80', ...admin.headers },
    );
    expect(posted.statusCode).toBeLessThan(400);
    expect(await page(url)).toMatch(/role="switch" aria-checked="true"/);
    expect(textOf(await page('/admin/audit?action=ticket.keep-for-record'))).toContain(
      `Kept the messages of ticket #${ticketNo} for the record`,
    );
  });
});
