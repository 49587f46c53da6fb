import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serviceLevelsApi } from '../../../src/contracts/api/service-levels.ts';
import { formatNzDueTime } from '../../../src/contracts/dates.ts';
import { DEFAULT_TARGETS } from '../../../src/contracts/service-levels.ts';
import { DUE_TEXT, dueWords } from '../../../src/contracts/due-times.ts';
import type { AdminTicket } from '../../../src/contracts/support.schemas.ts';
import { addDays, instantOf, newZealandDate } from '../../../src/server/calendar/business-calendar.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { type SupportUser, supportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Due times in the admin inbox and on a ticket: each waiting ticket's next due time (the earlier of
 * its response and resolution), the inbox sorted by it, and the Late and Due today filters, all
 * read against the app's clock, which these tests move.
 */

const clock = movableClock();
let t: TestApp;
let user: SupportUser;
let admin: SupportUser;

beforeAll(async () => {
  t = await createTestApp({
    clock,
    web: true,
    mailWorker: false,
    serviceLevelWorker: false,
    env: { TICKETS_PER_USER_PER_HOUR: '1000' },
  });
  [user, admin] = await Promise.all([supportUser(t), supportUser(t, { role: 'admin' })]);
});
afterAll(() => t.close());
// Every test starts at the real time.
afterEach(() => clock.set(new Date()));

interface List {
  tickets: AdminTicket[];
  now: string;
}
const inbox = async (query: string): Promise<List> => {
  const res = await admin.get(`/api/admin/support/tickets?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<List>();
};
const ids = (list: List) => list.tickets.map((ticket) => ticket.id);
const ticketOf = async (ticketId: string) => {
  const res = await admin.get(`/api/admin/support/tickets/${ticketId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ ticket: AdminTicket; now: string }>();
};
/** The open wait as the database keeps it. */
const openWait = async (ticketId: string) => {
  const [wait] = await queryRows<{ id: number; response_due: string; resolution_due: string; due_at: string }>(
    t.database.db,
    sql`select id, response_due::text, resolution_due::text, due_at::text
        from ticket_waits where ticket_id = ${ticketId} and ended_at is null`,
  );
  return wait ?? null;
};
const instant = (text: string) => new Date(text).toISOString();
const answer = (ticketId: string, messageBody: string) =>
  admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody });

describe('each waiting ticket carries its next due time', () => {
  it('first response while unanswered; nothing once answered; next response after a reply; nothing once closed', async () => {
    const { ticketId } = await user.createTicket('Incident', 'The strap of my bag snapped at the airport.');
    const wait = (await openWait(ticketId))!;
    const before = Date.now();
    const listed = await inbox('open=true');
    // The list says the server's time, so a page words due times as the server does.
    expect(Math.abs(Date.parse(listed.now) - before)).toBeLessThan(5_000);
    const row = listed.tickets.find((ticket) => ticket.id === ticketId)!;
    expect(row.due).toEqual({ at: instant(wait.response_due), target: 'firstResponse', warned: null });
    // An Incident's first response (2 business hours) comes before its resolution (16).
    expect(Date.parse(row.due!.at)).toBeLessThan(Date.parse(wait.resolution_due));
    const page = await ticketOf(ticketId);
    expect(page.ticket.due).toEqual(row.due);
    expect(page.now).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    expect((await answer(ticketId, 'Sorry to hear that! Send us a photo.')).statusCode).toBe(200);
    expect((await ticketOf(ticketId)).ticket.due).toBeNull();
    expect((await inbox('open=true')).tickets.find((ticket) => ticket.id === ticketId)!.due).toBeNull();

    expect(
      (await user.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'Here is the photo.' })).statusCode,
    ).toBe(200);
    const next = (await openWait(ticketId))!;
    expect((await ticketOf(ticketId)).ticket.due).toEqual({
      at: instant(next.response_due),
      target: 'nextResponse',
      warned: null,
    });

    expect((await admin.post(`/api/admin/support/tickets/${ticketId}/close`)).statusCode).toBe(200);
    expect((await ticketOf(ticketId)).ticket.due).toBeNull();
    expect((await inbox('open=false')).tickets.find((ticket) => ticket.id === ticketId)!.due).toBeNull();
  });

  it('names the resolution when it comes first, and the warnings already sent about it', async () => {
    const put = (body: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: serviceLevelsApi.saveTargets.path,
        headers: { ...admin.headers, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    const quick = structuredClone(DEFAULT_TARGETS);
    quick.General = { firstResponse: 120, nextResponse: 120, resolution: 60 };
    expect((await put(quick)).statusCode).toBe(200);
    try {
      const { ticketId } = await user.createTicket('General', 'Can you resolve this within the hour?');
      const wait = (await openWait(ticketId))!;
      expect(Date.parse(wait.resolution_due)).toBeLessThan(Date.parse(wait.response_due));
      expect((await ticketOf(ticketId)).ticket.due).toEqual({
        at: instant(wait.resolution_due),
        target: 'resolution',
        warned: null,
      });

      // The warnings (written by the service-level worker) about this target; one about the other
      // target is not this due time's.
      const warn = (target: string, moment: string) =>
        t.database.db.execute(
          sql`insert into service_level_alerts (wait_id, ticket_id, target, moment, due_at)
              values (${wait.id}, ${ticketId}, ${target}, ${moment}, ${wait.due_at}::timestamptz)`,
        );
      await warn('response', 'soon');
      expect((await ticketOf(ticketId)).ticket.due!.warned).toBeNull();
      await warn('resolution', 'soon');
      expect((await ticketOf(ticketId)).ticket.due!.warned).toBe('soon');
      await warn('resolution', 'missed');
      expect((await inbox('open=true')).tickets.find((ticket) => ticket.id === ticketId)!.due!.warned).toBe('missed');
    } finally {
      expect((await put(DEFAULT_TARGETS)).statusCode).toBe(200);
    }
  });
});

describe('the inbox sorted and filtered by due time', () => {
  it('sort=due: soonest due first, then the tickets with nothing due, newest message first', async () => {
    const general = await user.createTicket('General', 'When does my parcel leave Auckland?');
    const incident = await user.createTicket('Incident', 'My suitcase came back with a broken wheel.');
    const answered = await user.createTicket('General', 'Do you ship to the Chatham Islands?');
    expect((await answer(answered.ticketId, 'Yes, we do.')).statusCode).toBe(200);

    const sorted = await inbox('open=true&sort=due');
    const dues = sorted.tickets.map((ticket) => ticket.due);
    const firstNothing = dues.findIndex((due) => due === null);
    const due = dues.slice(0, firstNothing).map((d) => Date.parse(d!.at));
    expect(due).toEqual([...due].sort((a, b) => a - b));
    expect(dues.slice(firstNothing).every((d) => d === null)).toBe(true);
    const order = ids(sorted);
    // The Incident is due within two business hours, the General enquiry within eight.
    expect(order.indexOf(incident.ticketId)).toBeLessThan(order.indexOf(general.ticketId));
    expect(order.indexOf(answered.ticketId)).toBeGreaterThan(firstNothing - 1);
    const nothingDue = sorted.tickets.slice(firstNothing).map((ticket) => Date.parse(ticket.lastMessage));
    expect(nothingDue).toEqual([...nothingDue].sort((a, b) => b - a));

    // Without it, newest last message first, as ever.
    const recent = ids(await inbox('open=true'));
    expect(recent.indexOf(answered.ticketId)).toBeLessThan(recent.indexOf(incident.ticketId));
    expect(recent.indexOf(incident.ticketId)).toBeLessThan(recent.indexOf(general.ticketId));
  });

  it('due=late and due=today follow the clock; answering takes a ticket out of them', async () => {
    const { ticketId } = await user.createTicket('Incident', 'Someone else’s bag was delivered to me.');
    const wait = (await openWait(ticketId))!;
    const dueAt = new Date(instant(wait.due_at));
    const resolutionDueAt = new Date(instant(wait.resolution_due));
    expect(ids(await inbox('open=true&due=late'))).not.toContain(ticketId);

    // A minute before it is due (the same New Zealand day, within opening hours): due today, not late.
    clock.set(new Date(dueAt.getTime() - 60_000));
    let today = await inbox('open=true&due=today');
    expect(ids(today)).toContain(ticketId);
    expect(ids(await inbox('open=true&due=late'))).not.toContain(ticketId);
    const endOfDay = instantOf(addDays(newZealandDate(new Date(today.now)), 1), 0);
    for (const ticket of today.tickets) {
      expect(Date.parse(ticket.due!.at)).toBeGreaterThan(Date.parse(today.now));
      expect(Date.parse(ticket.due!.at)).toBeLessThanOrEqual(endOfDay.getTime());
    }
    expect(dueWords(dueAt, new Date(today.now))).toBe('due in 1 min');

    // 35 minutes past it: late, and no longer due today.
    clock.set(new Date(dueAt.getTime() + 35 * 60_000));
    const late = await inbox('open=true&due=late&sort=due');
    expect(ids(late)).toContain(ticketId);
    expect(late.tickets.every((ticket) => Date.parse(ticket.due!.at) <= Date.parse(late.now))).toBe(true);
    expect(dueWords(dueAt, new Date(late.now))).toBe('late by 35 min');
    today = await inbox('open=true&due=today');
    expect(ids(today)).not.toContain(ticketId);

    // The console's page says so without JavaScript, worded from the server's clock.
    const html = async (url: string) =>
      (await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...admin.headers } })).body;
    const page = await html('/admin/support?due=late&sort=due');
    expect(page).toContain('late by 35 min');
    expect(page).toContain(`>${DUE_TEXT.late}<`);
    const ticketPage = await html(`/admin/support/${ticketId}`);
    // Each due time under its label: the first answer's (late), then the resolution's.
    const answerDue = `<dt>${DUE_TEXT.dueLabel.firstResponse}</dt>`;
    const resolutionDue = `<dt>${DUE_TEXT.dueLabel.resolution}</dt>`;
    expect(ticketPage).toContain(answerDue);
    expect(ticketPage).toContain(resolutionDue);
    expect(ticketPage.indexOf(answerDue)).toBeLessThan(ticketPage.indexOf(resolutionDue));
    expect(ticketPage).toContain(DUE_TEXT.dueAt(formatNzDueTime(dueAt), 'late by 35 min'));
    expect(ticketPage).toContain(
      DUE_TEXT.dueAt(formatNzDueTime(resolutionDueAt), dueWords(resolutionDueAt, new Date(late.now))),
    );

    expect((await answer(ticketId, 'So sorry: a courier is on the way to swap them.')).statusCode).toBe(200);
    expect(ids(await inbox('open=true&due=late'))).not.toContain(ticketId);
  });

  it('refuses values it does not know', async () => {
    for (const query of ['open=true&due=soon', 'open=true&sort=oldest']) {
      const res = await admin.get(`/api/admin/support/tickets?${query}`);
      expect(res.statusCode, query).toBe(400);
    }
  });
});
