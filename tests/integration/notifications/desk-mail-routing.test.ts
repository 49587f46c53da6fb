import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_TEXT } from '../../../src/contracts/desk.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { deliverDueMail, linkIn } from '../../helpers/mail.ts';
import { untilWaitingOnALock } from '../../helpers/postgres.ts';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp, testDatabaseKind } from '../../helpers/test-app.ts';

/**
 * The desk's mail as its recipients see it, over a real SMTP server: a user's reply reaches the
 * admin handling the ticket (everyone while nobody does); a closed ticket's mail asks how we did;
 * a reopen is told; and a close or reopen undone within the wait is told not at all. The worker is
 * run by the test, and the wait (60 s here, as in production) is passed by moving the pending
 * notices' due time, never by sleeping.
 */
let sink: SmtpSink;
let t: TestApp;
let admins: SupportUser[];
beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({
    web: true,
    env: { SMTP_URL: sink.url, NOTIFY_DELAY_SECONDS: '60', TICKETS_PER_USER_PER_HOUR: '1000' },
    mailWorker: false,
  });
  admins = await Promise.all([1, 2, 3].map(() => supportUser(t, { role: 'admin' })));
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

const received = (subject: string) => sink.messages.filter((m) => m.subject === subject);
const to = (person: { email: string }) => person.email.toLowerCase();
const recipientsOf = (subject: string) => received(subject).flatMap((m) => m.envelopeTo.map((a) => a.toLowerCase()));

/** The wait before a ticket's pending notices are due, passed: they are due now. */
async function passTheWait(ticketId: string) {
  await t.database.db.execute(sql`update notification_events set due_at = now() where ticket_id = ${ticketId}`);
}

/** The notices about a ticket's close or reopen still waiting to be mailed. */
async function pendingNotices(ticketId: string) {
  const rows = await queryRows<{ kind: string }>(
    t.database.db,
    sql`select kind from notification_events
        where ticket_id = ${ticketId} and kind in ('ticket-closed', 'ticket-reopened') order by id`,
  );
  return rows.map((r) => r.kind);
}

async function userReply(user: SupportUser, ticketId: string, messageBody: string) {
  const res = await user.post(`/api/support/tickets/${ticketId}/messages`, { messageBody });
  expect(res.statusCode, res.body).toBe(200);
}

async function setOpen(ticketId: string, open: boolean) {
  const res = await admins[0]!.post(`/api/admin/support/tickets/${ticketId}/${open ? 'reopen' : 'close'}`);
  expect(res.statusCode, res.body).toBe(200);
}

async function switchOff(person: SupportUser, settings: Record<string, boolean>) {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/account/notifications',
    headers: { ...person.headers, 'content-type': 'application/json' },
    payload: settings,
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('a user’s reply', () => {
  it('on an assigned ticket reaches its assignee only', async () => {
    const [, assignee] = admins as [SupportUser, SupportUser, SupportUser];
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('Incident', 'My bag arrived wet.');
    const assigned = await assignee.post(`/api/admin/support/tickets/${ticketId}/assign`, { assignee: 'me' });
    expect(assigned.statusCode, assigned.body).toBe(200);
    await userReply(user, ticketId, 'Here is a photo of it.');
    await deliverDueMail(t.app);

    // The new ticket itself still went to the whole team.
    expect(recipientsOf(`New ticket #${ticketNo}: Incident Report`).sort()).toEqual(admins.map(to).sort());
    const replies = received(`New reply from a user on ticket #${ticketNo}`);
    expect(replies.flatMap((m) => m.envelopeTo)).toEqual([to(assignee)]);
    expect(replies[0]!.text).toContain('> Here is a photo of it.');
    expect(replies[0]!.text).toContain(`ticket #${ticketNo} is assigned to you`);
    expect(linkIn(replies[0]!, `${t.config.publicBaseUrl}/admin/support/`)).toBe(
      `${t.config.publicBaseUrl}/admin/support/${ticketId}`,
    );
  });

  it('on an unassigned ticket reaches every admin, once each', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Can I send a guitar?');
    // Assigned and then handed back: nobody's again.
    await admins[1]!.post(`/api/admin/support/tickets/${ticketId}/assign`, { assignee: 'me' });
    await admins[1]!.post(`/api/admin/support/tickets/${ticketId}/assign`, { assignee: null });
    await userReply(user, ticketId, 'It is in a hard case.');
    await deliverDueMail(t.app);

    const replies = received(`New reply from a user on ticket #${ticketNo}`);
    expect(recipientsOf(`New reply from a user on ticket #${ticketNo}`).sort()).toEqual(admins.map(to).sort());
    for (const mail of replies) {
      expect(mail.text).toContain('> It is in a hard case.');
      expect(mail.text).toContain(`you are on the ${t.config.companyName} support team`);
    }
  });

  it('reaches nobody when its assignee switched team mail off (their choice, as before)', async () => {
    const quiet = await supportUser(t, { role: 'admin' });
    await switchOff(quiet, { team: false });
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Quiet one.');
    expect((await quiet.post(`/api/admin/support/tickets/${ticketId}/assign`, { assignee: 'me' })).statusCode).toBe(
      200,
    );
    await userReply(user, ticketId, 'Anyone there?');
    await deliverDueMail(t.app);
    expect(received(`New reply from a user on ticket #${ticketNo}`)).toHaveLength(0);
    expect(await pendingNotices(ticketId)).toEqual([]);
  });
});

describe('a closed ticket', () => {
  it('is told after the wait, asking “How did we do?” with a link to the rating that records nothing by itself', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('General', 'All sorted, thanks.');
    await setOpen(ticketId, false);
    await deliverDueMail(t.app);
    expect(received(`Ticket #${ticketNo} was closed`)).toHaveLength(0);

    await passTheWait(ticketId);
    await deliverDueMail(t.app);
    const mails = received(`Ticket #${ticketNo} was closed`);
    expect(mails.flatMap((m) => m.envelopeTo)).toEqual([to(user)]);
    const mail = mails[0]!;
    const ratingUrl = `${t.config.publicBaseUrl}/support/ticket/${ticketId}#rating`;
    expect(mail.text).toContain(DESK_TEXT.rateTitle);
    expect(linkIn(mail, `${t.config.publicBaseUrl}/support/ticket/`)).toBe(ratingUrl);
    expect(mail.html).toContain(DESK_TEXT.rateTitle);
    expect(mail.html).toContain(`href="${ratingUrl}"`);

    // Opening the link (as a mail scanner would) shows the form and its buttons, and rates nothing.
    const page = await t.app.inject({
      method: 'GET',
      url: new URL(ratingUrl).pathname,
      headers: { ...user.headers, accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('id="rating"');
    expect(page.body).toContain(DESK_TEXT.sendRating);
    expect(page.body).toMatch(/<input[^>]*type="radio"[^>]*name="good"/);
    const ticket = await user.get(`/api/support/tickets/${ticketId}`);
    expect(ticket.json().ticket.rating).toBeNull();
  });
});

describe('a reopened ticket', () => {
  it('is told after the wait: “Ticket #N was reopened”, with the link to the ticket', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Is it done?');
    await setOpen(ticketId, false);
    await passTheWait(ticketId);
    await deliverDueMail(t.app);
    expect(received(`Ticket #${ticketNo} was closed`)).toHaveLength(1);

    await setOpen(ticketId, true);
    await deliverDueMail(t.app);
    expect(received(`Ticket #${ticketNo} was reopened`)).toHaveLength(0);
    await passTheWait(ticketId);
    await deliverDueMail(t.app);
    const mails = received(`Ticket #${ticketNo} was reopened`);
    expect(mails.flatMap((m) => m.envelopeTo)).toEqual([to(user)]);
    expect(mails[0]!.text).toContain(`reopened your ticket #${ticketNo}`);
    expect(linkIn(mails[0]!, `${t.config.publicBaseUrl}/support/ticket/`)).toBe(
      `${t.config.publicBaseUrl}/support/ticket/${ticketId}`,
    );
    expect(mails[0]!.headers['list-unsubscribe']).toMatch(/\/unsubscribe\//);
  });

  it('is not told to a user who switched closed-ticket mail off', async () => {
    const user = await supportUser(t);
    await switchOff(user, { ticketClosed: false });
    const { ticketId, ticketNo } = await user.createTicket('General', 'No mail please.');
    await setOpen(ticketId, false);
    await passTheWait(ticketId);
    await deliverDueMail(t.app);
    await setOpen(ticketId, true);
    await passTheWait(ticketId);
    await deliverDueMail(t.app);
    expect(sink.messages.filter((m) => m.envelopeTo.includes(to(user)))).toHaveLength(0);
    expect(received(`Ticket #${ticketNo} was reopened`)).toHaveLength(0);
    expect(await pendingNotices(ticketId)).toEqual([]);
  });
});

describe('a change undone within the wait', () => {
  it('close then reopen: no mail at all', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Closed by mistake?');
    await setOpen(ticketId, false);
    await setOpen(ticketId, true);
    expect(await pendingNotices(ticketId)).toEqual([]);
    await passTheWait(ticketId);
    await deliverDueMail(t.app);
    expect(received(`Ticket #${ticketNo} was closed`)).toHaveLength(0);
    expect(received(`Ticket #${ticketNo} was reopened`)).toHaveLength(0);
  });

  it('reopen then close (after a told close): no further mail', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Reopened by mistake?');
    await setOpen(ticketId, false);
    await passTheWait(ticketId);
    await deliverDueMail(t.app);
    expect(received(`Ticket #${ticketNo} was closed`)).toHaveLength(1);

    await setOpen(ticketId, true);
    await setOpen(ticketId, false);
    expect(await pendingNotices(ticketId)).toEqual([]);
    await passTheWait(ticketId);
    await deliverDueMail(t.app);
    expect(received(`Ticket #${ticketNo} was closed`)).toHaveLength(1);
    expect(received(`Ticket #${ticketNo} was reopened`)).toHaveLength(0);
  });

  it('close, reopen, close: exactly one “closed” mail', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Make up your mind.');
    await setOpen(ticketId, false);
    await setOpen(ticketId, true);
    await setOpen(ticketId, false);
    expect(await pendingNotices(ticketId)).toEqual(['ticket-closed']);
    await passTheWait(ticketId);
    await deliverDueMail(t.app);
    expect(received(`Ticket #${ticketNo} was closed`).flatMap((m) => m.envelopeTo)).toEqual([to(user)]);
    expect(received(`Ticket #${ticketNo} was reopened`)).toHaveLength(0);
    expect(await pendingNotices(ticketId)).toEqual([]);
  });
});

/**
 * PostgreSQL, where a change and the worker (or two admins) run at once. The test plays the other
 * party by hand on a connection of its own, as compose-race.test.ts does.
 */
describe.runIf(testDatabaseKind === 'postgres')('a change racing another party', () => {
  async function withConnection(work: (client: pg.Client) => Promise<void>) {
    const client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    try {
      await work(client);
    } finally {
      await client.end().catch(() => {});
    }
  }

  it('a reopen while the worker composes the close waits for it, and is told in turn', async () => {
    const user = await supportUser(t);
    const { ticketId } = await user.createTicket('General', 'Race the worker.');
    await setOpen(ticketId, false);
    await passTheWait(ticketId);
    await withConnection(async (worker) => {
      await worker.query('begin');
      const [event] = (
        await worker.query(
          `select id from notification_events where ticket_id = $1 and kind = 'ticket-closed' for update`,
          [ticketId],
        )
      ).rows;
      expect(event).toBeDefined();
      const reopen = setOpen(ticketId, true);
      await untilWaitingOnALock(worker, 'the change waiting for the row the test holds');
      // The compose finishes: the closed mail is on its way and its notice gone.
      await worker.query('delete from notification_events where id = $1', [event.id]);
      await worker.query('commit');
      await reopen;
    });
    expect(await pendingNotices(ticketId)).toEqual(['ticket-reopened']);
  });

  it('a reopen waiting for another admin’s close reopens the ticket and withdraws that close’s notice', async () => {
    const user = await supportUser(t);
    const { ticketId } = await user.createTicket('General', 'Race the other admin.');
    await withConnection(async (other) => {
      // The other admin's close, as the app makes it, not yet committed.
      await other.query('begin');
      await other.query(`update support_tickets set open = false, closed_at = now() where id = $1`, [ticketId]);
      await other.query(
        `insert into notification_events (kind, ticket_id, due_at) values ('ticket-closed', $1, now() + interval '60 seconds')`,
        [ticketId],
      );
      const reopen = setOpen(ticketId, true);
      await untilWaitingOnALock(other, 'the change waiting for the row the test holds');
      await other.query('commit');
      await reopen;
    });
    expect(await pendingNotices(ticketId)).toEqual([]);
    const ticket = await user.get(`/api/support/tickets/${ticketId}`);
    expect(ticket.json().ticket.open).toBe(true);
  });
});
