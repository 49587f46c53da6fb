import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { openDatabase } from '../../../src/server/db/connection.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { readOutbox, type ReadMail } from '../../helpers/mail.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp, testDatabaseKind } from '../../helpers/test-app.ts';

/**
 * The service levels' warnings as the team receives them: 'due soon' SLA_WARNING_MINUTES (30)
 * before a due time and 'late' at it, each mailed once to the ticket's assignee, or to every admin
 * (opt-outs honoured) while it is nobody's; nothing once answered or closed; only 'late' when the
 * server was down past the due time. The test moves the app's clock and runs the worker's rounds
 * itself; the mail worker delivers to the outbox folder, read as a mail program would.
 */
const clock = movableClock();
let t: TestApp;
let admins: SupportUser[];

beforeAll(async () => {
  t = await createTestApp({
    clock,
    serviceLevelWorker: false,
    mailWorker: false,
    env: { AUTO_CLOSE_WORKING_DAYS: '0', TICKETS_PER_USER_PER_HOUR: '1000' },
  });
  admins = await Promise.all([1, 2].map(() => supportUser(t, { role: 'admin' })));
});
afterAll(() => t?.close());

const MINUTE = 60_000;
const NZ_CLOCK = new Intl.DateTimeFormat('en-NZ', { timeZone: 'Pacific/Auckland', hour: 'numeric', minute: '2-digit' });

/** A round of the worker, then the mail it recorded delivered. */
async function round(app = t.app) {
  await app.serviceLevelWorker.run();
  await t.app.mailWorker.runOnce();
}

/** The warnings about one ticket that reached the outbox folder, oldest first. */
async function warningsAbout(ticketNo: number): Promise<ReadMail[]> {
  return (await readOutbox(t.dataDir)).filter((m) => m.subject.startsWith(`Ticket #${ticketNo} (`));
}
const recipients = (mails: ReadMail[]) => mails.map((m) => m.to.toLowerCase()).sort();
const emailOf = (person: { email: string }) => person.email.toLowerCase();

async function openWait(ticketId: string) {
  // PostgreSQL keeps microseconds and a Date milliseconds: each due time is read rounded up to its
  // next millisecond, so a clock set to it has reached it (read as text it was cut down, and a clock
  // set 30 minutes before it was still short of the warning by less than a millisecond).
  const [wait] = await queryRows<{ id: unknown; response_ms: unknown; resolution_ms: unknown }>(
    t.database.db,
    sql`select id, ceil(extract(epoch from response_due) * 1000)::float8 as response_ms,
               ceil(extract(epoch from resolution_due) * 1000)::float8 as resolution_ms
        from ticket_waits where ticket_id = ${ticketId} and ended_at is null`,
  );
  if (!wait) throw new Error('the ticket has no open wait');
  return {
    id: Number(wait.id),
    response: new Date(Number(wait.response_ms)),
    resolution: new Date(Number(wait.resolution_ms)),
  };
}

async function newTicket(reason: 'General' | 'Incident' = 'Incident') {
  const user = await supportUser(t);
  const created = await user.createTicket(reason, 'My bag arrived torn at the seams.');
  return { user, ...created };
}

async function assign(ticketId: string, to: SupportUser) {
  const res = await to.post(`/api/admin/support/tickets/${ticketId}/assign`, { assignee: 'me' });
  expect(res.statusCode, res.body).toBe(200);
}

describe('warnings before and after a due time', () => {
  it('tells the assignee "due soon" and then "late", each once, and nothing after the answer', async () => {
    const [assignee, other] = admins as [SupportUser, SupportUser];
    const { ticketId, ticketNo } = await newTicket('Incident');
    await assign(ticketId, assignee);
    const due = await openWait(ticketId);

    clock.set(new Date(due.response.getTime() - 31 * MINUTE));
    await round();
    expect(await warningsAbout(ticketNo)).toEqual([]);

    clock.set(new Date(due.response.getTime() - 30 * MINUTE));
    await round();
    let mails = await warningsAbout(ticketNo);
    expect(mails.map((m) => m.subject)).toEqual([`Ticket #${ticketNo} (Incident Report) is due in 30 min`]);
    expect(recipients(mails)).toEqual([emailOf(assignee)]);
    expect(mails[0]!.text).toContain(`first response on ticket #${ticketNo} (Incident Report) is due at`);
    expect(mails[0]!.text).toContain(`${t.config.publicBaseUrl}/admin/support/${ticketId}`);
    expect(mails[0]!.text).toContain(`ticket #${ticketNo} is assigned to you`);
    expect(mails[0]!.headers['list-unsubscribe']).toMatch(/\/unsubscribe\//);

    // Another round at the same moment, and another a minute on: told already.
    await round();
    clock.advance(MINUTE);
    await round();
    expect(await warningsAbout(ticketNo)).toHaveLength(1);

    clock.set(new Date(due.response.getTime() + 1000));
    await round();
    await round();
    mails = await warningsAbout(ticketNo);
    expect(mails.map((m) => m.subject)).toEqual([
      `Ticket #${ticketNo} (Incident Report) is due in 30 min`,
      `Ticket #${ticketNo} (Incident Report) is late: first response was due at ${NZ_CLOCK.format(due.response)}`,
    ]);
    expect(recipients(mails)).toEqual([emailOf(assignee), emailOf(assignee)]);

    // The resolution has its own warnings.
    clock.set(new Date(due.resolution.getTime() - 30 * MINUTE));
    await round();
    mails = await warningsAbout(ticketNo);
    expect(mails).toHaveLength(3);
    expect(mails[2]!.subject).toBe(`Ticket #${ticketNo} (Incident Report) is due in 30 min`);
    expect(mails[2]!.text).toContain(`resolution on ticket #${ticketNo} (Incident Report) is due at`);

    // The answer ends the wait: its resolution is never told late.
    const answered = await assignee.post(`/api/admin/support/tickets/${ticketId}/messages`, {
      messageBody: 'We have sent a courier for the bag.',
    });
    expect(answered.statusCode, answered.body).toBe(200);
    clock.set(new Date(due.resolution.getTime() + 5 * MINUTE));
    await round();
    expect(await warningsAbout(ticketNo)).toHaveLength(3);
    expect((await warningsAbout(ticketNo)).filter((m) => emailOf(other) === m.to.toLowerCase())).toEqual([]);
  });

  it('tells every admin while nobody has the ticket, except one who switched team mail off', async () => {
    const quiet = await supportUser(t, { role: 'admin' });
    const off = await t.app.inject({
      method: 'PUT',
      url: '/api/account/notifications',
      headers: { ...quiet.headers, 'content-type': 'application/json' },
      payload: { team: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    const { ticketId, ticketNo } = await newTicket('General');
    const due = await openWait(ticketId);

    clock.set(new Date(due.response.getTime() - 29 * MINUTE));
    await round();
    const mails = await warningsAbout(ticketNo);
    expect(mails.map((m) => m.subject)).toEqual(
      admins.map(() => `Ticket #${ticketNo} (General Enquiry) is due in 29 min`),
    );
    expect(recipients(mails)).toEqual(admins.map(emailOf).sort());
    expect(mails[0]!.text).toContain('you are on the');
  });

  it('tells only "late" when the server was down past the due time, and records "due soon" as passed', async () => {
    const [assignee] = admins as [SupportUser];
    const { ticketId, ticketNo } = await newTicket('Incident');
    await assign(ticketId, assignee);
    const due = await openWait(ticketId);

    clock.set(new Date(due.response.getTime() + 10 * MINUTE));
    await round();
    await round();
    const mails = await warningsAbout(ticketNo);
    expect(mails.map((m) => m.subject)).toEqual([
      `Ticket #${ticketNo} (Incident Report) is late: first response was due at ${NZ_CLOCK.format(due.response)}`,
    ]);
    const alerts = await queryRows<{ target: string; moment: string }>(
      t.database.db,
      sql`select target, moment from service_level_alerts where wait_id = ${due.id} order by target, moment`,
    );
    expect(alerts).toEqual([
      { target: 'response', moment: 'missed' },
      { target: 'response', moment: 'soon' },
    ]);
  });

  it('tells nothing about a closed ticket', async () => {
    const [admin] = admins as [SupportUser];
    const { ticketId, ticketNo } = await newTicket('Incident');
    const due = await openWait(ticketId);
    const closed = await admin.post(`/api/admin/support/tickets/${ticketId}/close`);
    expect(closed.statusCode, closed.body).toBe(200);

    clock.set(new Date(due.resolution.getTime() + 60 * MINUTE));
    await round();
    expect(await warningsAbout(ticketNo)).toEqual([]);
  });
});

describe.runIf(testDatabaseKind === 'postgres')('two app instances on one database', () => {
  it('running their rounds at the same time tell each moment once', async () => {
    const second = await openDatabase({ kind: 'postgres', url: t.databaseUrl! });
    const other = await buildApp({
      config: t.config,
      database: second,
      startMailWorker: false,
      startServiceLevelWorker: false,
      clock,
    });
    await other.ready();
    try {
      const [assignee] = admins as [SupportUser];
      const tickets = [];
      for (let i = 0; i < 12; i++) {
        const ticket = await newTicket('Incident');
        // Half of them are someone's: one mail a moment; the rest go to the whole team.
        if (i % 2 === 0) await assign(ticket.ticketId, assignee);
        tickets.push({ ...ticket, assigned: i % 2 === 0, due: await openWait(ticket.ticketId) });
      }
      const latest = Math.max(...tickets.map((ticket) => ticket.due.response.getTime()));
      const team = (
        await queryRows<{ email: string }>(
          t.database.db,
          sql`select u.email from users u where u.role = 'admin' and not exists (
                select 1 from notification_opt_outs o where o.user_id = u.id and o.kind = 'team')`,
        )
      ).map((r) => r.email.toLowerCase());

      const together = () =>
        Promise.all([t.app.serviceLevelWorker.run(), other.serviceLevelWorker.run(), other.serviceLevelWorker.run()]);
      clock.set(new Date(latest - 20 * MINUTE));
      await together();
      await together();
      clock.set(new Date(latest + MINUTE));
      await together();
      await together();
      await t.app.mailWorker.runOnce();

      for (const ticket of tickets) {
        const mails = await warningsAbout(ticket.ticketNo);
        const told = ticket.assigned ? [emailOf(assignee)] : [...team].sort();
        const soon = mails.filter((m) => m.subject.includes(' is due in '));
        const late = mails.filter((m) => m.subject.includes(' is late: '));
        expect(recipients(soon), `ticket #${ticket.ticketNo} due soon`).toEqual(told);
        expect(recipients(late), `ticket #${ticket.ticketNo} late`).toEqual(told);
      }
    } finally {
      await other.close();
      await second.close();
    }
  });
});
