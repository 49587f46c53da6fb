import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/server/db/sql.ts';
import { postJson } from '../../helpers/accounts.ts';
import { deliverDueMail, linkIn, readOutbox, waitForMail } from '../../helpers/mail.ts';
import { openSse } from '../../helpers/sse-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { register, validCompany } from '../../helpers/registration.ts';
import { waitUntil } from '../../helpers/wait.ts';

/**
 * Notification mails as their recipients see them: an answer reaches a user who left, not one who
 * watched it arrive; several answers make one mail; a close is told; the team hears of every new
 * ticket and user reply on an unassigned one (assigned ones: desk-mail-routing.test.ts); an
 * applicant hears that the application arrived. The worker is run by the test (mailWorker:
 * false), so each step waits for what it needs and never for a time.
 */
let t: TestApp;
let base: string;
let admin: SupportUser;
let otherAdmin: SupportUser;
beforeAll(async () => {
  t = await createTestApp({
    env: { NOTIFY_DELAY_SECONDS: '0', TICKETS_PER_USER_PER_HOUR: '1000', REGISTRATIONS_PER_IP_PER_HOUR: '1000' },
    mailWorker: false,
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [admin, otherAdmin] = await Promise.all([supportUser(t, { role: 'admin' }), supportUser(t, { role: 'admin' })]);
});
afterAll(() => t.close());

const mailsTo = async (email: string, subject?: string) =>
  (await readOutbox(t.dataDir)).filter((m) => m.to.includes(email) && (subject === undefined || m.subject === subject));

async function answer(ticketId: string, messageBody: string) {
  const res = await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().message as { id: number };
}

describe('an admin’s answer', () => {
  it('reaches a user who left by one mail with the answer, a link to the ticket, text and HTML parts and one-click unsubscribe', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('Incident', 'My bag arrived wet.');
    await answer(ticketId, 'Sorry to hear that.\nWe are looking into it.');
    await deliverDueMail(t.app);

    const mails = await mailsTo(user.email, `New reply on ticket #${ticketNo}`);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.text).toContain('> Sorry to hear that.\n> We are looking into it.');
    expect(mail.html).toContain('Sorry to hear that.');
    expect(mail.text).toContain('Bagspace');
    expect(linkIn(mail, `${t.config.publicBaseUrl}/support/ticket/`)).toBe(
      `${t.config.publicBaseUrl}/support/ticket/${ticketId}`,
    );
    expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@localhost>$/);
    expect(mail.headers['list-unsubscribe']).toMatch(
      new RegExp(`^<${t.config.publicBaseUrl}/unsubscribe/[A-Za-z0-9_-]{43}>$`),
    );
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    // No tracking: every link in the HTML goes to our own site.
    for (const [, href] of mail.html.matchAll(/href="([^"]+)"/g))
      expect(href!.startsWith(t.config.publicBaseUrl)).toBe(true);

    // Nothing more to send for it.
    await deliverDueMail(t.app);
    expect(await mailsTo(user.email, `New reply on ticket #${ticketNo}`)).toHaveLength(1);
  });

  it('never carries an internal note written between answers', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Is my parcel insured?');
    await answer(ticketId, 'Yes, up to $500.');
    const note = await admin.post(`/api/admin/support/tickets/${ticketId}/notes`, {
      messageBody: 'Team only: check the claim limit with finance.',
    });
    expect(note.statusCode).toBe(200);
    await answer(ticketId, 'Keep your receipt, please.');
    await deliverDueMail(t.app);

    const mails = await mailsTo(user.email, `New reply on ticket #${ticketNo}`);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Yes, up to $500.');
    expect(mails[0]!.text).toContain('Keep your receipt, please.');
    expect(mails[0]!.text + mails[0]!.html).not.toContain('Team only');
  });

  it('sends no mail to a user whose open ticket page saw it (the page says so; delivery alone is not enough)', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Can I send a guitar?');
    const stream = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, {
      cookie: user.headers.cookie,
    });
    const { id } = await answer(ticketId, 'Yes, in a hard case.');
    await stream.waitFor((events) => events.some((e) => e.event === 'message' && (e.data as { id: number }).id === id));
    // The page had it in front of the reader and reported it (features/support/use-seen-report.ts).
    const seen = await user.post(`/api/support/tickets/${ticketId}/seen`, { messageIds: [id] });
    expect(seen.json()).toEqual({ seenUpTo: id });
    const [row] = await queryRows<{ seen: unknown }>(
      t.database.db,
      sql`select owner_seen_message_id as seen from support_tickets where id = ${ticketId}`,
    );
    expect(Number(row?.seen)).toBe(id);
    await deliverDueMail(t.app);
    stream.close();
    expect(await mailsTo(user.email, `New reply on ticket #${ticketNo}`)).toHaveLength(0);
    expect(await pendingEvents(ticketId)).toBe(0);
  });

  it('joins several answers within the wait into one mail, in order', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Two questions.');
    await answer(ticketId, 'First answer.');
    await answer(ticketId, 'Second answer.');
    await deliverDueMail(t.app);
    const mails = await mailsTo(user.email, `New reply on ticket #${ticketNo}`);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text.indexOf('First answer.')).toBeLessThan(mails[0]!.text.indexOf('Second answer.'));
    expect(mails[0]!.text).toContain('sent 2 answers');

    // An answer after that mail makes a mail of its own, with only itself.
    await answer(ticketId, 'Third answer.');
    await deliverDueMail(t.app);
    const after = await mailsTo(user.email, `New reply on ticket #${ticketNo}`);
    expect(after).toHaveLength(2);
    const third = after.find((m) => m.text.includes('Third answer.'))!;
    expect(third.text).not.toContain('First answer.');
  });

  it('tells every answer even when more arrive within the wait than one mail holds', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Tell me everything.');
    const bodies = Array.from({ length: 53 }, (_, i) => `Answer number ${i + 1}.`);
    for (const body of bodies) await answer(ticketId, body);
    await deliverDueMail(t.app);
    const mails = await mailsTo(user.email, `New reply on ticket #${ticketNo}`);
    expect(mails).toHaveLength(2);
    for (const body of bodies)
      expect(
        mails.filter((m) => m.text.includes(`> ${body}\n`)),
        body,
      ).toHaveLength(1);
    expect(await pendingEvents(ticketId)).toBe(0);
  });

  it('is not sent to a user who switched reply mails off', async () => {
    const user = await supportUser(t);
    const off = await t.app.inject({
      method: 'PUT',
      url: '/api/account/notifications',
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: { ticketReplies: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ ticketReplies: false, ticketClosed: true });
    const { ticketId } = await user.createTicket('General', 'Quiet please.');
    await answer(ticketId, 'Understood.');
    await deliverDueMail(t.app);
    expect(await mailsTo(user.email)).toHaveLength(0);
    expect(await pendingEvents(ticketId)).toBe(0);
  });
});

describe('the wait before an answer’s mail', () => {
  let slow: TestApp;
  beforeAll(async () => {
    slow = await createTestApp({ env: { NOTIFY_DELAY_SECONDS: '60' }, mailWorker: false });
  });
  afterAll(() => slow.close());

  it('holds the mail for NOTIFY_DELAY_SECONDS', async () => {
    const user = await supportUser(slow);
    const boss = await supportUser(slow, { role: 'admin' });
    const { ticketId } = await user.createTicket('General', 'Hello?');
    await boss.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Hello!' });
    await deliverDueMail(slow.app);
    expect((await readOutbox(slow.dataDir)).filter((m) => m.to.includes(user.email))).toHaveLength(0);
    const [event] = await queryRows<{ wait: unknown }>(
      slow.database.db,
      sql`select extract(epoch from due_at - now()) as wait from notification_events where ticket_id = ${ticketId} and kind = 'ticket-reply'`,
    );
    expect(Number(event!.wait)).toBeGreaterThan(50);
    expect(Number(event!.wait)).toBeLessThanOrEqual(60);
  });
});

describe('a closed ticket', () => {
  it('tells its owner once, with the link', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Done now.');
    expect((await admin.post(`/api/admin/support/tickets/${ticketId}/close`)).statusCode).toBe(200);
    // Closing twice changes nothing and tells nobody twice.
    expect((await admin.post(`/api/admin/support/tickets/${ticketId}/close`)).statusCode).toBe(200);
    await deliverDueMail(t.app);
    const mails = await mailsTo(user.email, `Ticket #${ticketNo} was closed`);
    expect(mails).toHaveLength(1);
    // The link opens the ticket at its rating form.
    expect(linkIn(mails[0]!, `${t.config.publicBaseUrl}/support/ticket/`)).toBe(
      `${t.config.publicBaseUrl}/support/ticket/${ticketId}#rating`,
    );
  });
});

describe('the support team', () => {
  it('hears of every new ticket and every user reply on an unassigned one, each admin once, except an admin who switched it off', async () => {
    const quiet = await supportUser(t, { role: 'admin' });
    const off = await t.app.inject({
      method: 'PUT',
      url: '/api/account/notifications',
      headers: { ...quiet.headers, 'content-type': 'application/json' },
      payload: { team: false },
    });
    expect(off.json()).toEqual({ ticketReplies: true, ticketClosed: true, team: false });

    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('Deactivation', 'Please close my account.');
    expect(
      (await user.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'Also delete my trips.' }))
        .statusCode,
    ).toBe(200);
    await deliverDueMail(t.app);

    for (const member of [admin, otherAdmin]) {
      const [created] = await mailsTo(member.email, `New ticket #${ticketNo}: Account Deactivation`);
      expect(created, member.email).toBeDefined();
      expect(created!.text).toContain(user.email);
      expect(created!.text).toContain('> Please close my account.');
      expect(linkIn(created!, `${t.config.publicBaseUrl}/admin/support/`)).toBe(
        `${t.config.publicBaseUrl}/admin/support/${ticketId}`,
      );
      const replies = await mailsTo(member.email, `New reply from a user on ticket #${ticketNo}`);
      expect(replies).toHaveLength(1);
      expect(replies[0]!.text).toContain('> Also delete my trips.');
    }
    expect((await mailsTo(quiet.email)).filter((m) => m.subject.includes(`#${ticketNo}`))).toHaveLength(0);
  });

  it('is the admins’ choice only: a user cannot switch team mail on', async () => {
    const user = await supportUser(t);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/account/notifications',
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: { team: true },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.fields.team).toBe('Only admins can receive support team mail.');
  });
});

describe('a partner applicant', () => {
  it('hears that the application arrived, if a contact email was given', async () => {
    const fields = validCompany();
    expect((await register(t, fields)).statusCode).toBe(201);
    const withoutEmail = { ...validCompany(), contactPersonEmail: '' };
    expect((await register(t, withoutEmail)).statusCode).toBe(201);
    await deliverDueMail(t.app);
    const mail = await waitForMail(
      t.dataDir,
      fields.contactPersonEmail,
      'We received your Bagspace partner application',
    );
    expect(mail.text).toContain(fields.companyName);
    expect(mail.text).toContain('What happens next');
    // Account-like mail: no unsubscribe.
    expect(mail.headers['list-unsubscribe']).toBeUndefined();
  });
});

describe('account mail', () => {
  it('goes through the outbox too: recorded with its cause, then delivered and its body cleared', async () => {
    const res = await postJson(t, '/api/auth/forgot-password', { email: admin.email });
    expect(res.statusCode).toBe(202);
    await waitUntil(
      'the reset mail recorded',
      async () => (await outboxRows(admin.email, 'reset-password')).length === 1,
    );
    await deliverDueMail(t.app);
    const [row] = await outboxRows(admin.email, 'reset-password');
    expect(row).toMatchObject({ state: 'sent', text_body: null, html_body: null });
    await waitForMail(t.dataDir, admin.email, 'Reset your Bagspace password');
  });
});

async function pendingEvents(ticketId: string) {
  const rows = await queryRows(t.database.db, sql`select 1 from notification_events where ticket_id = ${ticketId}`);
  return rows.length;
}

async function outboxRows(recipient: string, kind: string) {
  return queryRows<{ state: string; text_body: string | null; html_body: string | null }>(
    t.database.db,
    sql`select state, text_body, html_body from mail_outbox where recipient = ${recipient} and kind = ${kind}`,
  );
}
