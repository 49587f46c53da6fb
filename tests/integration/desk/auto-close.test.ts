import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataExport } from '../../../src/contracts/privacy.schemas.ts';
import { DEFAULT_CALENDAR } from '../../../src/contracts/service-levels.ts';
import { SYSTEM_LINE_TEXT } from '../../../src/contracts/support.ts';
import { BusinessCalendar, instantOf, newZealandDate } from '../../../src/server/calendar/business-calendar.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { readOutbox, type ReadMail } from '../../helpers/mail.ts';
import { createMailZone, type MailZone } from '../../helpers/mail-dns.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The auto-close with its nudge, as the customer and the team see it: a ticket answered and left
 * without a reply for AUTO_CLOSE_WORKING_DAYS (7) working days closes by itself, with a line in
 * the thread on both sides and the usual 'closed' mail; two working days before, the customer gets
 * one mail saying when, and a reply (on the site or to that mail) keeps the ticket open. Working
 * days are the team's calendar (weekends and New Zealand's holidays closed). The test moves the
 * app's clock and runs the worker's rounds; mail is read from the outbox folder.
 */
const REPLY_DOMAIN = 'reply.bagspace.test';
const SENDER_DOMAIN = 'kiwi-mail.test';
const clock = movableClock();
let t: TestApp;
let zone: MailZone;
let admin: SupportUser;
const calendar = new BusinessCalendar(DEFAULT_CALENDAR);

beforeAll(async () => {
  zone = createMailZone();
  zone.addSender(SENDER_DOMAIN);
  t = await createTestApp({
    clock,
    serviceLevelWorker: false,
    mailWorker: false,
    dnsResolver: zone.resolver,
    env: {
      REPLY_DOMAIN,
      INBOUND_SMTP_PORT: '0',
      INBOUND_SMTP_HOST: '127.0.0.1',
      NOTIFY_DELAY_SECONDS: '0',
      TICKETS_PER_USER_PER_HOUR: '1000',
    },
  });
  admin = await supportUser(t, { role: 'admin', email: `desk-${randomBytes(4).toString('hex')}@${SENDER_DOMAIN}` });
});
afterAll(() => t?.close());

const MINUTE = 60_000;
const NZ_CLOCK = new Intl.DateTimeFormat('en-NZ', { timeZone: 'Pacific/Auckland', hour: 'numeric', minute: '2-digit' });

async function round(app: TestApp = t) {
  await app.app.serviceLevelWorker.run();
  await app.app.mailWorker.runOnce();
}

interface ThreadMessage {
  id: number;
  messageBody: string;
  admin: boolean;
  mine: boolean;
  systemEvent?: string;
  authorEmail?: string | null;
}

async function ticketOf(user: SupportUser, ticketId: string) {
  const res = await user.get(`/api/support/tickets/${ticketId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { ticket: { open: boolean }; messages: ThreadMessage[] };
}

/** A customer's ticket that the team answered; the answer's id. */
async function answeredTicket(app: TestApp = t, team: SupportUser = admin) {
  const user = await supportUser(app, { email: `aroha-${randomBytes(4).toString('hex')}@${SENDER_DOMAIN}` });
  const { ticketId, ticketNo } = await user.createTicket('General', 'My suitcase has not arrived in Wellington.');
  const res = await team.post(`/api/admin/support/tickets/${ticketId}/messages`, {
    messageBody: 'It is on tonight’s flight: can you confirm your address?',
  });
  expect(res.statusCode, res.body).toBe(200);
  const answer = res.json().message as { id: number; timestamp: string };
  return { user, ticketId, ticketNo, answerId: answer.id, answeredAt: new Date(answer.timestamp) };
}

async function mailsTo(person: { email: string }, app: TestApp = t): Promise<ReadMail[]> {
  return (await readOutbox(app.dataDir)).filter((m) => m.to.toLowerCase().includes(person.email.toLowerCase()));
}
const nudgesTo = async (person: { email: string }, ticketNo: number, app: TestApp = t) =>
  (await mailsTo(person, app)).filter((m) => m.subject.startsWith(`Ticket #${ticketNo} will close on `));

describe('an answered ticket with no reply', () => {
  it('is nudged once two working days before, and closes after seven, across the Christmas holidays', async () => {
    const { user, ticketId, ticketNo, answerId } = await answeredTicket();
    // The answer written on Thursday 24 December 2026, 10:00 in New Zealand (a test can only move
    // the app's clock; the database stamps messages with its own).
    await t.database.db.execute(
      sql`update ticket_messages set timestamp = '2026-12-23T21:00:00Z' where id = ${answerId}`,
    );
    // An internal note after it is no reply.
    const note = await admin.post(`/api/admin/support/tickets/${ticketId}/notes`, { messageBody: 'Courier booked.' });
    expect(note.statusCode, note.body).toBe(200);
    // Working days after it: Christmas (Fri), the weekend, Boxing Day (Mon 28, Mondayised), then
    // Tue 29, Wed 30, Thu 31, New Year (Fri 1), the weekend, 2 January (Mon 4, Mondayised), then
    // Tue 5, Wed 6, Thu 7, Fri 8.
    const nudgeAt = new Date('2027-01-05T21:00:00Z'); // Wednesday 6 January 2027, 10:00
    const closeAt = new Date('2027-01-07T21:00:00Z'); // Friday 8 January 2027, 10:00
    expect(calendar.addWorkingDays(new Date('2026-12-23T21:00:00Z'), 5)).toEqual(nudgeAt);
    expect(calendar.addWorkingDays(new Date('2026-12-23T21:00:00Z'), 7)).toEqual(closeAt);

    clock.set(new Date(nudgeAt.getTime() - MINUTE));
    await round();
    expect(await nudgesTo(user, ticketNo)).toEqual([]);

    clock.set(nudgeAt);
    await round();
    await round();
    const nudges = await nudgesTo(user, ticketNo);
    expect(nudges.map((m) => m.subject)).toEqual([`Ticket #${ticketNo} will close on Friday 8 January 2027`]);
    const nudge = nudges[0]!;
    expect(nudge.text).toContain('it will close by itself at 10:00 am on Friday 8 January 2027 (New Zealand time)');
    expect(nudge.text).toContain('To keep it open, reply to this mail or write to us on the ticket’s page.');
    expect(nudge.text).toContain(`${t.config.publicBaseUrl}/support/ticket/${ticketId}`);
    expect(nudge.headers['reply-to']).toMatch(
      new RegExp(`reply\\+[0-9a-f]{48}@${REPLY_DOMAIN.replaceAll('.', '\\.')}`),
    );
    expect(nudge.headers['list-unsubscribe']).toMatch(/\/unsubscribe\//);

    clock.set(new Date(closeAt.getTime() - MINUTE));
    await round();
    expect((await ticketOf(user, ticketId)).ticket.open).toBe(true);

    clock.set(closeAt);
    await round();
    await round();
    const { ticket, messages } = await ticketOf(user, ticketId);
    expect(ticket.open).toBe(false);
    const lines = messages.filter((m) => m.systemEvent);
    expect(lines).toHaveLength(1);
    expect(messages.at(-1)).toMatchObject({
      systemEvent: 'auto-closed',
      messageBody: SYSTEM_LINE_TEXT.autoClosed(7),
      admin: false,
      mine: false,
    });
    // The console shows the same line, nobody's.
    const desk = await admin.get(`/api/admin/support/tickets/${ticketId}`);
    expect(desk.statusCode, desk.body).toBe(200);
    expect(desk.json().ticket).toMatchObject({ open: false, waitingOn: null });
    expect(desk.json().messages.at(-1)).toMatchObject({ systemEvent: 'auto-closed', authorEmail: null, mine: false });
    // Closed everywhere: the customer's list of closed tickets, and the 'closed' mail asking for a rating.
    const closedList = await user.get('/api/support/tickets?open=false');
    expect(closedList.json().tickets.map((x: { id: string }) => x.id)).toContain(ticketId);
    const closedMail = (await mailsTo(user)).filter((m) => m.subject === `Ticket #${ticketNo} was closed`);
    expect(closedMail).toHaveLength(1);
    expect(closedMail[0]!.text).toContain(`/support/ticket/${ticketId}#rating`);
    // The person's data export has the line as what it is.
    const exported = (await user.get('/api/account/export')).json() as DataExport;
    const exportedTicket = exported.tickets.find((x) => x.ticketNo === ticketNo)!;
    expect(exportedTicket.messages.at(-1)).toMatchObject({ from: 'system', text: SYSTEM_LINE_TEXT.autoClosed(7) });
    expect(exportedTicket.messages.filter((m) => m.from === 'support')).toHaveLength(1);
  });

  it('stays open when the customer replies on the site after the nudge', async () => {
    const { user, ticketId, ticketNo, answeredAt } = await answeredTicket();
    clock.set(calendar.addWorkingDays(answeredAt, 5));
    await round();
    expect(await nudgesTo(user, ticketNo)).toHaveLength(1);

    const reply = await user.post(`/api/support/tickets/${ticketId}/messages`, {
      messageBody: '12 Cuba Street, thanks.',
    });
    expect(reply.statusCode, reply.body).toBe(200);
    clock.set(new Date(calendar.addWorkingDays(answeredAt, 7).getTime() + 60 * MINUTE));
    await round();
    const { ticket, messages } = await ticketOf(user, ticketId);
    expect(ticket.open).toBe(true);
    expect(messages.filter((m) => m.systemEvent)).toEqual([]);
  });

  it('stays open when the customer answers the nudge by mail', async () => {
    const { user, ticketId, ticketNo, answeredAt } = await answeredTicket();
    clock.set(calendar.addWorkingDays(answeredAt, 5));
    await round();
    const [nudge] = await nudgesTo(user, ticketNo);
    expect(nudge).toBeDefined();

    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: t.app.inbound.smtpPort()!,
      secure: false,
      ignoreTLS: true,
      dkim: zone.dkim(SENDER_DOMAIN),
    });
    try {
      const sent = await transport.sendMail({
        from: user.email,
        to: nudge!.headers['reply-to']!.replace(/^.*<|>.*$/g, '').trim(),
        subject: `Re: ${nudge!.subject}`,
        text: 'Still waiting for it, please keep this open.',
        inReplyTo: nudge!.messageId,
        references: nudge!.messageId,
      });
      expect(sent.response).toMatch(/^250/);
    } finally {
      transport.close();
    }
    await t.app.inbound.worker.runOnce();
    expect((await ticketOf(user, ticketId)).messages.at(-1)).toMatchObject({
      messageBody: 'Still waiting for it, please keep this open.',
      byEmail: true,
    });

    clock.set(new Date(calendar.addWorkingDays(answeredAt, 7).getTime() + 60 * MINUTE));
    await round();
    expect((await ticketOf(user, ticketId)).ticket.open).toBe(true);
  });

  it('nudged late (the server was down) closes no sooner than the next working day', async () => {
    const { user, ticketId, ticketNo, answeredAt } = await answeredTicket();
    // Noon on the tenth working day after the answer: past the planned close.
    const back = instantOf(newZealandDate(calendar.addWorkingDays(answeredAt, 10)), 12 * 60);
    clock.set(back);
    await round();
    const promised = calendar.addWorkingDays(back, 1);
    const nudges = await nudgesTo(user, ticketNo);
    expect(nudges.map((m) => m.subject)).toEqual([
      `Ticket #${ticketNo} will close on ${new Intl.DateTimeFormat('en-NZ', {
        timeZone: 'Pacific/Auckland',
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        year: 'numeric',
      })
        .format(promised)
        .replace(',', '')}`,
    ]);
    expect(nudges[0]!.text).toContain(`at ${NZ_CLOCK.format(promised)} on`);
    expect((await ticketOf(user, ticketId)).ticket.open).toBe(true);

    clock.set(new Date(promised.getTime() - MINUTE));
    await round();
    expect((await ticketOf(user, ticketId)).ticket.open).toBe(true);
    clock.set(new Date(promised.getTime() + MINUTE));
    await round();
    expect((await ticketOf(user, ticketId)).ticket.open).toBe(false);
  });
});

describe('a reply racing the close', () => {
  it('either keeps the ticket open or is refused on a closed one, never both', async () => {
    const tickets = await Promise.all(Array.from({ length: 8 }, () => answeredTicket()));
    const latest = Math.max(...tickets.map((x) => x.answeredAt.getTime()));
    clock.set(calendar.addWorkingDays(new Date(latest), 5));
    await round();
    clock.set(new Date(calendar.addWorkingDays(new Date(latest), 7).getTime() + MINUTE));
    const [, ...replies] = await Promise.all([
      t.app.serviceLevelWorker.run(),
      ...tickets.map((x) => x.user.post(`/api/support/tickets/${x.ticketId}/messages`, { messageBody: 'Any news?' })),
    ]);
    for (const [i, x] of tickets.entries()) {
      const { ticket, messages } = await ticketOf(x.user, x.ticketId);
      const lines = messages.filter((m) => m.systemEvent);
      if (replies[i]!.statusCode === 200) {
        expect(ticket.open, `ticket #${x.ticketNo}`).toBe(true);
        expect(lines).toEqual([]);
      } else {
        expect(replies[i]!.statusCode, replies[i]!.body).toBe(409);
        expect(ticket.open, `ticket #${x.ticketNo}`).toBe(false);
        expect(messages.at(-1)).toMatchObject({ systemEvent: 'auto-closed' });
      }
    }
  });
});

describe('AUTO_CLOSE_WORKING_DAYS', () => {
  it('0 switches it off; 2 nudges with the answer and closes two working days on', async () => {
    for (const days of ['0', '2'] as const) {
      const moved = movableClock();
      const app = await createTestApp({
        clock: moved,
        serviceLevelWorker: false,
        mailWorker: false,
        env: { AUTO_CLOSE_WORKING_DAYS: days, NOTIFY_DELAY_SECONDS: '0' },
      });
      try {
        const team = await supportUser(app, { role: 'admin' });
        const { user, ticketId, ticketNo, answeredAt } = await answeredTicket(app, team);
        await round(app);
        if (days === '0') {
          moved.set(new Date(answeredAt.getTime() + 60 * 86_400_000));
          await round(app);
          expect(await nudgesTo(user, ticketNo, app)).toEqual([]);
          expect((await ticketOf(user, ticketId)).ticket.open).toBe(true);
          const steps = await queryRows(app.database.db, sql`select 1 from auto_close_steps`);
          expect(steps).toEqual([]);
        } else {
          const closeAt = calendar.addWorkingDays(answeredAt, 2);
          const nudges = await nudgesTo(user, ticketNo, app);
          expect(nudges).toHaveLength(1);
          expect(nudges[0]!.text).toContain(`at ${NZ_CLOCK.format(closeAt)} on`);
          moved.set(closeAt);
          await round(app);
          const thread = await ticketOf(user, ticketId);
          expect(thread.ticket.open).toBe(false);
          expect(thread.messages.at(-1)).toMatchObject({ messageBody: SYSTEM_LINE_TEXT.autoClosed(2) });
        }
      } finally {
        await app.close();
      }
    }
  });
});
