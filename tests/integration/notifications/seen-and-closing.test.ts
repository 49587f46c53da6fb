import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/server/db/sql.ts';
import { deliverDueMail, readOutbox } from '../../helpers/mail.ts';
import { openSse, type SseConnection } from '../../helpers/sse-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Nothing is missed around a ticket's page and its close: an answer is mailed unless the owner's page
 * reported seeing it (a stream that merely delivered it to a background tab, or to a page closed at
 * once, is not sight), and an answer followed at once by a close reaches the owner's mail, in the
 * closed mail, whichever of the two they left on. The worker is run by the test (mailWorker: false),
 * so each step waits for what it needs and never for a time.
 */
let t: TestApp;
let base: string;
let admin: SupportUser;
beforeAll(async () => {
  t = await createTestApp({
    env: { NOTIFY_DELAY_SECONDS: '0', TICKETS_PER_USER_PER_HOUR: '1000' },
    mailWorker: false,
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await supportUser(t, { role: 'admin' });
});
afterAll(() => t.close());

const mailsTo = async (email: string) => (await readOutbox(t.dataDir)).filter((m) => m.to.includes(email));

async function answer(ticketId: string, messageBody: string) {
  const res = await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().message as { id: number };
}

async function close(ticketId: string) {
  expect((await admin.post(`/api/admin/support/tickets/${ticketId}/close`)).statusCode).toBe(200);
}

async function pendingEvents(ticketId: string) {
  const [row] = await queryRows<{ n: number }>(
    t.database.db,
    sql`select count(*)::int as n from notification_events where ticket_id = ${ticketId}`,
  );
  return row!.n;
}

/** The owner's ticket page, as far as the server knows it: its live stream. */
async function openPage(user: SupportUser, ticketId: string): Promise<SseConnection> {
  return openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, { cookie: user.headers.cookie });
}

const delivered = (stream: SseConnection, id: number) =>
  stream.waitFor((events) => events.some((e) => e.event === 'message' && (e.data as { id: number }).id === id));

const reportSeen = (user: SupportUser, ticketId: string, messageIds: number[]) =>
  user.post(`/api/support/tickets/${ticketId}/seen`, { messageIds });

describe('an answer the owner’s page received but did not show', () => {
  it('is mailed: a stream that delivered it to a page nobody looked at is not sight', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Can I send a guitar?');
    const stream = await openPage(user, ticketId);
    const { id } = await answer(ticketId, 'Yes, in a hard case.');
    await delivered(stream, id);
    await deliverDueMail(t.app);
    stream.close();
    const mails = (await mailsTo(user.email)).filter((m) => m.subject === `New reply on ticket #${ticketNo}`);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Yes, in a hard case.');
    expect(await pendingEvents(ticketId)).toBe(0);
  });
});

describe('an answer the owner’s page reported seen', () => {
  it('is not mailed, and neither is any earlier one; a later answer is', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Two questions.');
    const first = await answer(ticketId, 'First answer.');
    const second = await answer(ticketId, 'Second answer.');
    const seen = await reportSeen(user, ticketId, [first.id, second.id]);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json()).toEqual({ seenUpTo: second.id });
    await deliverDueMail(t.app);
    expect(await mailsTo(user.email)).toHaveLength(0);

    await answer(ticketId, 'Third answer.');
    await deliverDueMail(t.app);
    const mails = await mailsTo(user.email);
    expect(mails.map((m) => m.subject)).toEqual([`New reply on ticket #${ticketNo}`]);
    expect(mails[0]!.text).toContain('Third answer.');
    expect(mails[0]!.text).not.toContain('Second answer.');
  });

  it('counts only answers seen without a gap: one scrolled past unseen is still mailed', async () => {
    const user = await supportUser(t);
    const { ticketId } = await user.createTicket('General', 'Where is it?');
    const first = await answer(ticketId, 'It left Auckland.');
    const second = await answer(ticketId, 'It is in Wellington now.');
    // Only the newest one came into view (the page opened at the end, in a window without focus).
    expect((await reportSeen(user, ticketId, [second.id])).json()).toEqual({ seenUpTo: 0 });
    await deliverDueMail(t.app);
    const [mail] = await mailsTo(user.email);
    expect(mail!.text).toContain('It left Auckland.');
    // Both then seen: the report names both.
    expect((await reportSeen(user, ticketId, [first.id, second.id])).json()).toEqual({ seenUpTo: second.id });
  });

  it('moves nothing for ids that are not answers of this ticket, nor for someone else’s ticket', async () => {
    const user = await supportUser(t);
    const stranger = await supportUser(t);
    const { ticketId } = await user.createTicket('General', 'Hello?');
    const note = await admin.post(`/api/admin/support/tickets/${ticketId}/notes`, { messageBody: 'Team only.' });
    const noteId = (note.json().message as { id: number }).id;
    const { id } = await answer(ticketId, 'Hello!');
    // Someone else's ticket looks like no ticket at all.
    expect((await reportSeen(stranger, ticketId, [id])).statusCode).toBe(404);
    // A note the owner never sees, and ids of nothing, move nothing.
    expect((await reportSeen(user, ticketId, [noteId, id + 1000])).json()).toEqual({ seenUpTo: 0 });
    await deliverDueMail(t.app);
    expect(await mailsTo(user.email)).toHaveLength(1);
  });
});

describe('an answer and a close at once', () => {
  it('reaches the owner whose page received both but never showed them: the closed mail holds the answer', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('Incident', 'My bag arrived wet.');
    const stream = await openPage(user, ticketId);
    const { id } = await answer(ticketId, 'We refunded the delivery fee.');
    await close(ticketId);
    await delivered(stream, id);
    await stream.waitFor((events) =>
      events.some((e) => e.event === 'ticket' && (e.data as { open: boolean }).open === false),
    );
    await deliverDueMail(t.app);
    stream.close();
    const mails = await mailsTo(user.email);
    expect(mails.map((m) => m.subject)).toEqual([`Ticket #${ticketNo} was closed`]);
    expect(mails[0]!.text).toContain('> We refunded the delivery fee.');
    expect(mails[0]!.html).toContain('We refunded the delivery fee.');
    expect(await pendingEvents(ticketId)).toBe(0);
  });

  it('makes one mail, the closed one, with every answer of the wait in order', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Two things.');
    await answer(ticketId, 'First: yes.');
    await answer(ticketId, 'Second: also yes.');
    await close(ticketId);
    await deliverDueMail(t.app);
    const mails = await mailsTo(user.email);
    expect(mails.map((m) => m.subject)).toEqual([`Ticket #${ticketNo} was closed`]);
    expect(mails[0]!.text.indexOf('First: yes.')).toBeGreaterThan(-1);
    expect(mails[0]!.text.indexOf('First: yes.')).toBeLessThan(mails[0]!.text.indexOf('Second: also yes.'));
    // Still the closed mail: the rating link is there.
    expect(mails[0]!.text).toContain(`/support/ticket/${ticketId}#rating`);
  });

  it('leaves out an answer the page reported seen, and says only the close', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Thanks!');
    const { id } = await answer(ticketId, 'You are welcome.');
    expect((await reportSeen(user, ticketId, [id])).json()).toEqual({ seenUpTo: id });
    await close(ticketId);
    await deliverDueMail(t.app);
    const mails = await mailsTo(user.email);
    expect(mails.map((m) => m.subject)).toEqual([`Ticket #${ticketNo} was closed`]);
    expect(mails[0]!.text).not.toContain('You are welcome.');
  });

  it('still mails the answer when the close is undone within the wait', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Is it done?');
    await answer(ticketId, 'Almost done.');
    await close(ticketId);
    expect((await admin.post(`/api/admin/support/tickets/${ticketId}/reopen`)).statusCode).toBe(200);
    await deliverDueMail(t.app);
    const mails = await mailsTo(user.email);
    expect(mails.map((m) => m.subject)).toEqual([`New reply on ticket #${ticketNo}`]);
    expect(mails[0]!.text).toContain('Almost done.');
    expect(await pendingEvents(ticketId)).toBe(0);
  });

  it('mails the answer on its own to an owner who switched closed mails off', async () => {
    const user = await supportUser(t);
    const off = await t.app.inject({
      method: 'PUT',
      url: '/api/account/notifications',
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: { ticketClosed: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Quiet close please.');
    await answer(ticketId, 'Sorted, closing now.');
    await close(ticketId);
    await deliverDueMail(t.app);
    const mails = await mailsTo(user.email);
    expect(mails.map((m) => m.subject)).toEqual([`New reply on ticket #${ticketNo}`]);
    expect(mails[0]!.text).toContain('Sorted, closing now.');
  });
});

describe('an answer whose ticket is merged before it is mailed', () => {
  it('is mailed from the ticket it went into, even when that ticket’s page had seen a later answer', async () => {
    const user = await supportUser(t);
    const first = await user.createTicket('General', 'Where is my parcel to Napier?');
    const { id: pending } = await answer(first.ticketId, 'It is with the courier in Napier.');
    // The other ticket gets a later answer that its page reports seen: its mark passes the first answer's id.
    const second = await user.createTicket('Incident', 'The Napier box was torn.');
    const { id: later } = await answer(second.ticketId, 'Sorry: send us a photo.');
    expect((await reportSeen(user, second.ticketId, [later])).json()).toEqual({ seenUpTo: later });
    expect(later).toBeGreaterThan(pending);

    const merged = await admin.post(`/api/admin/support/tickets/${first.ticketId}/merge`, {
      targetTicketId: second.ticketId,
    });
    expect(merged.statusCode, merged.body).toBe(200);
    await deliverDueMail(t.app);
    const mails = (await mailsTo(user.email)).filter((m) => m.subject.startsWith('New reply on ticket #'));
    expect(mails.map((m) => m.subject)).toEqual([`New reply on ticket #${second.ticketNo}`]);
    // The answer seen in the target may come along (its seen mark is one number per ticket): told
    // twice at worst, never untold.
    expect(mails[0]!.text).toContain('It is with the courier in Napier.');
    expect(await pendingEvents(first.ticketId)).toBe(0);
    expect(await pendingEvents(second.ticketId)).toBe(0);
  });
});
