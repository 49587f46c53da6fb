import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportsApi } from '../../../src/contracts/api/reports.ts';
import { pathOf } from '../../../src/contracts/endpoint.ts';
import { REPORTS_TEXT } from '../../../src/contracts/reports.ts';
import type { Report, ReportTickets } from '../../../src/contracts/reports.schemas.ts';
import { addDays, newZealandDate } from '../../../src/server/calendar/business-calendar.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { type SupportUser, supportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The report's `reason` and `agent` filters (the ticket's reason; the admin it is assigned to):
 * every figure, every list and the CSV count only the tickets they pick, alone and together with
 * each other; the console's pages choose them, say so and carry them in every link. The tickets are
 * made, assigned, answered and closed through the API, as the customer and the team would; the
 * range is yesterday and today by the app's clock (the database stamps what is written with its own
 * time, so the clock is not moved).
 *
 *   ticket  reason        assigned to  first answer by  closed
 *   G1      General       A1           A1               no
 *   G2      General       A2           A2               yes
 *   I1      Incident      A1           A2               yes
 *   I2      Incident      nobody       A1               no
 *   D1      Deactivation  A2           nobody           no
 */
const clock = movableClock();

let t: TestApp;
let customer: SupportUser;
let a1: SupportUser;
let a2: SupportUser;
let range: { from: string; to: string };
const ticket: Record<string, { ticketId: string; ticketNo: number }> = {};

async function open(key: string, reason: string, assignee: SupportUser | null, answeredBy: SupportUser | null) {
  ticket[key] = await customer.createTicket(reason, `Ticket ${key}: my bag is somewhere else.`);
  const path = `/api/admin/support/tickets/${ticket[key].ticketId}`;
  if (assignee) {
    const assigned = await a1.post(`${path}/assign`, { assignee: assignee.id });
    expect(assigned.statusCode, assigned.body).toBe(200);
  }
  if (answeredBy) {
    const answered = await answeredBy.post(`${path}/messages`, { messageBody: `About ${key}: we are on it.` });
    expect(answered.statusCode, answered.body).toBe(200);
  }
}

async function close(key: string) {
  const res = await a1.post(`/api/admin/support/tickets/${ticket[key]!.ticketId}/close`);
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp({
    web: true,
    mailWorker: false,
    serviceLevelWorker: false,
    clock,
    env: { TICKETS_PER_USER_PER_HOUR: '1000' },
  });
  [customer, a1, a2] = await Promise.all([
    supportUser(t),
    supportUser(t, { role: 'admin', email: `filter-a1-${Date.now()}@example.nz` }),
    supportUser(t, { role: 'admin', email: `filter-a2-${Date.now()}@example.nz` }),
  ]);
  await open('G1', 'General', a1, a1);
  await open('G2', 'General', a2, a2);
  await close('G2');
  await open('I1', 'Incident', a1, a2);
  await close('I1');
  await open('I2', 'Incident', null, a1);
  await open('D1', 'Deactivation', a2, null);
  const today = newZealandDate(clock.now());
  range = { from: addDays(today, -1), to: today };
});
afterAll(() => t.close());

async function report(query: Record<string, string> = {}) {
  const res = await a1.get(pathOf(reportsApi.report, { query: { ...range, ...query } }));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Report;
}
async function list(query: Record<string, string>) {
  const res = await a1.get(pathOf(reportsApi.tickets, { query: { ...range, ...query } }));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ReportTickets;
}
async function csvRows(query: Record<string, string>) {
  const res = await a1.get(pathOf(reportsApi.csv, { query: { ...range, ...query } }));
  expect(res.statusCode, res.body).toBe(200);
  return res.body
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .slice(1)
    .filter(Boolean);
}
const numbers = (tickets: ReportTickets) => tickets.tickets.map((x) => x.ticketNo).sort((a, b) => a - b);
const noOf = (...keys: string[]) => keys.map((key) => ticket[key]!.ticketNo).sort((a, b) => a - b);
/** Who answered how many of the report's tickets, by email. */
const answers = (r: Report) => Object.fromEntries(r.admins.map((a) => [a.email, a.answered]));
/** The tickets created per New Zealand day, as the unfiltered list dates them (the range's two days). */
async function createdPerDay(keys: string[]) {
  const all = await list({ figure: 'created' });
  const days: Record<string, number> = { [range.from]: 0, [range.to]: 0 };
  for (const key of keys) {
    const made = all.tickets.find((x) => x.ticketNo === ticket[key]!.ticketNo)!;
    const day = newZealandDate(new Date(made.createdAt));
    days[day] = (days[day] ?? 0) + 1;
  }
  return days;
}

describe('the figures count only the tickets the filters pick', () => {
  it('without a filter: every ticket of the range', async () => {
    const r = await report();
    expect(r.created).toBe(5);
    expect(r.firstResponse.count).toBe(4);
    expect(r.resolution.count).toBe(2);
    expect(answers(r)).toEqual({ [a1.email]: 2, [a2.email]: 2 });
  });

  it('by reason: created, first responses, the days and the admins of that reason’s tickets', async () => {
    const general = await report({ reason: 'General' });
    expect(general.created).toBe(2);
    expect(general.firstResponse.count).toBe(2);
    expect(general.resolution.count).toBe(1);
    expect(answers(general)).toEqual({ [a1.email]: 1, [a2.email]: 1 });
    expect(Object.fromEntries(general.days.map((d) => [d.day, d.created]))).toEqual(await createdPerDay(['G1', 'G2']));

    const incident = await report({ reason: 'Incident' });
    expect(incident.created).toBe(2);
    expect(incident.firstResponse.count).toBe(2);
    expect(answers(incident)).toEqual({ [a1.email]: 1, [a2.email]: 1 });

    const deactivation = await report({ reason: 'Deactivation' });
    expect(deactivation.created).toBe(1);
    expect(deactivation.firstResponse.count).toBe(0);
    expect(deactivation.admins).toEqual([]);
    expect(Object.fromEntries(deactivation.days.map((d) => [d.day, d.created]))).toEqual(await createdPerDay(['D1']));
  });

  it('by assignee: the tickets assigned to that admin, whoever answered them', async () => {
    const mine = await report({ agent: a1.id });
    expect(mine.created).toBe(2);
    expect(mine.firstResponse.count).toBe(2);
    expect(mine.resolution.count).toBe(1);
    // A2 answered I1, assigned to A1: it counts under A2 in A1's tickets.
    expect(answers(mine)).toEqual({ [a1.email]: 1, [a2.email]: 1 });
    expect(Object.fromEntries(mine.days.map((d) => [d.day, d.created]))).toEqual(await createdPerDay(['G1', 'I1']));

    const theirs = await report({ agent: a2.id });
    expect(theirs.created).toBe(2);
    expect(theirs.firstResponse.count).toBe(1);
    expect(answers(theirs)).toEqual({ [a2.email]: 1 });
  });

  it('both together, and with a range that holds none of the tickets', async () => {
    const both = await report({ reason: 'Incident', agent: a1.id });
    expect(both.created).toBe(1);
    expect(both.firstResponse.count).toBe(1);
    expect(answers(both)).toEqual({ [a2.email]: 1 });
    const before = await report({ from: addDays(range.from, -7), to: addDays(range.from, -1), agent: a1.id });
    expect(before.created).toBe(0);
  });
});

describe('a figure’s tickets and the CSV are those the figure counted', () => {
  it('lists only the filtered tickets behind a figure', async () => {
    expect(numbers(await list({ figure: 'created', reason: 'Incident' }))).toEqual(noOf('I1', 'I2'));
    expect(numbers(await list({ figure: 'created', agent: a1.id }))).toEqual(noOf('G1', 'I1'));
    expect(numbers(await list({ figure: 'first-response', reason: 'General' }))).toEqual(noOf('G1', 'G2'));
    expect(numbers(await list({ figure: 'first-response', agent: a2.id }))).toEqual(noOf('G2'));
    expect(numbers(await list({ figure: 'resolution', reason: 'Incident', agent: a1.id }))).toEqual(noOf('I1'));
    expect(numbers(await list({ figure: 'admin-answered', admin: a2.id, agent: a1.id }))).toEqual(noOf('I1'));
    const day = newZealandDate(new Date((await list({ figure: 'created' })).tickets[0]!.createdAt));
    const perDay = await list({ figure: 'created-day', day, reason: 'General' });
    expect(perDay.tickets.every((x) => x.reason === 'General')).toBe(true);
    expect(perDay.tickets.length).toBe((await report({ reason: 'General' })).days.find((d) => d.day === day)!.created);
    const theirs = await list({ figure: 'created', agent: a2.id });
    expect(theirs.tickets.map((x) => x.assignee)).toEqual([a2.email, a2.email]);
  });

  it('the CSV has one row per filtered ticket', async () => {
    const incident = await csvRows({ reason: 'Incident' });
    expect(incident.map((line) => Number(line.split(',')[0])).sort((a, b) => a - b)).toEqual(noOf('I1', 'I2'));
    expect(incident.every((line) => line.split(',')[1] === 'Incident Report')).toBe(true);
    const theirs = await csvRows({ agent: a2.id });
    expect(theirs.map((line) => Number(line.split(',')[0])).sort((a, b) => a - b)).toEqual(noOf('G2', 'D1'));
    expect(theirs.every((line) => line.split(',')[9] === a2.email)).toBe(true);
    expect(await csvRows({ reason: 'Deactivation', agent: a1.id })).toEqual([]);
  });
});

describe('refuses a filter it does not know, in words on the field', () => {
  it('an agent who is nobody, or no id at all', async () => {
    for (const agent of ['00000000-0000-4000-8000-000000000000', 'someone']) {
      for (const endpoint of [reportsApi.report, reportsApi.tickets, reportsApi.csv]) {
        const res = await a1.get(pathOf(endpoint, { query: { ...range, agent } }));
        expect(res.statusCode, `${endpoint.path}?agent=${agent}`).toBe(400);
        expect(res.json().error.fields.agent).toBe(REPORTS_TEXT.agentUnknown);
      }
    }
  });

  it('a reason not in the list', async () => {
    // A reason's words, not its value, are no reason either.
    for (const reason of ['Refund', 'general', 'Incident Report']) {
      for (const endpoint of [reportsApi.report, reportsApi.tickets, reportsApi.csv]) {
        const res = await a1.get(pathOf(endpoint, { query: { ...range, reason } }));
        expect(res.statusCode, `${endpoint.path}?reason=${reason}`).toBe(400);
        expect(res.json().error.fields.reason).toBe(REPORTS_TEXT.reasonUnknown);
      }
    }
  });
});

describe('the pages choose the filters, say so, and keep them in every link', () => {
  const page = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { ...a1.headers, accept: 'text/html' } });
    expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
    return res.body.replace(/<!-- -->/g, '').replace(/&amp;/g, '&');
  };
  const hrefs = (html: string, start: string) =>
    [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!).filter((href) => href.startsWith(start));
  /** The error a field of this name shows: the paragraph its control is described by. */
  const fieldError = (html: string, name: string) => {
    const control = new RegExp(`<select[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? '';
    const id = /aria-describedby="([^" ]*-error)/.exec(control)?.[1];
    expect(control, `the ${name} field`).toContain('aria-invalid="true"');
    return new RegExp(`id="${id}">([^<]*)<`).exec(html)?.[1];
  };

  it('the report: both chosen in its GET form, in words by the range, in every figure’s link and the CSVs', async () => {
    const filters = `reason=Incident&agent=${a1.id}`;
    const html = await page(`/admin/reports?from=${range.from}&to=${range.to}&${filters}`);
    expect(html).toMatch(/<form[^>]*method="get"/);
    expect(html).toMatch(/<option value="Incident" selected="">Incident Report<\/option>/);
    expect(html).toContain(`<option value="${a1.id}" selected="">${a1.email}</option>`);
    expect(html).toContain(`<option value="${a2.id}">${a2.email}</option>`);
    expect(html).toContain(`${REPORTS_TEXT.reasonOnly('Incident Report')} ${REPORTS_TEXT.agentOnly(a1.email)}`);
    const figures = hrefs(html, '/admin/reports/tickets?');
    expect(figures.length).toBeGreaterThan(7 * 24);
    for (const href of figures) expect(href).toContain(filters);
    for (const href of hrefs(html, '/api/admin/reports/')) expect(href).toContain(filters);
    // The presets: the last 7, 28 and 90 days of the same tickets.
    expect(hrefs(html, '/admin/reports?').filter((href) => href.endsWith(filters))).toHaveLength(3);
  });

  it('a figure’s list: the same tickets, a form to narrow them, and the way back with the filters', async () => {
    const filters = `reason=Incident&agent=${a1.id}`;
    const html = await page(`/admin/reports/tickets?from=${range.from}&to=${range.to}&${filters}&figure=created`);
    expect(html).toContain(`#${ticket.I1!.ticketNo}`);
    for (const key of ['G1', 'G2', 'I2', 'D1']) expect(html).not.toContain(`#${ticket[key]!.ticketNo}<`);
    expect(html).toContain(REPORTS_TEXT.reasonOnly('Incident Report'));
    expect(html).toContain('<input type="hidden" name="figure" value="created"/>');
    expect(hrefs(html, '/admin/reports?')).toEqual([`/admin/reports?from=${range.from}&to=${range.to}&${filters}`]);
  });

  it('an unknown reason or assignee: said on its field', async () => {
    const reason = await page(`/admin/reports?from=${range.from}&to=${range.to}&reason=Refund`);
    expect(fieldError(reason, 'reason')).toBe(REPORTS_TEXT.reasonUnknown);
    const nobody = '00000000-0000-4000-8000-000000000000';
    const agent = await page(`/admin/reports?from=${range.from}&to=${range.to}&agent=${nobody}`);
    expect(fieldError(agent, 'agent')).toBe(REPORTS_TEXT.agentUnknown);
    const list = await page(`/admin/reports/tickets?from=${range.from}&to=${range.to}&figure=created&agent=${nobody}`);
    expect(fieldError(list, 'agent')).toBe(REPORTS_TEXT.agentUnknown);
  });
});
