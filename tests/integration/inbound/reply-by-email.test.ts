import { type SignedMail, signedMailToReceiver } from '../../helpers/inbound-mail.ts';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INBOUND_TEXT } from '../../../src/contracts/inbound.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { signIn } from '../../helpers/accounts.ts';
import { carriesMetadata, jpegWithGps } from '../../helpers/attachment-files.ts';
import { readOutbox, type ReadMail } from '../../helpers/mail.ts';
import { createMailZone, type MailZone } from '../../helpers/mail-dns.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { waitFor } from '../../helpers/wait.ts';

/**
 * Reply by email through the built-in SMTP receiver, as a customer's mail program and their mail
 * provider would use it: the notification can be answered, the answer lands in its ticket with only
 * the new words, and nothing else posts (a wrong sender, a failed DMARC check, another ticket's
 * thread, a replay, automatic mail; a closed ticket's goes to a follow-up). The test's DNS zone signs and vouches for the
 * senders (tests/helpers/mail-dns.ts); both workers run when the test says.
 */
const REPLY_DOMAIN = 'reply.bagspace.test';
let t: TestApp;
let zone: MailZone;
let admin: SupportUser;
let port: number;

const SENDER_DOMAIN = 'kiwi-mail.test';
const ATTACKER_DOMAIN = 'not-kiwi.test';
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
  admin = await supportUser(t, { role: 'admin', email: person('desk') });
});
afterAll(() => t?.close());

/** Sends one mail to the receiver as a mail provider's server would (SMTP, DKIM-signed). */
const send = (mail: SignedMail) => signedMailToReceiver(port, zone, mail);

const decide = () => t.app.inbound.worker.runOnce();
const deliver = () => t.app.mailWorker.runOnce();

async function messagesOf(user: SupportUser, ticketId: string) {
  const res = await user.get(`/api/support/tickets/${ticketId}/messages`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().messages as Array<{ id: number; messageBody: string; admin: boolean; byEmail?: true }>;
}

/**
 * A mail's row once it is decided: every caller here has run a round (`decide`), but the app's own
 * inbound worker, woken by each stored mail, may have held the mail through it (CI on PostgreSQL read
 * one still 'received'), so this waits for the decision whichever worker makes it.
 */
async function inboundRow(messageId: string) {
  return waitFor(`a decision on ${messageId}`, async () => {
    const [row] = await queryRows<{ state: string; reason: string | null; ticket_id: string | null }>(
      t.database.db,
      sql`select state, reason, ticket_id from inbound_mail where message_id = ${messageId} order by id desc limit 1`,
    );
    return row && !['received', 'processing'].includes(row.state) ? row : undefined;
  });
}

/** A user with an open ticket that an admin answered, and the notification mail of that answer. */
async function answeredTicket(user?: SupportUser) {
  const owner = user ?? (await supportUser(t, { email: person('aroha') }));
  const { ticketId, ticketNo } = await owner.createTicket('General', 'Where is my bag?');
  const res = await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, {
    messageBody: 'Sorry to hear that. Which flight were you on?',
  });
  expect(res.statusCode, res.body).toBe(200);
  await deliver();
  const notice = (await readOutbox(t.dataDir)).find(
    (m) => m.to.includes(owner.email) && m.subject === `New reply on ticket #${ticketNo}`,
  );
  expect(notice, 'the answer was mailed').toBeDefined();
  return { owner, ticketId, ticketNo, notice: notice! };
}

const replyTo = (mail: ReadMail) => mail.headers['reply-to']!.replace(/^.*<|>.*$/g, '').trim();

describe('mail about a ticket', () => {
  it('can be answered: a reply address of its own, the ticket’s thread, marked automatic, and says so', async () => {
    const { ticketId, notice } = await answeredTicket();
    expect(replyTo(notice)).toMatch(new RegExp(`^reply\\+[0-9a-f]{48}@${REPLY_DOMAIN.replaceAll('.', '\\.')}$`));
    expect(notice.headers['in-reply-to']).toBe(`<ticket-${ticketId}@localhost>`);
    expect(notice.headers['references']).toBe(`<ticket-${ticketId}@localhost>`);
    expect(notice.headers['auto-submitted']).toBe('auto-generated');
    expect(notice.text).toContain('Reply to this mail or open the ticket.');
    // Only the token's hash is stored.
    const token = replyTo(notice).slice('reply+'.length, 'reply+'.length + 48);
    const plain = await queryRows(t.database.db, sql`select 1 from mail_reply_tokens where token_hash = ${token}`);
    expect(plain).toHaveLength(0);
  });

  it('to the team carries a reply address too, and an admin’s mailed answer posts as the admin (audited)', async () => {
    const owner = await supportUser(t, { email: person('mere') });
    const { ticketId, ticketNo } = await owner.createTicket('Incident', 'The handle of my case broke.');
    await deliver();
    const teamMail = (await readOutbox(t.dataDir)).find(
      (m) => m.to.includes(admin.email) && m.subject === `New ticket #${ticketNo}: Incident Report`,
    );
    expect(teamMail).toBeDefined();
    await send({
      from: admin.email,
      to: replyTo(teamMail!),
      subject: `Re: ${teamMail!.subject}`,
      text: 'We will send a courier tomorrow.\n\nOn Fri, Bagspace wrote:\n> The handle of my case broke.',
      inReplyTo: teamMail!.messageId,
    });
    await decide();
    const messages = await messagesOf(owner, ticketId);
    expect(messages.at(-1)).toMatchObject({
      messageBody: 'We will send a courier tomorrow.',
      admin: true,
      byEmail: true,
    });
    // The console names the admin who mailed it; the owner is never given that address.
    const desk = (await admin.get(`/api/admin/support/tickets/${ticketId}`)).json().messages;
    expect(desk.at(-1)).toMatchObject({ authorEmail: admin.email, mine: true, byEmail: true });
    expect(JSON.stringify(messages)).not.toContain(admin.email);
    const audit = await admin.get('/api/admin/audit');
    expect(audit.body).toContain('"via":"email"');
  });
});

describe('a reply by mail', () => {
  it('lands in its ticket with only the new words, marked by email, and the whole mail can be opened', async () => {
    const { owner, ticketId, notice } = await answeredTicket();
    const sent = await send({
      from: owner.email,
      to: replyTo(notice),
      subject: `Re: ${notice.subject}`,
      text: 'Flight NZ123 from Auckland, kia ora.\n\nOn Fri, 27 Nov 2026 at 10:12, Bagspace wrote:\n> Sorry to hear that. Which flight were you on?',
      inReplyTo: notice.messageId,
      references: notice.messageId,
    });
    expect(sent.response).toMatch(/^250/);
    await decide();
    const messages = await messagesOf(owner, ticketId);
    const last = messages.at(-1)!;
    expect(last).toMatchObject({ messageBody: 'Flight NZ123 from Auckland, kia ora.', admin: false, byEmail: true });
    const whole = await owner.get(`/api/support/tickets/${ticketId}/messages/${last.id}/mail`);
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.json().text).toContain('> Sorry to hear that. Which flight were you on?');
    expect(whole.json().to).not.toMatch(/[0-9a-f]{48}/);
    // Nobody else's to open.
    const stranger = await supportUser(t);
    expect((await stranger.get(`/api/support/tickets/${ticketId}/messages/${last.id}/mail`)).statusCode).toBe(404);
    expect((await admin.get(`/api/support/tickets/${ticketId}/messages/${last.id}/mail`)).statusCode).toBe(200);
    // The ticket now waits for the team.
    const ticket = await owner.get(`/api/support/tickets/${ticketId}`);
    expect(ticket.json().ticket.waitingOn).toBe('us');
  });

  it('brings its photos, attached or inline, through the attachment rules (metadata stripped) and leaves a file of another kind out', async () => {
    const { owner, ticketId, notice } = await answeredTicket();
    const messageId = `<files-${randomBytes(6).toString('hex')}@${SENDER_DOMAIN}>`;
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port,
      ignoreTLS: true,
      dkim: zone.dkim(SENDER_DOMAIN),
    });
    await transport.sendMail({
      from: owner.email,
      to: replyTo(notice),
      subject: `Re: ${notice.subject}`,
      messageId,
      text: 'Here is the damage.',
      // A mail program that shows the photo in the text sends it inline (multipart/related, a cid).
      html: '<p>Here is the damage.</p><p><img src="cid:wheel@kiwi-mail.test"></p>',
      attachments: [
        { filename: 'bag.jpg', content: await jpegWithGps(), contentType: 'image/jpeg' },
        {
          filename: 'wheel.jpg',
          content: await jpegWithGps(),
          contentType: 'image/jpeg',
          cid: 'wheel@kiwi-mail.test',
        },
        {
          filename: 'setup.exe',
          content: Buffer.from('MZ this is not a photo'),
          contentType: 'application/octet-stream',
        },
      ],
    });
    transport.close();
    await decide();
    const res = await owner.get(`/api/support/tickets/${ticketId}/messages`);
    const last = (
      res.json().messages as Array<{ messageBody: string; attachments: Array<{ name: string; url: string }> }>
    ).at(-1)!;
    expect(last.messageBody).toBe('Here is the damage.');
    expect(last.attachments.map((a) => a.name).sort()).toEqual(['bag.jpg', 'wheel.jpg']);
    const file = await owner.get(last.attachments[0]!.url);
    expect(file.statusCode).toBe(200);
    expect(carriesMetadata(file.rawPayload)).toBe(false);
    const [row] = await queryRows<{ details: { refusedFiles: Array<{ name: string }> } }>(
      t.database.db,
      sql`select details from inbound_mail where message_id = ${messageId}`,
    );
    expect(row!.details.refusedFiles.map((f) => f.name)).toEqual(['setup.exe']);
  });

  it('delivered twice (same Message-ID, same bytes) is posted once', async () => {
    const { owner, ticketId, notice } = await answeredTicket();
    const raw = [
      `From: ${owner.email}`,
      `To: ${replyTo(notice)}`,
      `Subject: Re: ${notice.subject}`,
      `Message-ID: <twice-${randomBytes(6).toString('hex')}@${SENDER_DOMAIN}>`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Thanks, the bag came back.',
      '',
    ].join('\r\n');
    await send({ from: owner.email, to: replyTo(notice), raw });
    await send({ from: owner.email, to: replyTo(notice), raw });
    await decide();
    const posted = (await messagesOf(owner, ticketId)).filter((m) => m.messageBody === 'Thanks, the bag came back.');
    expect(posted).toHaveLength(1);
  });
});

describe('the receiver refuses at RCPT TO', () => {
  it('an unknown reply address, any other address, and mail over 25 MB (552)', async () => {
    const unknown = send({ from: person('x'), to: `reply+${'ab'.repeat(24)}@${REPLY_DOMAIN}`, text: 'hi' });
    await expect(unknown).rejects.toMatchObject({ responseCode: 550, command: 'RCPT TO' });
    const other = send({ from: person('x'), to: `postmaster@${REPLY_DOMAIN}`, text: 'hi' });
    await expect(other).rejects.toMatchObject({ responseCode: 550 });
    const { owner, notice } = await answeredTicket();
    const huge = send({ from: owner.email, to: replyTo(notice), text: 'x'.repeat(26 * 1024 * 1024), signAs: null });
    await expect(huge).rejects.toMatchObject({ responseCode: 552 });
  });
});

describe('nobody posts as someone else', () => {
  it('the right reply address from another address is held (sender-mismatch)', async () => {
    const { owner, ticketId, notice } = await answeredTicket();
    const messageId = `<spoof-${randomBytes(6).toString('hex')}@${ATTACKER_DOMAIN}>`;
    await send({ from: `mallory@${ATTACKER_DOMAIN}`, to: replyTo(notice), text: 'Refund me now.', messageId });
    await decide();
    expect(await inboundRow(messageId)).toMatchObject({
      state: 'held',
      reason: 'sender-mismatch',
      ticket_id: ticketId,
    });
    expect((await messagesOf(owner, ticketId)).some((m) => m.messageBody.includes('Refund'))).toBe(false);
  });

  it('the right From that fails DMARC is held (not-authenticated), and an admin can post or discard it', async () => {
    const { owner, ticketId, notice } = await answeredTicket();
    const forged = `<forged-${randomBytes(6).toString('hex')}@${ATTACKER_DOMAIN}>`;
    // Unsigned, and the envelope is another domain's: SPF passes for that domain but is not aligned.
    await send({
      from: owner.email,
      to: replyTo(notice),
      text: 'Send the bag to 1 Fake St.',
      messageId: forged,
      envelopeFrom: `bounce@${ATTACKER_DOMAIN}`,
      signAs: null,
    });
    await decide();
    expect(await inboundRow(forged)).toMatchObject({ state: 'held', reason: 'not-authenticated' });
    expect((await messagesOf(owner, ticketId)).some((m) => m.messageBody.includes('Fake St'))).toBe(false);

    const list = await admin.get('/api/admin/mail/incoming?state=held');
    const held = (list.json().mails as Array<{ id: number; reason: string; reasonText: string }>).find(
      (m) => m.reason === 'not-authenticated',
    )!;
    expect(held.reasonText).toMatch(/DMARC/);
    const posted = await admin.post(`/api/admin/mail/incoming/${held.id}/post`);
    expect(posted.statusCode, posted.body).toBe(200);
    expect((await messagesOf(owner, ticketId)).at(-1)).toMatchObject({
      messageBody: 'Send the bag to 1 Fake St.',
      byEmail: true,
    });
    const again = await admin.post(`/api/admin/mail/incoming/${held.id}/discard`);
    expect(again.statusCode).toBe(409);
    // The list says who posted it.
    const postedList = (await admin.get('/api/admin/mail/incoming?state=posted')).json().mails as Array<{
      id: number;
      decidedBy: string | null;
    }>;
    expect(postedList.find((m) => m.id === held.id)?.decidedBy).toBe(admin.email);
  });

  it('an admin’s Post of a held mail brings its photo, and never posts a stranger’s words into a ticket', async () => {
    const { owner, ticketId, notice } = await answeredTicket();
    const photoMail = `<held-photo-${randomBytes(6).toString('hex')}@${ATTACKER_DOMAIN}>`;
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, ignoreTLS: true });
    await transport.sendMail({
      envelope: { from: `bounce@${ATTACKER_DOMAIN}`, to: replyTo(notice) },
      from: owner.email,
      to: replyTo(notice),
      subject: `Re: ${notice.subject}`,
      messageId: photoMail,
      text: 'The photo you asked for.',
      attachments: [{ filename: 'tag.jpg', content: await jpegWithGps(), contentType: 'image/jpeg' }],
    });
    // A stranger's mail in the ticket's thread, vouched for by their own domain: held, not a party.
    const stranger = await supportUser(t, { email: person('stranger') });
    const strangerMail = `<not-a-party-${randomBytes(6).toString('hex')}@${SENDER_DOMAIN}>`;
    await send({
      from: stranger.email,
      to: `support@${REPLY_DOMAIN}`,
      text: 'I am the owner, honestly.',
      references: `<ticket-${ticketId}@localhost>`,
      messageId: strangerMail,
    });
    transport.close();
    await decide();
    expect(await inboundRow(photoMail)).toMatchObject({ state: 'held', reason: 'not-authenticated' });
    expect(await inboundRow(strangerMail)).toMatchObject({ state: 'held', reason: 'not-a-party' });
    const held = (await admin.get('/api/admin/mail/incoming?state=held')).json().mails as Array<{
      id: number;
      subject: string | null;
      reason: string;
    }>;
    const idOf = (reason: string) => held.find((m) => m.reason === reason)!.id;

    expect((await admin.post(`/api/admin/mail/incoming/${idOf('not-authenticated')}/post`)).statusCode).toBe(200);
    const last = (await messagesOf(owner, ticketId)).at(-1) as unknown as {
      messageBody: string;
      attachments: Array<{ name: string }>;
    };
    expect(last.messageBody).toBe('The photo you asked for.');
    expect(last.attachments.map((a) => a.name)).toEqual(['tag.jpg']);

    const refused = await admin.post(`/api/admin/mail/incoming/${idOf('not-a-party')}/post`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(INBOUND_TEXT.notAParty);
    expect((await messagesOf(owner, ticketId)).some((m) => m.messageBody.includes('honestly'))).toBe(false);
    // Discarded instead: kept, marked discarded, never posted.
    const discarded = await admin.post(`/api/admin/mail/incoming/${idOf('not-a-party')}/discard`);
    expect(discarded.statusCode, discarded.body).toBe(200);
    expect(await inboundRow(strangerMail)).toMatchObject({ state: 'discarded' });
    // Both decisions are in the audit log.
    const audit = (await admin.get('/api/admin/audit?targetType=mail')).json().entries as Array<{
      action: string;
      targetId: string;
    }>;
    expect(audit.filter((e) => e.targetId === String(idOf('not-authenticated'))).map((e) => e.action)).toEqual([
      'mail.post',
    ]);
    expect(audit.filter((e) => e.targetId === String(idOf('not-a-party'))).map((e) => e.action)).toEqual([
      'mail.discard',
    ]);
  });

  it('a reply address used in another ticket’s thread is held (other-ticket)', async () => {
    const first = await answeredTicket();
    const second = await answeredTicket(first.owner);
    const messageId = `<cross-${randomBytes(6).toString('hex')}@${SENDER_DOMAIN}>`;
    await send({
      from: first.owner.email,
      to: replyTo(first.notice),
      text: 'Which ticket is this?',
      inReplyTo: second.notice.messageId,
      references: `<ticket-${second.ticketId}@localhost>`,
      messageId,
    });
    await decide();
    expect(await inboundRow(messageId)).toMatchObject({ state: 'held', reason: 'other-ticket' });
    for (const ticketId of [first.ticketId, second.ticketId])
      expect((await messagesOf(first.owner, ticketId)).some((m) => m.messageBody.includes('Which ticket'))).toBe(false);
  });

  it('a replay of a received Message-ID with other words is ignored (replayed)', async () => {
    const { owner, ticketId, notice } = await answeredTicket();
    const messageId = `<replay-${randomBytes(6).toString('hex')}@${SENDER_DOMAIN}>`;
    await send({ from: owner.email, to: replyTo(notice), text: 'The first words.', messageId });
    await send({ from: owner.email, to: replyTo(notice), text: 'Other words under the same id.', messageId });
    await decide();
    expect(await inboundRow(messageId)).toMatchObject({ state: 'ignored', reason: 'replayed' });
    const bodies = (await messagesOf(owner, ticketId)).map((m) => m.messageBody);
    expect(bodies).toContain('The first words.');
    expect(bodies).not.toContain('Other words under the same id.');
  });
});

describe('no loops, no noise', () => {
  it('auto-replies, vacation notices and list mail change no ticket and get no answer', async () => {
    const { owner, ticketId, notice } = await answeredTicket();
    const before = (await messagesOf(owner, ticketId)).length;
    const outboxBefore = (await readOutbox(t.dataDir)).length;
    const automaticHeaders: Array<Record<string, string>> = [
      { 'Auto-Submitted': 'auto-replied' },
      { 'X-Autoreply': 'yes' },
      { Precedence: 'bulk' },
      { 'List-Id': '<travel.lists.example>' },
    ];
    for (const headers of automaticHeaders) {
      const messageId = `<auto-${randomBytes(6).toString('hex')}@${SENDER_DOMAIN}>`;
      await send({ from: owner.email, to: replyTo(notice), text: 'I am away until Monday.', headers, messageId });
      await decide();
      expect(await inboundRow(messageId)).toMatchObject({ state: 'ignored', reason: 'automatic' });
    }
    expect(await messagesOf(owner, ticketId)).toHaveLength(before);
    await deliver();
    expect(await readOutbox(t.dataDir)).toHaveLength(outboxBefore);
  });

  it('a hard bounce marks our mail bounced and pauses notifications until the person signs in again', async () => {
    const { owner, ticketId, ticketNo, notice } = await answeredTicket();
    const report = [
      `From: Mail Delivery System <MAILER-DAEMON@${SENDER_DOMAIN}>`,
      `To: ${replyTo(notice)}`,
      'Subject: Undelivered Mail Returned to Sender',
      `Message-ID: <dsn-${randomBytes(6).toString('hex')}@${SENDER_DOMAIN}>`,
      'Auto-Submitted: auto-replied',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain',
      '',
      'Your message could not be delivered.',
      '--b1',
      'Content-Type: message/delivery-status',
      '',
      `Reporting-MTA: dns; mx.${SENDER_DOMAIN}`,
      '',
      `Final-Recipient: rfc822; ${owner.email}`,
      'Action: failed',
      'Status: 5.1.1',
      '--b1',
      'Content-Type: text/rfc822-headers',
      '',
      `Message-ID: ${notice.messageId}`,
      `Subject: ${notice.subject}`,
      '--b1--',
      '',
    ].join('\r\n');
    await send({ from: `mailer-daemon@${SENDER_DOMAIN}`, to: replyTo(notice), raw: report, envelopeFrom: '' });
    await decide();
    const [mail] = await queryRows<{ bounce: string | null }>(
      t.database.db,
      sql`select bounce from mail_outbox where message_id = ${notice.messageId}`,
    );
    expect(mail?.bounce).toBe('hard 5.1.1');
    const listed = await admin.get(`/api/admin/mail?q=${encodeURIComponent(owner.email)}`);
    expect(listed.body).toContain('5.1.1');

    // Paused: the next answer is not mailed.
    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Any news?' });
    await deliver();
    const replies = (await readOutbox(t.dataDir)).filter((m) => m.subject === `New reply on ticket #${ticketNo}`);
    expect(replies).toHaveLength(1);
    // Signing in resumes it.
    await signIn(t, owner.email, owner.password);
    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Still there?' });
    await deliver();
    expect((await readOutbox(t.dataDir)).filter((m) => m.subject === `New reply on ticket #${ticketNo}`)).toHaveLength(
      2,
    );
  });
});

describe('closed tickets and strangers', () => {
  it('a reply to a closed ticket is not posted in it: it goes to a follow-up ticket (decision 132), no "create a new ticket"', async () => {
    const { owner, ticketId, ticketNo, notice } = await answeredTicket();
    await admin.post(`/api/admin/support/tickets/${ticketId}/close`);
    const before = (await messagesOf(owner, ticketId)).length;
    for (const words of ['One more thing.', 'And another.']) {
      await send({ from: owner.email, to: replyTo(notice), text: words, subject: `Re: ${notice.subject}` });
      await decide();
    }
    expect(await messagesOf(owner, ticketId)).toHaveLength(before);
    // The follow-up itself is tested in closed-ticket-follow-up.test.ts.
    const open = (await owner.get('/api/support/tickets?open=true')).json().tickets as Array<{ id: string }>;
    expect(open).toHaveLength(1);
    await deliver();
    const mails = (await readOutbox(t.dataDir)).filter((m) => m.to.includes(owner.email));
    expect(mails.filter((m) => m.text.includes(`Ticket #${ticketNo} is closed`))).toHaveLength(0);
    expect(mails.filter((m) => m.subject.startsWith('Your reply opened ticket'))).toHaveLength(1);
  });

  it('a verified account’s mail to the support address opens a General ticket with the subject first', async () => {
    const owner = await supportUser(t, { email: person('hemi') });
    await send({
      from: owner.email,
      to: `support@${REPLY_DOMAIN}`,
      subject: 'Lost pēke',
      text: 'My bag is lost, kia ora.',
    });
    await decide();
    const list = await owner.get('/api/support/tickets?open=true');
    const tickets = list.json().tickets as Array<{ id: string; reason: string }>;
    expect(tickets).toHaveLength(1);
    expect(tickets[0]!.reason).toBe('General');
    const [first] = await messagesOf(owner, tickets[0]!.id);
    expect(first).toMatchObject({ messageBody: 'Lost pēke\n\nMy bag is lost, kia ora.', byEmail: true });
  });

  it('a stranger gets one polite answer a day, and an automatic mail none', async () => {
    const stranger = person('stranger');
    for (let i = 0; i < 2; i++) {
      await send({ from: stranger, to: `support@${REPLY_DOMAIN}`, subject: 'Hello', text: 'Can you carry my parcel?' });
      await decide();
    }
    const robot = person('robot');
    await send({
      from: robot,
      to: `support@${REPLY_DOMAIN}`,
      text: 'Out of office',
      headers: { 'Auto-Submitted': 'auto-replied' },
    });
    await decide();
    await deliver();
    const mails = await readOutbox(t.dataDir);
    expect(mails.filter((m) => m.to.includes(stranger))).toHaveLength(1);
    expect(mails.find((m) => m.to.includes(stranger))!.subject).toBe('Re: Hello');
    expect(mails.filter((m) => m.to.includes(robot))).toHaveLength(0);
  });
});
