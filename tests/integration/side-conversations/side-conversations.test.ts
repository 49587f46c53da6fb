import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIDE_TEXT } from '../../../src/contracts/side-conversations.ts';
import { LIVE_EVENTS } from '../../../src/contracts/support.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { pdf, png, postFiles } from '../../helpers/attachment-files.ts';
import { type SignedMail, signedMailToReceiver } from '../../helpers/inbound-mail.ts';
import { readOutbox, type ReadMail } from '../../helpers/mail.ts';
import { createMailZone, type MailZone } from '../../helpers/mail-dns.ts';
import { openSse } from '../../helpers/sse-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Side conversations (docs/decisions/138-side-conversations.md): from a ticket, the team mails
 * someone other than its customer; the mail leaves through the outbox with a reply address of the
 * conversation's own, and the answer comes back through the SMTP receiver under the customer's
 * trust rules, trimmed to its new words. The customer never sees any of it. The test's DNS zone
 * signs and vouches for the senders (tests/helpers/mail-dns.ts); the workers run when the test says.
 */
const REPLY_DOMAIN = 'reply.bagspace.test';
const PARTNER_DOMAIN = 'kea-couriers.test';
const OTHER_DOMAIN = 'not-kea.test';
let t: TestApp;
let zone: MailZone;
let admin: SupportUser;
let port: number;
let base: string;

const address = (label: string, domain = PARTNER_DOMAIN) => `${label}-${randomBytes(4).toString('hex')}@${domain}`;

beforeAll(async () => {
  zone = createMailZone();
  zone.addSender(PARTNER_DOMAIN);
  zone.addSender(OTHER_DOMAIN);
  t = await createTestApp({
    env: {
      REPLY_DOMAIN,
      INBOUND_SMTP_PORT: '0',
      INBOUND_SMTP_HOST: '127.0.0.1',
      TICKETS_PER_USER_PER_HOUR: '1000',
    },
    mailWorker: false,
    dnsResolver: zone.resolver,
  });
  port = t.app.inbound.smtpPort()!;
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await supportUser(t, { role: 'admin', email: address('desk', 'bagspace.test') });
  await t.database.db.execute(sql`update users set name = 'Sam' where id = ${admin.id}::uuid`);
});
afterAll(() => t?.close());

const send = (mail: SignedMail) => signedMailToReceiver(port, zone, mail);
const decide = () => t.app.inbound.worker.runOnce();
const deliver = () => t.app.mailWorker.runOnce();
const replyTo = (mail: ReadMail) => mail.headers['reply-to']!.replace(/^.*<|>.*$/g, '').trim();

interface Side {
  id: string;
  ticketId: string;
  counterpart: string;
  state: string;
  messages: Array<{
    id: number;
    direction: string;
    body: string;
    byEmail: boolean;
    authorEmail: string | null;
    inboundId: number | null;
    files: Array<{ name: string; size: number; index?: number }>;
  }>;
}

async function sidesOf(ticketId: string): Promise<Side[]> {
  const res = await admin.get(`/api/admin/support/tickets/${ticketId}/side-conversations`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().conversations as Side[];
}

/** A customer's ticket, a side conversation started on it with a partner, and the mail it sent. */
async function started(options: { owner?: SupportUser; to?: string; include?: boolean } = {}) {
  const owner = options.owner ?? (await supportUser(t, { email: address('aroha', 'customer.test') }));
  const { ticketId, ticketNo } = await owner.createTicket('General', 'My bag never reached Wellington.');
  const first = (await owner.get(`/api/support/tickets/${ticketId}/messages`)).json().messages[0] as { id: number };
  const to = options.to ?? address('ops');
  const res = await admin.post(`/api/admin/support/tickets/${ticketId}/side-conversations`, {
    to,
    subject: `Bag of ticket #${ticketNo}`,
    messageBody: 'Kia ora, did a bag from Auckland reach your Wellington depot on Monday?',
    ...(options.include ? { includeMessageIds: [first.id] } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  const side = res.json().conversation as Side;
  await deliver();
  const mail = (await readOutbox(t.dataDir)).find((m) => m.to.includes(to));
  expect(mail, 'the side conversation was mailed').toBeDefined();
  return { owner, ticketId, ticketNo, side, to, mail: mail! };
}

describe('a side conversation', () => {
  it('is mailed through the outbox from the support address in the agent’s name, with a reply address of its own', async () => {
    const { side, mail, to, ticketId } = await started({ include: true });
    expect(side).toMatchObject({ counterpart: to, state: 'waiting', ticketId });
    expect(side.messages).toMatchObject([{ direction: 'out', authorEmail: admin.email, byEmail: false }]);
    expect(mail.from).toContain('Sam at');
    expect(mail.from).toContain(t.config.mail.supportAddress);
    expect(replyTo(mail)).toMatch(new RegExp(`^reply\\+[0-9a-f]{48}@${REPLY_DOMAIN.replaceAll('.', '\\.')}$`));
    expect(mail.headers['in-reply-to']).toBe(`<side-${side.id}@localhost>`);
    expect(mail.text).toContain('did a bag from Auckland reach your Wellington depot');
    // The ticket's message it was asked to include is quoted below.
    expect(mail.text).toContain('> My bag never reached Wellington.');
    // The token is kept only as its hash; the mail is tied to the ticket (it goes with it).
    const token = replyTo(mail).slice('reply+'.length, 'reply+'.length + 48);
    const plain = await queryRows(
      t.database.db,
      sql`select 1 from side_conversation_tokens where token_hash = ${token}`,
    );
    expect(plain).toHaveLength(0);
    const [row] = await queryRows<{ ticket_id: string; kind: string }>(
      t.database.db,
      sql`select ticket_id, kind from mail_outbox where recipient = ${to}`,
    );
    expect(row).toEqual({ ticket_id: ticketId, kind: 'side-conversation' });
    const audit = (await admin.get('/api/admin/audit')).json().entries as Array<{ action: string; details: object }>;
    expect(audit.find((e) => e.action === 'ticket.side-start')?.details).toMatchObject({
      counterpart: to,
      sideId: side.id,
    });
  });

  it('takes their reply through the SMTP receiver: only the new words, marked answered, the whole mail on request, live to the team', async () => {
    const { side, mail, to, ticketId } = await started();
    const stream = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, admin.headers);
    try {
      const answer = await send({
        from: to,
        to: replyTo(mail),
        subject: `Re: ${mail.subject}`,
        text: 'Yes, it is on our shelf; we will send it on tomorrow.\n\nOn Mon, 30 Nov 2026 at 10:12, Sam at Bagspace <support@bagspace.test> wrote:\n> Kia ora, did a bag reach your depot?',
        inReplyTo: mail.messageId,
      });
      expect(answer.response).toMatch(/^250/);
      await decide();
      await stream.waitFor((events) => events.some((e) => e.event === LIVE_EVENTS.side));
    } finally {
      stream.close();
    }
    const [now] = (await sidesOf(ticketId)).filter((s) => s.id === side.id);
    expect(now!.state).toBe('answered');
    const reply = now!.messages.at(-1)!;
    expect(reply).toMatchObject({
      direction: 'in',
      body: 'Yes, it is on our shelf; we will send it on tomorrow.',
      byEmail: true,
      authorEmail: null,
    });
    const whole = await admin.get(`/api/admin/support/side-conversations/${side.id}/messages/${reply.id}/mail`);
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.json().text).toContain('> Kia ora, did a bag reach your depot?');
    expect(whole.json().to).toBe('reply+…@' + REPLY_DOMAIN);
    // Nothing of it reached the ticket's own thread.
    const thread = (await admin.get(`/api/admin/support/tickets/${ticketId}`)).json().messages as Array<{
      messageBody: string;
    }>;
    expect(thread.map((m) => m.messageBody)).toEqual(['My bag never reached Wellington.']);
  });

  it('holds a reply from another address, or one its domain does not vouch for; an admin’s Post puts it in the conversation', async () => {
    const { side, mail, ticketId } = await started();
    const stranger = address('someone', OTHER_DOMAIN);
    await send({
      from: stranger,
      to: replyTo(mail),
      text: 'I am not who you wrote to.',
      messageId: `<${randomBytes(6).toString('hex')}@x>`,
    });
    // Unsigned, from a server the partner's domain does not name: DMARC fails.
    await send({
      from: side.counterpart,
      to: replyTo(mail),
      text: 'Unsigned words.',
      envelopeFrom: `bounce@${OTHER_DOMAIN}`,
      signAs: null,
    });
    await decide();
    const held = await queryRows<{ id: number; reason: string; side_conversation_id: string; ticket_id: string }>(
      t.database.db,
      sql`select id::int, reason, side_conversation_id, ticket_id from inbound_mail
          where state = 'held' and side_conversation_id = ${side.id}::uuid order by id`,
    );
    expect(held.map((h) => h.reason)).toEqual(['sender-mismatch', 'not-authenticated']);
    expect(held.every((h) => h.ticket_id === ticketId)).toBe(true);
    expect((await sidesOf(ticketId))[0]!.state).toBe('waiting');
    // The console's ticket page hears of held mail through the list's ticket filter (decision 134).
    const listed = await admin.get(`/api/admin/mail/incoming?state=held&ticketId=${ticketId}`);
    expect(listed.json().mails).toHaveLength(2);
    const posted = await admin.post(`/api/admin/mail/incoming/${held[1]!.id}/post`);
    expect(posted.statusCode, posted.body).toBe(200);
    const [after] = await sidesOf(ticketId);
    expect(after!.state).toBe('answered');
    expect(after!.messages.at(-1)).toMatchObject({ direction: 'in', body: 'Unsigned words.', byEmail: true });
    const thread = (await admin.get(`/api/admin/support/tickets/${ticketId}`)).json().messages as unknown[];
    expect(thread).toHaveLength(1);
  });

  it('can be written again and closed; a closed one’s address is refused at RCPT TO as an expired one is', async () => {
    const { side, mail, to, ticketId } = await started();
    const again = await admin.post(`/api/admin/support/side-conversations/${side.id}/messages`, {
      messageBody: 'Any news on the bag?',
    });
    expect(again.statusCode, again.body).toBe(200);
    await deliver();
    const second = (await readOutbox(t.dataDir)).filter((m) => m.to.includes(to));
    expect(second).toHaveLength(2);
    expect(second.map((m) => m.subject)).toContain(`Re: ${mail.subject}`);
    expect(replyTo(second[1]!)).not.toBe(replyTo(second[0]!));
    const closed = await admin.post(`/api/admin/support/side-conversations/${side.id}/close`);
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().conversation.state).toBe('closed');
    const refused = await send({ from: to, to: replyTo(mail), text: 'Late answer.' }).catch(
      (e: { responseCode?: number }) => e,
    );
    expect((refused as { responseCode?: number }).responseCode).toBe(550);
    const more = await admin.post(`/api/admin/support/side-conversations/${side.id}/messages`, {
      messageBody: 'Hello?',
    });
    expect(more.statusCode).toBe(409);
    expect((await sidesOf(ticketId))[0]!.state).toBe('closed');
    const audit = (await admin.get('/api/admin/audit')).json().entries as Array<{ action: string; details: object }>;
    for (const action of ['ticket.side-reply', 'ticket.side-close'])
      expect(audit.find((e) => e.action === action)?.details).toMatchObject({ counterpart: to, sideId: side.id });
  });

  it('refuses the customer’s own address and an unknown ticket, and only admins reach it', async () => {
    const { owner, ticketId, side } = await started();
    const own = await admin.post(`/api/admin/support/tickets/${ticketId}/side-conversations`, {
      to: owner.email,
      subject: 'x',
      messageBody: 'y',
    });
    expect(own.statusCode).toBe(400);
    const unknown = await admin.get(
      `/api/admin/support/tickets/00000000-0000-4000-8000-000000000000/side-conversations`,
    );
    expect(unknown.statusCode).toBe(404);
    for (const url of [
      `/api/admin/support/tickets/${ticketId}/side-conversations`,
      `/api/admin/support/side-conversations/${side.id}/messages/${side.messages[0]!.id}/mail`,
    ])
      expect((await owner.get(url)).statusCode).toBe(403);
    expect((await owner.post(`/api/admin/support/side-conversations/${side.id}/close`)).statusCode).toBe(403);
  });
});

describe('files', () => {
  /** A ticket whose customer sent a photo and a PDF; the files as the ticket lists them, with their stored bytes. */
  async function ticketWithFiles() {
    const owner = await supportUser(t, { email: address('mere', 'customer.test') });
    const { ticketId, ticketNo } = await owner.createTicket('Incident', 'The handle of my bag came off.');
    const sent = await postFiles(
      t,
      `/api/support/tickets/${ticketId}/messages`,
      owner.headers,
      { messageBody: 'Photo and the waybill attached.' },
      [
        { name: 'handle.png', data: await png() },
        { name: 'waybill.pdf', data: pdf() },
      ],
    );
    expect(sent.statusCode, sent.body).toBe(200);
    const thread = (await admin.get(`/api/admin/support/tickets/${ticketId}`)).json().messages as Array<{
      attachments: Array<{ id: string; name: string; size: number }>;
    }>;
    const files = thread.flatMap((m) => m.attachments);
    expect(files.map((f) => f.name)).toEqual(['handle.png', 'waybill.pdf']);
    const bytes = await Promise.all(
      files.map(async (f) => {
        const res = await admin.get(`/api/support/tickets/${ticketId}/attachments/${f.id}`);
        expect(res.statusCode).toBe(200);
        return res.rawPayload;
      }),
    );
    return { owner, ticketId, ticketNo, files, bytes };
  }

  const start = (ticketId: string, to: string, includeAttachmentIds: string[]) =>
    admin.post(`/api/admin/support/tickets/${ticketId}/side-conversations`, {
      to,
      subject: 'The handle',
      messageBody: 'Could you look at the photo and the waybill?',
      includeAttachmentIds,
    });

  it('go with the first mail when the agent ticks them, read from storage when it is sent', async () => {
    const { ticketId, files, bytes } = await ticketWithFiles();
    const to = address('claims');
    const res = await start(
      ticketId,
      to,
      files.map((f) => f.id),
    );
    expect(res.statusCode, res.body).toBe(200);
    const side = res.json().conversation as Side;
    expect(side.messages[0]!.files).toEqual(files.map((f) => ({ name: f.name, size: f.size })));
    await deliver();
    const [mail] = (await readOutbox(t.dataDir)).filter((m) => m.to.includes(to));
    expect(mail!.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['handle.png', 'image/png'],
      ['waybill.pdf', 'application/pdf'],
    ]);
    expect(mail!.attachments.map((a) => a.content.equals(bytes[mail!.attachments.indexOf(a)]!))).toEqual([true, true]);
    const audit = (await admin.get('/api/admin/audit')).json().entries as Array<{ action: string; details: object }>;
    expect(audit.find((e) => e.action === 'ticket.side-start')?.details).toMatchObject({
      sideId: side.id,
      files: ['handle.png', 'waybill.pdf'],
    });
  });

  it('refuses, in words and changing nothing, a file of another ticket, an unknown one, more than five, or more than 15 MB', async () => {
    const { ticketId, files, owner } = await ticketWithFiles();
    const other = await ticketWithFiles();
    const before = (await sidesOf(ticketId)).length;
    for (const [ids, words] of [
      [[other.files[0]!.id], SIDE_TEXT.fileMissing],
      [['00000000-0000-4000-8000-000000000000'], SIDE_TEXT.fileMissing],
      [[files[0]!.id, ...Array.from({ length: 5 }, () => randomUUID())], SIDE_TEXT.tooManyFiles],
    ] as const) {
      const res = await start(ticketId, address('claims'), [...ids]);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.fields.includeAttachmentIds).toBe(words);
    }
    // Two PDFs of 8 MB: each within a message's limit, together more than a mail may carry.
    const big = await postFiles(
      t,
      `/api/support/tickets/${ticketId}/messages`,
      owner.headers,
      { messageBody: 'Two scans.' },
      [
        { name: 'scan-1.pdf', data: pdf(8 * 1_048_576) },
        { name: 'scan-2.pdf', data: pdf(8 * 1_048_576) },
      ],
    );
    expect(big.statusCode, big.body).toBe(200);
    const scans = (
      (await admin.get(`/api/admin/support/tickets/${ticketId}`)).json().messages as Array<{
        attachments: Array<{ id: string; name: string }>;
      }>
    )
      .flatMap((m) => m.attachments)
      .filter((f) => f.name.startsWith('scan-'));
    const tooBig = await start(
      ticketId,
      address('claims'),
      scans.map((f) => f.id),
    );
    expect(tooBig.statusCode, tooBig.body).toBe(400);
    expect(tooBig.json().error.fields.includeAttachmentIds).toBe(SIDE_TEXT.filesTooLarge);
    expect(await sidesOf(ticketId)).toHaveLength(before);
  });

  it('a file erased before its mail is sent is left out; the mail still goes', async () => {
    const { ticketId, files } = await ticketWithFiles();
    const to = address('claims');
    expect((await start(ticketId, to, [files[0]!.id])).statusCode).toBe(200);
    const [row] = await queryRows<{ storage_key: string }>(
      t.database.db,
      sql`select storage_key from ticket_attachments where id = ${files[0]!.id}::uuid`,
    );
    await fs.promises.rm(path.join(t.dataDir, 'files', row!.storage_key));
    await deliver();
    const [mail] = (await readOutbox(t.dataDir)).filter((m) => m.to.includes(to));
    expect(mail!.text).toContain('Could you look at the photo');
    expect(mail!.attachments).toEqual([]);
  });

  it('that come with their reply are listed on it and downloaded from the kept mail; a signature’s logo is not one; files alone are an answer', async () => {
    const { mail, to, ticketId, owner } = await started();
    const waybill = pdf(2_000);
    const log = Buffer.from('date,depot,bag\n2026-11-30,Wellington,NZ4471902235\n');
    await send({
      from: to,
      to: replyTo(mail),
      subject: `Re: ${mail.subject}`,
      text: 'The waybill and our depot log are attached.',
      html: '<p>The waybill and our depot log are attached.</p><p><img src="cid:logo@kea"></p>',
      attachments: [
        { filename: 'waybill.pdf', content: waybill, contentType: 'application/pdf' },
        { filename: 'logo.png', content: await png(8, 8), contentType: 'image/png', cid: 'logo@kea' },
        { filename: '../depot-log.csv', content: log, contentType: 'text/csv' },
      ],
    });
    await decide();
    const reply = (await sidesOf(ticketId))[0]!.messages.at(-1)!;
    expect(reply.body).toBe('The waybill and our depot log are attached.');
    expect(reply.files.map((f) => [f.name, f.size])).toEqual([
      ['waybill.pdf', waybill.length],
      ['depot-log.csv', log.length],
    ]);
    const url = (index: number) => `/api/admin/mail/incoming/${reply.inboundId}/files/${index}`;
    const [first, second] = reply.files;
    const pdfFile = await admin.get(url(first!.index!));
    expect(pdfFile.statusCode).toBe(200);
    expect(pdfFile.headers['content-type']).toBe('application/pdf');
    expect(pdfFile.headers['content-disposition']).toMatch(/^attachment; filename="waybill\.pdf"/);
    expect(pdfFile.headers['x-content-type-options']).toBe('nosniff');
    expect(pdfFile.rawPayload.equals(waybill)).toBe(true);
    // Not a photo or a PDF by its bytes: plain bytes, a download, never shown.
    const csv = await admin.get(url(second!.index!));
    expect(csv.headers['content-type']).toBe('application/octet-stream');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="depot-log\.csv"/);
    expect(csv.rawPayload.equals(log)).toBe(true);
    expect((await admin.get(url(9))).statusCode).toBe(404);
    expect((await owner.get(url(first!.index!))).statusCode).toBe(403);

    // A second reply with a file and no words: an answer all the same.
    await send({
      from: to,
      to: replyTo(mail),
      subject: `Re: ${mail.subject}`,
      text: '',
      attachments: [{ filename: 'signed-form.pdf', content: pdf(), contentType: 'application/pdf' }],
    });
    await decide();
    const last = (await sidesOf(ticketId))[0]!.messages.at(-1)!;
    expect(last).toMatchObject({ direction: 'in', body: '', files: [{ name: 'signed-form.pdf', index: 0 }] });
  });
});

describe('the customer', () => {
  it('never sees a side conversation: not in their API, their live stream, their data export or the search', async () => {
    const { owner, ticketId, side, mail, to } = await started({ include: true });
    const stream = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, owner.headers);
    try {
      await send({ from: to, to: replyTo(mail), text: 'SECRET-PARTNER-WORDS about the bag.' });
      await decide();
      // A later message of the ticket reaches the owner's stream: what came before it has come too.
      await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'We are on it.' });
      await stream.waitFor((events) => JSON.stringify(events).includes('We are on it.'));
      expect(stream.events.some((e) => e.event === LIVE_EVENTS.side)).toBe(false);
      expect(JSON.stringify(stream.events)).not.toContain('SECRET-PARTNER-WORDS');
      expect(JSON.stringify(stream.events)).not.toContain(to);
    } finally {
      stream.close();
    }
    expect((await sidesOf(ticketId))[0]!.state).toBe('answered');
    const seen = [
      await owner.get(`/api/support/tickets/${ticketId}/messages`),
      await owner.get(`/api/support/tickets/${ticketId}`),
      await owner.get('/api/support/tickets?open=true'),
      await owner.get('/api/account/export'),
    ];
    for (const res of seen) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).not.toContain('SECRET-PARTNER-WORDS');
      expect(res.body).not.toContain(to);
      expect(res.body).not.toContain(side.id);
      expect(res.body).not.toContain('Wellington depot');
    }
    // The customer's own API has no address for it.
    expect((await owner.get(`/api/support/tickets/${ticketId}/side-conversations`)).statusCode).toBe(404);
    // The desk's search does not find the ticket by a side conversation's words either.
    const search = await admin.get('/api/admin/support/search?q=SECRET-PARTNER-WORDS');
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json().results).toEqual([]);
  });
});

describe('merging and splitting', () => {
  it('a side conversation follows its ticket into a merge, a reply after it shows on the target, and the undo takes it back', async () => {
    const owner = await supportUser(t, { email: address('mere', 'customer.test') });
    const { ticketId: sourceId, side, mail, to } = await started({ owner });
    const { ticketId: targetId } = await owner.createTicket('General', 'Also: the receipt for my bag.');
    const merged = await admin.post(`/api/admin/support/tickets/${sourceId}/merge`, { targetTicketId: targetId });
    expect(merged.statusCode, merged.body).toBe(200);
    expect((await sidesOf(targetId)).map((s) => s.id)).toEqual([side.id]);
    // The merged ticket's address reaches the target, as every ticket address does.
    expect((await sidesOf(sourceId)).map((s) => s.id)).toEqual([side.id]);
    // The inbox counts the conversation's wait on the ticket it now shows on.
    const waiting = (await admin.get('/api/admin/support/tickets?open=true&thirdParty=waiting')).json()
      .tickets as Array<{
      id: string;
    }>;
    expect(waiting.map((ticket) => ticket.id)).toContain(targetId);
    await send({ from: to, to: replyTo(mail), text: 'Found it after the merge.' });
    await decide();
    expect((await sidesOf(targetId))[0]!.messages.at(-1)!.body).toBe('Found it after the merge.');
    const [merge] = (await admin.get(`/api/admin/support/tickets/${targetId}/merges`)).json().merges as Array<{
      id: number;
    }>;
    const undone = await admin.post(`/api/admin/support/merges/${merge!.id}/undo`);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(await sidesOf(targetId)).toEqual([]);
    const back = await sidesOf(sourceId);
    expect(back.map((s) => s.id)).toEqual([side.id]);
    expect(back[0]!.messages.map((m) => m.body).at(-1)).toBe('Found it after the merge.');
  });

  it('stays with the ticket it was started on when part of that ticket is split off, and after the undo', async () => {
    const { owner, ticketId, side } = await started();
    await owner.post(`/api/support/tickets/${ticketId}/messages`, {
      messageBody: 'A second question, about a refund.',
    });
    const thread = (await admin.get(`/api/admin/support/tickets/${ticketId}`)).json().messages as Array<{ id: number }>;
    const split = await admin.post(`/api/admin/support/tickets/${ticketId}/split`, {
      messageId: thread.at(-1)!.id,
      reason: 'General',
    });
    expect(split.statusCode, split.body).toBe(200);
    expect((await sidesOf(ticketId)).map((s) => s.id)).toEqual([side.id]);
    expect(await sidesOf(split.json().newTicketId as string)).toEqual([]);
    const [merge] = (await admin.get(`/api/admin/support/tickets/${split.json().newTicketId}/merges`)).json()
      .merges as Array<{ id: number }>;
    expect((await admin.post(`/api/admin/support/merges/${merge!.id}/undo`)).statusCode).toBe(200);
    expect((await sidesOf(ticketId)).map((s) => s.id)).toEqual([side.id]);
  });
});

describe('the inbox', () => {
  it('filters the open tickets waiting on a third party', async () => {
    const { ticketId: waiting } = await started();
    const { ticketId: answered, mail, to } = await started();
    await send({ from: to, to: replyTo(mail), text: 'Answered.' });
    await decide();
    const res = await admin.get('/api/admin/support/tickets?open=true&thirdParty=waiting');
    expect(res.statusCode, res.body).toBe(200);
    const ids = (res.json().tickets as Array<{ id: string }>).map((ticket) => ticket.id);
    expect(ids).toContain(waiting);
    expect(ids).not.toContain(answered);
  });
});
