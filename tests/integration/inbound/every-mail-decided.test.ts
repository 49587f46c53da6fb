import { type SignedMail, signedMailToReceiver } from '../../helpers/inbound-mail.ts';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movableClock } from '../../../src/server/clock.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { readOutbox } from '../../helpers/mail.ts';
import { createMailZone, type MailZone } from '../../helpers/mail-dns.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Every mail that comes in is decided (decision 131): posted, held for an admin with its reason,
 * or ignored; never left "received" for ever. A sender domain without a DMARC record is judged on
 * aligned SPF and DKIM; a mail that cannot be decided (here: the sender's DNS keeps failing) is tried
 * a bounded number of times (INBOUND_MAX_ATTEMPTS, 3 here) and then held with its reason.
 */
const REPLY_DOMAIN = 'reply.bagspace.test';
/** A small business: SPF and DKIM, and no DMARC record. */
const NO_DMARC = 'small-biz.test';
/** A domain whose DMARC lookups fail (SERVFAIL) for as long as the test runs. */
const FLAKY = 'flaky-dns.test';
const OTHER = 'elsewhere.test';
const MAX_ATTEMPTS = 3;

let t: TestApp;
let zone: MailZone;
let admin: SupportUser;
let port: number;
const clock = movableClock();

beforeAll(async () => {
  zone = createMailZone();
  zone.addSender(NO_DMARC, { dmarc: null });
  zone.addSender(FLAKY);
  zone.failLookups(`_dmarc.${FLAKY}`);
  zone.addSender(OTHER);
  t = await createTestApp({
    env: {
      REPLY_DOMAIN,
      INBOUND_SMTP_PORT: '0',
      INBOUND_SMTP_HOST: '127.0.0.1',
      NOTIFY_DELAY_SECONDS: '0',
      INBOUND_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    },
    mailWorker: false,
    dnsResolver: zone.resolver,
    clock,
  });
  port = t.app.inbound.smtpPort()!;
  admin = await supportUser(t, { role: 'admin', email: `desk-${randomBytes(4).toString('hex')}@${OTHER}` });
});
afterAll(() => t?.close());

const person = (label: string, domain: string) => `${label}-${randomBytes(4).toString('hex')}@${domain}`;

/** Sends one mail as the sender's mail server would: signed with `signAs`'s key (null: unsigned). */
const send = (mail: SignedMail & { text: string; messageId: string }) =>
  signedMailToReceiver(port, zone, { subject: 'Re: my ticket', ...mail });

const decide = () => t.app.inbound.worker.runOnce();

async function inboundRow(messageId: string) {
  const [row] = await queryRows<{
    id: string;
    state: string;
    reason: string | null;
    ticket_id: string | null;
    attempts: number;
  }>(
    t.database.db,
    sql`select id, state, reason, ticket_id, attempts from inbound_mail where message_id = ${messageId}`,
  );
  return row;
}

async function messagesOf(user: SupportUser, ticketId: string) {
  const res = await user.get(`/api/support/tickets/${ticketId}/messages`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().messages as Array<{ messageBody: string; byEmail?: true }>;
}

/** An open ticket of `owner` that the team answered, and the reply address of that answer's mail. */
async function answeredTicket(owner: SupportUser) {
  const { ticketId, ticketNo } = await owner.createTicket('General', 'Where is my bag?');
  const res = await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Which flight?' });
  expect(res.statusCode, res.body).toBe(200);
  await t.app.mailWorker.runOnce();
  const notice = (await readOutbox(t.dataDir)).find(
    (m) => m.to.includes(owner.email) && m.subject === `New reply on ticket #${ticketNo}`,
  );
  expect(notice, 'the answer was mailed').toBeDefined();
  return { ticketId, replyTo: notice!.headers['reply-to']!.replace(/^.*<|>.*$/g, '').trim() };
}

const messageId = (label: string, domain: string) => `<${label}-${randomBytes(6).toString('hex')}@${domain}>`;

describe('a sender domain with no DMARC record', () => {
  it('a reply from the ticket’s owner with aligned SPF and DKIM is posted', async () => {
    const owner = await supportUser(t, { email: person('owner', NO_DMARC) });
    const { ticketId, replyTo } = await answeredTicket(owner);
    const id = messageId('reply', NO_DMARC);
    await send({ from: owner.email, to: replyTo, text: 'Flight NZ421, thank you.', messageId: id });
    await decide();
    expect(await inboundRow(id)).toMatchObject({ state: 'posted', ticket_id: ticketId });
    expect((await messagesOf(owner, ticketId)).at(-1)).toMatchObject({
      messageBody: 'Flight NZ421, thank you.',
      byEmail: true,
    });
  });

  it('a verified account’s mail to the support address opens a ticket', async () => {
    const owner = await supportUser(t, { email: person('new', NO_DMARC) });
    const id = messageId('new', NO_DMARC);
    await send({
      from: owner.email,
      to: `support@${REPLY_DOMAIN}`,
      subject: 'Lost suitcase',
      text: 'It never came off the plane.',
      messageId: id,
    });
    await decide();
    expect(await inboundRow(id)).toMatchObject({ state: 'posted' });
    const tickets = (await owner.get('/api/support/tickets?open=true')).json().tickets as Array<{ id: string }>;
    expect(tickets).toHaveLength(1);
    expect((await messagesOf(owner, tickets[0]!.id))[0]!.messageBody).toBe(
      'Lost suitcase\n\nIt never came off the plane.',
    );
  });

  it('is held (not-authenticated) without a DKIM signature, or with SPF for another domain', async () => {
    const owner = await supportUser(t, { email: person('forged', NO_DMARC) });
    const { ticketId, replyTo } = await answeredTicket(owner);
    const unsigned = messageId('unsigned', NO_DMARC);
    await send({ from: owner.email, to: replyTo, text: 'Unsigned words.', messageId: unsigned, signAs: null });
    // Signed by the From domain, but the envelope (SPF) is another domain's: not aligned.
    const otherEnvelope = messageId('envelope', NO_DMARC);
    await send({
      from: owner.email,
      to: replyTo,
      text: 'Words from elsewhere.',
      messageId: otherEnvelope,
      envelopeFrom: `bounce@${OTHER}`,
    });
    await decide();
    for (const id of [unsigned, otherEnvelope])
      expect(await inboundRow(id)).toMatchObject({ state: 'held', reason: 'not-authenticated', ticket_id: ticketId });
    const bodies = (await messagesOf(owner, ticketId)).map((m) => m.messageBody);
    expect(bodies).not.toContain('Unsigned words.');
    expect(bodies).not.toContain('Words from elsewhere.');
  });
});

describe('a mail that cannot be decided', () => {
  it(`is tried ${MAX_ATTEMPTS} times, then held with its reason for an admin, who can post it`, async () => {
    const owner = await supportUser(t, { email: person('flaky', FLAKY) });
    const { ticketId, replyTo } = await answeredTicket(owner);
    const id = messageId('flaky', FLAKY);
    await send({ from: owner.email, to: replyTo, text: 'Is anyone there?', messageId: id });

    await decide();
    // A DNS failure is temporary: not held at once, tried again later.
    expect(await inboundRow(id)).toMatchObject({ state: 'received', attempts: 1 });
    for (let round = 0; round < MAX_ATTEMPTS * 2 && (await inboundRow(id))!.state === 'received'; round++) {
      // Past any wait between tries (the worker reads the app's clock).
      clock.advance(2 * 60 * 60 * 1000);
      await decide();
    }
    expect(await inboundRow(id)).toMatchObject({
      state: 'held',
      reason: 'undecided',
      ticket_id: ticketId,
      attempts: MAX_ATTEMPTS,
    });

    const held = (await admin.get('/api/admin/mail/incoming?state=held')).json().mails as Array<{
      id: number;
      reason: string;
      reasonText: string;
    }>;
    const rowId = Number((await inboundRow(id))!.id);
    const mine = held.find((m) => m.id === rowId)!;
    expect(mine.reasonText).toBe(
      `Could not be decided after ${MAX_ATTEMPTS} tries: the sender’s domain could not be checked (its DNS did not answer)`,
    );
    const posted = await admin.post(`/api/admin/mail/incoming/${mine.id}/post`);
    expect(posted.statusCode, posted.body).toBe(200);
    expect((await messagesOf(owner, ticketId)).at(-1)).toMatchObject({ messageBody: 'Is anyone there?' });
  });

  it('is held, not tried again, when the worker deciding it stopped on its last try', async () => {
    const owner = await supportUser(t, { email: person('stopped', NO_DMARC) });
    const { ticketId, replyTo } = await answeredTicket(owner);
    const id = messageId('stopped', NO_DMARC);
    await send({ from: owner.email, to: replyTo, text: 'This one crashed the worker.', messageId: id });
    // What a worker killed on the last try leaves behind: claimed for the last time, its lease run out.
    await t.database.db.execute(
      sql`update inbound_mail set state = 'processing', attempts = ${MAX_ATTEMPTS},
            lease_until = now() - interval '1 second' where message_id = ${id}`,
    );
    await decide();
    expect(await inboundRow(id)).toMatchObject({ state: 'held', reason: 'undecided', attempts: MAX_ATTEMPTS + 1 });
    expect((await messagesOf(owner, ticketId)).map((m) => m.messageBody)).not.toContain('This one crashed the worker.');
    const held = (await admin.get('/api/admin/mail/incoming?state=held')).json().mails as Array<{
      reasonText: string;
      subject: string;
    }>;
    expect(held.map((m) => m.reasonText)).toContain(
      `Could not be decided after ${MAX_ATTEMPTS} tries: its last try never finished (the server stopped or lost its database)`,
    );
  });
});
