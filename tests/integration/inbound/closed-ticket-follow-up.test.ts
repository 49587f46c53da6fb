import { signedMailToReceiver } from '../../helpers/inbound-mail.ts';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT_TEXT } from '../../../src/contracts/support.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { readOutbox, type ReadMail } from '../../helpers/mail.ts';
import { createMailZone, type MailZone } from '../../helpers/mail-dns.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { waitFor } from '../../helpers/wait.ts';

/**
 * A reply by mail to a closed ticket (decision 132): from the ticket's owner, trusted, it
 * opens a follow-up ticket linked to the closed one with the same reason (as 'Still need help?'
 * does), the customer is told, and the closed ticket's assignee is mailed; further mail to the same
 * closed ticket goes to that follow-up while it is open; untrusted mail is still held.
 */
const REPLY_DOMAIN = 'reply.bagspace.test';
const SENDER_DOMAIN = 'kiwi-mail.test';
const ATTACKER_DOMAIN = 'not-kiwi.test';
let t: TestApp;
let zone: MailZone;
let agent: SupportUser;
let port: number;

const person = (label: string) => `${label}-${randomBytes(4).toString('hex')}@${SENDER_DOMAIN}`;

beforeAll(async () => {
  zone = createMailZone();
  zone.addSender(SENDER_DOMAIN);
  zone.addSender(ATTACKER_DOMAIN);
  t = await createTestApp({
    env: {
      REPLY_DOMAIN,
      INBOUND_SMTP_PORT: '0',
      INBOUND_SMTP_HOST: '127.0.0.1',
      NOTIFY_DELAY_SECONDS: '0',
      TICKETS_PER_USER_PER_HOUR: '1000',
    },
    mailWorker: false,
    dnsResolver: zone.resolver,
  });
  port = t.app.inbound.smtpPort()!;
  agent = await supportUser(t, { role: 'admin', email: person('agent') });
});
afterAll(() => t?.close());

/**
 * Sends one mail to the receiver as a mail provider's server would: DKIM-signed, or (forged) unsigned
 * with another domain's envelope, whose SPF passes but is not aligned with From.
 */
const send = (mail: { from: string; to: string; text: string; subject: string; forged?: boolean }) =>
  signedMailToReceiver(port, zone, {
    ...mail,
    ...(mail.forged ? { signAs: null, envelopeFrom: `bounce@${ATTACKER_DOMAIN}` } : { signAs: SENDER_DOMAIN }),
  });

const decide = () => t.app.inbound.worker.runOnce();
const deliver = () => t.app.mailWorker.runOnce();
const replyTo = (mail: ReadMail) => mail.headers['reply-to']!.replace(/^.*<|>.*$/g, '').trim();

type TicketDto = { id: string; ticketNo: number; reason: string; open: boolean; follows: { id: string } | null };

async function ticketsOf(user: SupportUser, open: boolean) {
  const res = await user.get(`/api/support/tickets?open=${open}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().tickets as TicketDto[];
}

async function messagesOf(user: SupportUser, ticketId: string) {
  const res = await user.get(`/api/support/tickets/${ticketId}/messages`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().messages as Array<{ messageBody: string; byEmail?: true }>;
}

async function inboundRows(email: string) {
  return queryRows<{ state: string; reason: string | null; ticket_id: string | null }>(
    t.database.db,
    sql`select state, reason, ticket_id from inbound_mail where from_address = ${email} order by id`,
  );
}

/** A customer's Incident ticket answered by the agent (assigned to them unless told not to), mailed, then closed. */
async function closedTicket(options: { assigned: boolean }) {
  const owner = await supportUser(t, { email: person('aroha') });
  const { ticketId, ticketNo } = await owner.createTicket('Incident', 'My bag came back torn.');
  if (options.assigned)
    expect((await agent.post(`/api/admin/support/tickets/${ticketId}/assign`, { assignee: 'me' })).statusCode).toBe(
      200,
    );
  await agent.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Sorry! Please send a photo.' });
  await deliver();
  const notice = await waitFor('the answer mailed to the owner', async () =>
    (await readOutbox(t.dataDir)).find(
      (m) => m.to.includes(owner.email) && m.subject === `New reply on ticket #${ticketNo}`,
    ),
  );
  expect((await agent.post(`/api/admin/support/tickets/${ticketId}/close`)).statusCode).toBe(200);
  return { owner, ticketId, ticketNo, notice };
}

describe('a reply by mail to a closed ticket', () => {
  it('opens a follow-up ticket linked to it, with its reason and the new words; the customer and the assignee are told', async () => {
    const { owner, ticketId, ticketNo, notice } = await closedTicket({ assigned: true });
    const before = (await messagesOf(owner, ticketId)).length;
    await send({ from: owner.email, to: replyTo(notice), subject: `Re: ${notice.subject}`, text: 'It tore again.' });
    await decide();

    const open = await waitFor('the follow-up ticket', async () => (await ticketsOf(owner, true))[0]);
    expect(open).toMatchObject({ reason: 'Incident', open: true, follows: { id: ticketId } });
    expect(await messagesOf(owner, open.id)).toMatchObject([{ messageBody: 'It tore again.', byEmail: true }]);
    expect(await messagesOf(owner, ticketId)).toHaveLength(before);
    expect(await inboundRows(owner.email)).toEqual([{ state: 'posted', reason: null, ticket_id: open.id }]);

    await deliver();
    const told = await waitFor('the customer’s mail', async () =>
      (await readOutbox(t.dataDir)).find(
        (m) => m.to.includes(owner.email) && m.subject === `Your reply opened ticket #${open.ticketNo}`,
      ),
    );
    expect(told.text).toContain(`ticket #${open.ticketNo}`);
    expect(told.text).toContain(`closed ticket #${ticketNo}`);
    expect(told.text).toContain(`${t.config.publicBaseUrl}/support/ticket/${open.id}`);
    expect(told.text).not.toContain('Please create a new ticket');

    const assigneeMail = await waitFor('the assignee’s mail', async () =>
      (await readOutbox(t.dataDir)).find(
        (m) => m.to.includes(agent.email) && m.subject === `Follow-up #${open.ticketNo} to closed ticket #${ticketNo}`,
      ),
    );
    expect(assigneeMail.text).toContain('It tore again.');
    expect(assigneeMail.text).toContain(`${t.config.publicBaseUrl}/admin/support/${open.id}`);
  });

  it('a second mail to the same closed ticket goes to its open follow-up, not to another new ticket', async () => {
    const { owner, ticketId, ticketNo, notice } = await closedTicket({ assigned: true });
    for (const words of ['First thought.', 'Second thought.']) {
      await send({ from: owner.email, to: replyTo(notice), subject: `Re: ${notice.subject}`, text: words });
      await decide();
    }
    const open = await ticketsOf(owner, true);
    expect(open).toHaveLength(1);
    expect(open[0]!.follows).toEqual({ id: ticketId, ticketNo });
    expect((await messagesOf(owner, open[0]!.id)).map((m) => m.messageBody)).toEqual([
      'First thought.',
      'Second thought.',
    ]);
    expect((await inboundRows(owner.email)).map((r) => [r.state, r.ticket_id])).toEqual([
      ['posted', open[0]!.id],
      ['posted', open[0]!.id],
    ]);
    await deliver();
    const opened = (await readOutbox(t.dataDir)).filter(
      (m) => m.to.includes(owner.email) && m.subject.startsWith('Your reply opened ticket'),
    );
    expect(opened).toHaveLength(1);
  });

  it('with nobody assigned, no follow-up mail goes to the team (the usual new-ticket mail does)', async () => {
    const { owner, ticketNo, notice } = await closedTicket({ assigned: false });
    await send({ from: owner.email, to: replyTo(notice), subject: `Re: ${notice.subject}`, text: 'Hello again.' });
    await decide();
    const [open] = await waitFor('the follow-up ticket', async () => {
      const list = await ticketsOf(owner, true);
      return list.length > 0 && list;
    });
    await deliver();
    const mails = await readOutbox(t.dataDir);
    expect(mails.filter((m) => m.subject === `Follow-up #${open!.ticketNo} to closed ticket #${ticketNo}`)).toEqual([]);
    expect(mails.some((m) => m.to.includes(agent.email) && m.subject.startsWith(`New ticket #${open!.ticketNo}`))).toBe(
      true,
    );
  });

  it('an untrusted mail to a closed ticket is held as before and opens nothing', async () => {
    const { owner, ticketId, notice } = await closedTicket({ assigned: true });
    await send({
      from: owner.email,
      to: replyTo(notice),
      subject: `Re: ${notice.subject}`,
      text: 'Send the refund here.',
      forged: true,
    });
    await decide();
    expect(await inboundRows(owner.email)).toEqual([
      { state: 'held', reason: 'not-authenticated', ticket_id: ticketId },
    ]);
    expect(await ticketsOf(owner, true)).toEqual([]);
  });

  it('the web reply box on a closed ticket keeps the spec’s words', async () => {
    const { owner, ticketId } = await closedTicket({ assigned: false });
    const res = await owner.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'Hello?' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.body).toContain(SUPPORT_TEXT.replyRejected);
    expect(await ticketsOf(owner, true)).toEqual([]);
  });
});
