import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_TEXT } from '../../../src/contracts/desk.ts';
import type { AdminTicket } from '../../../src/contracts/support.schemas.ts';
import { newZealandDate, privacyDueDate } from '../../../src/server/modules/privacy/privacy-clock.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Privacy requests in the inbox: their due date (20 working days), the Overdue flag, the filter and the sort. */
const clock = movableClock();
let t: TestApp;
let alice: SupportUser;
let admin: SupportUser;
beforeAll(async () => {
  t = await createTestApp({ web: true, clock, env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  [alice, admin] = await Promise.all([supportUser(t), supportUser(t, { role: 'admin' })]);
});
afterAll(() => t.close());

const ticketOf = async (ticketId: string) =>
  (await admin.get(`/api/admin/support/tickets/${ticketId}`)).json<{ ticket: AdminTicket }>().ticket;
const inbox = async (query: string) =>
  (await admin.get(`/api/admin/support/tickets?${query}`)).json<{ tickets: AdminTicket[] }>().tickets;
const arrivedDaysAgo = (ticketId: string, days: number) =>
  t.database.db.execute(
    sql`update support_tickets set creation_date = now() - make_interval(days => ${days}) where id = ${ticketId}`,
  );

describe('privacy requests', () => {
  it('a Deactivation ticket is one, due 20 working days after it arrived; others are not', async () => {
    const deactivation = await alice.createTicket('Deactivation', 'Please delete my account and my data.');
    const general = await alice.createTicket('General', 'Where is my parcel?');
    const ticket = await ticketOf(deactivation.ticketId);
    expect(ticket.privacyDue).toBe(privacyDueDate(new Date(ticket.creationDate)));
    expect(ticket.privacyDue! > newZealandDate(new Date())).toBe(true);
    expect(ticket.overdue).toBe(false);
    expect(await ticketOf(general.ticketId)).toMatchObject({ privacyDue: null, overdue: false });
    // The owner's own view has no such fields.
    const own = (await alice.get(`/api/support/tickets/${deactivation.ticketId}`)).json().ticket;
    expect(own).not.toHaveProperty('privacyDue');
  });

  it('an admin marks any ticket one (audited) and can unmark it, but not a Deactivation ticket', async () => {
    const { ticketId } = await alice.createTicket('General', 'What do you hold about me?');
    const marked = await admin.post(`/api/admin/support/tickets/${ticketId}/privacy`, { privacy: true });
    expect(marked.statusCode).toBe(200);
    expect(marked.json().ticket.privacyDue).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const audit = (await admin.get('/api/admin/audit?targetType=ticket')).json().entries as Array<{
      action: string;
      targetId: string;
    }>;
    expect(audit.find((e) => e.targetId === ticketId)?.action).toBe('ticket.privacy');
    const unmarked = await admin.post(`/api/admin/support/tickets/${ticketId}/privacy`, { privacy: false });
    expect(unmarked.json().ticket.privacyDue).toBeNull();

    const deactivation = await alice.createTicket('Deactivation', 'Close my account, please.');
    const refused = await admin.post(`/api/admin/support/tickets/${deactivation.ticketId}/privacy`, { privacy: false });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe(DESK_TEXT.deactivationIsPrivacy);
    expect((await alice.post(`/api/admin/support/tickets/${ticketId}/privacy`, { privacy: true })).statusCode).toBe(
      403,
    );
  });

  it('the inbox lists open privacy requests soonest due first, flags and filters the overdue ones', async () => {
    const old = await alice.createTicket('Deactivation', 'I asked weeks ago to be deleted.');
    const recent = await alice.createTicket('Deactivation', 'Delete me too.');
    const marked = await alice.createTicket('Incident', 'Also tell me what you hold.');
    await admin.post(`/api/admin/support/tickets/${marked.ticketId}/privacy`, { privacy: true });
    await arrivedDaysAgo(old.ticketId, 60);
    await arrivedDaysAgo(marked.ticketId, 10);

    const due = await inbox('open=true&privacy=due');
    const ids = due.map((ticket) => ticket.id);
    expect(ids.indexOf(old.ticketId)).toBeLessThan(ids.indexOf(marked.ticketId));
    expect(ids.indexOf(marked.ticketId)).toBeLessThan(ids.indexOf(recent.ticketId));
    expect(due.every((ticket) => ticket.privacyDue !== null && ticket.open)).toBe(true);
    const dates = due.map((ticket) => ticket.privacyDue!);
    expect(dates).toEqual([...dates].sort());

    const overdue = await inbox('open=true&privacy=overdue');
    expect(overdue.map((ticket) => ticket.id)).toContain(old.ticketId);
    expect(overdue.every((ticket) => ticket.overdue)).toBe(true);
    expect(overdue.map((ticket) => ticket.id)).not.toContain(recent.ticketId);

    // Closed, it is answered: no longer overdue, and out of the privacy list.
    await admin.post(`/api/admin/support/tickets/${old.ticketId}/close`);
    expect((await ticketOf(old.ticketId)).overdue).toBe(false);
    expect((await inbox('open=true&privacy=due')).map((ticket) => ticket.id)).not.toContain(old.ticketId);
  });

  it('the console page marks one without JavaScript, and shows the date', async () => {
    const { ticketId } = await alice.createTicket('General', 'Please correct my name.');
    const posted = await t.app.inject({
      method: 'POST',
      url: `/admin/support/${ticketId}`,
      payload: new URLSearchParams({ intent: 'privacy', privacy: 'true' }).toString(),
      headers: {
        accept: 'text/html',
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://localhost:80',
        ...admin.headers,
      },
    });
    expect(posted.statusCode).toBe(303);
    const due = (await ticketOf(ticketId)).privacyDue!;
    const page = await t.app.inject({
      method: 'GET',
      url: `/admin/support/${ticketId}`,
      headers: { accept: 'text/html', ...admin.headers },
    });
    expect(page.body).toContain(DESK_TEXT.privacyRequest);
    expect(page.body).toContain(DESK_TEXT.unmarkPrivacy);
    expect(due).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('is overdue by the app clock: a request turns overdue when the clock passes its due date, live and in the list', async () => {
    const request = await alice.createTicket('Deactivation', 'Please erase everything you hold on me.');
    const due = (await ticketOf(request.ticketId)).privacyDue!;
    expect((await ticketOf(request.ticketId)).overdue).toBe(false);
    expect((await inbox('open=true&privacy=overdue')).map((ticket) => ticket.id)).not.toContain(request.ticketId);
    // The day after its due date in New Zealand (midday there, whatever the server's zone).
    const dayAfter = new Date(`${due}T00:00:00Z`);
    dayAfter.setUTCDate(dayAfter.getUTCDate() + 1);
    clock.set(new Date(dayAfter.getTime()));
    expect(newZealandDate(clock.now()) > due).toBe(true);
    expect((await ticketOf(request.ticketId)).overdue).toBe(true);
    expect((await inbox('open=true&privacy=overdue')).map((ticket) => ticket.id)).toContain(request.ticketId);
  });
});
