import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_TEXT } from '../../../src/contracts/desk.ts';
import { CSV_COLUMNS, REPORTS_TEXT } from '../../../src/contracts/reports.ts';
import { DUE_TEXT } from '../../../src/contracts/due-times.ts';
import { reasonLabel } from '../../../src/contracts/support.ts';
import { TICKET_WORDS } from '../../../src/contracts/ticket-words.ts';
import { newZealandDate } from '../../../src/server/calendar/business-calendar.ts';
import { deliverDueMail, waitForMails } from '../../helpers/mail.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * One word for one thing wherever a person reads it (contracts/ticket-words.ts,
 * docs/decisions/133-one-word-for-one-thing.md): the rating the customer chose, a ticket nobody
 * handles and a ticket's reason read the same on the console's pages, in the reports, in the CSV
 * and in mail. Each place's word is read from what it shows, so a place that starts saying another
 * word ('Poor', 'Nobody', 'Incident') fails here.
 */
let t: TestApp;
let admin: SupportUser;
let customer: SupportUser;
let ticket: { ticketId: string; ticketNo: number };

beforeAll(async () => {
  t = await createTestApp({
    web: true,
    mailWorker: false,
    serviceLevelWorker: false,
    env: { NOTIFY_DELAY_SECONDS: '0' },
  });
  [admin, customer] = await Promise.all([supportUser(t, { role: 'admin' }), supportUser(t)]);
  // The customer reports an incident, the team answers and closes it unassigned, the customer rates it Bad.
  ticket = await customer.createTicket('Incident', 'My bag came back from Napier with its zip torn off.');
  const answered = await admin.post(`/api/admin/support/tickets/${ticket.ticketId}/messages`, {
    messageBody: 'So sorry: a new bag is on its way.',
  });
  expect(answered.statusCode, answered.body).toBe(200);
  const closed = await admin.post(`/api/admin/support/tickets/${ticket.ticketId}/close`);
  expect(closed.statusCode, closed.body).toBe(200);
  const rated = await customer.post(`/api/support/tickets/${ticket.ticketId}/rating`, {
    good: false,
    comment: 'It took a week.',
  });
  expect(rated.statusCode, rated.body).toBe(200);
  // The close's mail waits for an undo; passed, as the worker would find it later.
  await t.database.db.execute(sql`update notification_events set due_at = now() where ticket_id = ${ticket.ticketId}`);
  await deliverDueMail(t.app);
});
afterAll(() => t?.close());

/** What a piece of HTML reads as: tags and React's text markers gone, entities and spaces plain. */
const text = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ')
    .trim();

const page = async (url: string, who: SupportUser = admin) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { ...who.headers, accept: 'text/html' } });
  expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
  return res.body;
};

/** The table row that links to the ticket, and in it the cell under `column` (cells carry their column as data-label). */
function cell(html: string, column: string): string {
  const row = [...html.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)]
    .map((m) => m[1]!)
    .find((r) => new RegExp(`(^| )#${ticket.ticketNo}( |$)`).test(r.replace(/<!-- -->/g, '').replace(/<[^>]+>/g, ' ')));
  expect(row, `a row for #${ticket.ticketNo}`).toBeDefined();
  const found = new RegExp(`<td data-label="${column}"[^>]*>([\\s\\S]*?)</td>`).exec(row!);
  expect(found, `a "${column}" cell`).not.toBeNull();
  return text(found![1]!);
}

/** The element with this attribute's text. */
function marked(html: string, attribute: string): string {
  const found = new RegExp(`${attribute}[^>]*>([\\s\\S]*?)</(dd|p|span)>`).exec(html);
  expect(found, attribute).not.toBeNull();
  return text(found![1]!);
}

describe('the words for a rating, an unassigned ticket and a reason', () => {
  it('are the same on the console, in the reports, in the CSV and in mail', async () => {
    const today = newZealandDate(new Date());
    const range = `from=${today}&to=${today}`;

    const consoleTicket = await page(`/admin/support/${ticket.ticketId}`);
    const inbox = await page('/admin/support?status=closed');
    const reportList = await page(`/admin/reports/tickets?${range}&figure=created`);
    const report = await page(`/admin/reports?${range}`);
    const ownPage = await page(`/support/ticket/${ticket.ticketId}`, customer);
    const ownList = await page('/support?status=closed', customer);

    const csv = await admin.get(`/api/admin/reports/tickets.csv?${range}`);
    expect(csv.statusCode, csv.body).toBe(200);
    const header = csv.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')[0]!
      .split(',');
    expect(header).toEqual([...CSV_COLUMNS]);
    const csvRow = csv.body
      .split('\r\n')
      .find((line) => line.startsWith(`${ticket.ticketNo},`))!
      .split(',');
    const csvCell = (column: (typeof CSV_COLUMNS)[number]) => csvRow[CSV_COLUMNS.indexOf(column)]!;

    const teamMail = (await waitForMails(t.dataDir, admin.email)).find((m) =>
      m.subject.startsWith(`New ticket #${ticket.ticketNo}`),
    );
    const closedMail = (await waitForMails(t.dataDir, customer.email)).find((m) =>
      m.subject.includes(`#${ticket.ticketNo} was closed`),
    );
    expect(teamMail, 'the team’s mail about the new ticket').toBeDefined();
    expect(closedMail, 'the customer’s mail about the close').toBeDefined();

    // The rating: the word the customer chose on their ticket's page, everywhere.
    const chosen = /You rated this (\w+)\./.exec(text(ownPage))?.[1];
    expect({
      'customer’s ticket page': chosen,
      'console ticket': marked(consoleTicket, 'data-testid="rating"').replace(/\s*It took a week\.$/, ''),
      'report ticket list': cell(reportList, 'Rating'),
      'report comments': marked(report, 'class="report-comment__(?!meta|text)\\w+"'),
      CSV: csvCell('Rating'),
    }).toEqual({
      'customer’s ticket page': DESK_TEXT.bad,
      'console ticket': DESK_TEXT.bad,
      'report ticket list': DESK_TEXT.bad,
      'report comments': DESK_TEXT.bad,
      CSV: DESK_TEXT.bad,
    });

    // Nobody handles it: 'Unassigned', everywhere.
    expect({
      'console ticket': marked(consoleTicket, 'data-testid="assignee"'),
      inbox: cell(inbox, 'Assigned to'),
      'report ticket list': cell(reportList, 'Assignee'),
      CSV: csvCell('Assignee'),
    }).toEqual({
      'console ticket': TICKET_WORDS.unassigned,
      inbox: TICKET_WORDS.unassigned,
      'report ticket list': TICKET_WORDS.unassigned,
      CSV: TICKET_WORDS.unassigned,
    });

    // The reason, by the label the customer chose it by.
    const label = reasonLabel('Incident');
    expect({
      'customer’s ticket list': cell(ownList, 'Reason'),
      'console ticket': marked(consoleTicket, 'class="ticket__reason"').split(' · ')[0],
      inbox: cell(inbox, 'Reason'),
      'report ticket list': cell(reportList, 'Reason'),
      CSV: csvCell('Reason'),
      'team mail': teamMail!.subject.replace(`New ticket #${ticket.ticketNo}: `, ''),
      'customer mail': new RegExp(`#${ticket.ticketNo} \\(([^)]+)\\)`).exec(closedMail!.text)?.[1],
    }).toEqual({
      'customer’s ticket list': label,
      'console ticket': label,
      inbox: label,
      'report ticket list': label,
      CSV: label,
      'team mail': label,
      'customer mail': label,
    });
  });

  it('late is one word: the inbox’s due and privacy filters, and the marks on a ticket', async () => {
    const inbox = await page('/admin/support');
    /** The buttons of one of the inbox's switches, as they read. */
    const choices = (label: string) => {
      const group = new RegExp(`aria-label="${label}" role="group"[^>]*>([\\s\\S]*?)</form>`).exec(inbox);
      expect(group, label).not.toBeNull();
      return [...group![1]!.matchAll(/<button[^>]*>([\s\S]*?)<\/button>/g)].map((m) => text(m[1]!));
    };
    expect(choices(DUE_TEXT.filterLabel)).toContain(TICKET_WORDS.late);
    expect(choices(DESK_TEXT.privacyRequests)).toContain(TICKET_WORDS.late);
    expect(text(inbox)).not.toMatch(/overdue|missed/i);
    // The marks: a late due time's, a late privacy request's, the reports' column.
    expect([DUE_TEXT.late, DUE_TEXT.warnedLate, DESK_TEXT.overdue, REPORTS_TEXT.late]).toEqual(
      Array(4).fill(TICKET_WORDS.late),
    );
  });
});
