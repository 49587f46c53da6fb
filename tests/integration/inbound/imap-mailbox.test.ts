import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/server/db/sql.ts';
import { type Dovecot, dovecotAvailable, startDovecot } from '../../helpers/dovecot.ts';
import { readOutbox } from '../../helpers/mail.ts';
import { openSse, type SseEvent } from '../../helpers/sse-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { waitFor } from '../../helpers/wait.ts';

/**
 * Reply by email through a support mailbox (IMAP_URL), as with a Google Workspace or Microsoft 365
 * address: the mailbox provider checked DMARC and says so in its Authentication-Results
 * (INBOUND_AUTHSERV_ID). A real Dovecot holds the mailbox; the app reads it in IDLE, stores each
 * message before moving it, and the reply reaches the user's open ticket stream live.
 */
const PROVIDER = 'mx.provider.test';
const REPLY_DOMAIN = 'reply.bagspace.test';
let dovecot: Dovecot;
let t: TestApp;
let admin: SupportUser;
let base: string;

// Needs a database (the app); Dovecot is installed by .ci/run, so CI never skips it.
describe.skipIf(!dovecotAvailable && !process.env.CI)('a reply read from the support mailbox', () => {
  beforeAll(async () => {
    dovecot = await startDovecot();
    t = await createTestApp({
      env: { REPLY_DOMAIN, IMAP_URL: dovecot.url, INBOUND_AUTHSERV_ID: PROVIDER, NOTIFY_DELAY_SECONDS: '0' },
    });
    admin = await supportUser(t, { role: 'admin' });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
    await dovecot?.stop();
  });

  /** The notification of an answer on ticket #N, waited for as a person waits for their mail. */
  async function notice(ticketNo: number) {
    const found = await waitFor(`the mail about an answer on ticket #${ticketNo}`, async () =>
      (await readOutbox(t.dataDir)).find((m) => m.subject === `New reply on ticket #${ticketNo}`),
    );
    return { ...found, replyAddress: found.headers['reply-to']!.replace(/^.*<|>.*$/g, '').trim() };
  }

  /** A reply to that notification, as the owner's provider delivers it to the support mailbox. */
  const replyTo = (owner: { email: string }, mail: Awaited<ReturnType<typeof notice>>, body: string) =>
    dovecot.deliver(
      [
        `Authentication-Results: ${PROVIDER}; dkim=pass header.d=kiwi-mail.test; spf=pass smtp.mailfrom=kiwi-mail.test; dmarc=pass header.from=kiwi-mail.test`,
        `From: Tama <${owner.email}>`,
        `To: ${mail.replyAddress}`,
        `Subject: Re: ${mail.subject}`,
        `Message-ID: <imap-${randomBytes(6).toString('hex')}@kiwi-mail.test>`,
        `In-Reply-To: ${mail.messageId}`,
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: quoted-printable',
        '',
        body,
        '',
        `On Fri, 27 Nov 2026 at 10:12, Bagspace <${mail.replyAddress}> wrote:`,
        '> Which flight?',
        '',
      ].join('\r\n'),
    );

  it('is posted in its ticket, reaches the open stream live, and leaves the inbox', async () => {
    const owner = await supportUser(t, { email: `tama-${randomBytes(4).toString('hex')}@kiwi-mail.test` });
    const { ticketId, ticketNo } = await owner.createTicket('General', 'Is my bag on the plane?');
    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Which flight?' });
    const mail = await notice(ticketNo);

    const stream = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, owner.headers);
    try {
      const sentAt = Date.now();
      await replyTo(owner, mail, 'NZ42 to Wellington, ng=C4=81 mihi.');
      const arrived = (e: SseEvent) => e.event === 'message' && JSON.stringify(e.data).includes('NZ42');
      const events = await stream.waitFor((all) => all.some(arrived));
      const message = events.find(arrived)!.data as { messageBody: string; byEmail?: boolean };
      expect(message).toMatchObject({ messageBody: 'NZ42 to Wellington, ngā mihi.', byEmail: true });
      console.log(`imap: mailbox delivery to the open stream in ${Date.now() - sentAt} ms`);
    } finally {
      stream.close();
    }
    expect(await dovecot.mailboxCount('INBOX')).toBe(0);
    expect(await dovecot.mailboxCount('Processed')).toBe(1);
    const [row] = await queryRows<{ via: string; state: string }>(
      t.database.db,
      sql`select via, state from inbound_mail order by id desc limit 1`,
    );
    expect(row).toEqual({ via: 'imap', state: 'posted' });
  });

  it('reaches the target when its ticket was merged since the mail was sent, and the stream opened at the old address', async () => {
    const owner = await supportUser(t, { email: `mere-${randomBytes(4).toString('hex')}@kiwi-mail.test` });
    const first = await owner.createTicket('General', 'My bag to Rotorua?');
    const second = await owner.createTicket('General', 'The Rotorua bag again.');
    await admin.post(`/api/admin/support/tickets/${first.ticketId}/messages`, { messageBody: 'Which flight?' });
    const mail = await notice(first.ticketNo);
    const merged = await admin.post(`/api/admin/support/tickets/${first.ticketId}/merge`, {
      targetTicketId: second.ticketId,
    });
    expect(merged.statusCode, merged.body).toBe(200);

    // A page opened at the merged ticket's address watches the target.
    const stream = await openSse(`${base}/api/support/tickets/${first.ticketId}/messages/stream`, owner.headers);
    try {
      await stream.waitFor((all) => all.some((e) => e.event === 'ticket'));
      expect((stream.events.find((e) => e.event === 'ticket')!.data as { id: string }).id).toBe(second.ticketId);
      await replyTo(owner, mail, 'NZ7 to Rotorua, after the merge.');
      const arrived = (e: SseEvent) => e.event === 'message' && JSON.stringify(e.data).includes('NZ7 to Rotorua');
      await stream.waitFor((all) => all.some(arrived));
    } finally {
      stream.close();
    }
    const thread = (await admin.get(`/api/admin/support/tickets/${second.ticketId}`)).json() as {
      ticket: { id: string };
      messages: Array<{ messageBody: string; byEmail?: boolean }>;
    };
    expect(thread.ticket.id).toBe(second.ticketId);
    expect(thread.messages.filter((m) => m.messageBody === 'NZ7 to Rotorua, after the merge.')).toMatchObject([
      { byEmail: true },
    ]);
  });

  it('holds a mail whose provider did not vouch for it (no Authentication-Results of ours)', async () => {
    const owner = await supportUser(t, { email: `rua-${randomBytes(4).toString('hex')}@kiwi-mail.test` });
    const { ticketId } = await owner.createTicket('General', 'Hello');
    const messageId = `<forged-${randomBytes(6).toString('hex')}@kiwi-mail.test>`;
    await dovecot.deliver(
      [
        // The sender's own claim, under another authserv-id: worth nothing.
        'Authentication-Results: mx.elsewhere.test; dmarc=pass header.from=kiwi-mail.test',
        `From: ${owner.email}`,
        `To: support@${REPLY_DOMAIN}`,
        'Subject: Re: ticket',
        `Message-ID: ${messageId}`,
        `References: <ticket-${ticketId}@localhost>`,
        '',
        'Please send my bag to another address.',
        '',
      ].join('\r\n'),
    );
    const row = await waitFor(`the inbound mail ${messageId} held`, async () => {
      const [found] = await queryRows<{ state: string; reason: string | null }>(
        t.database.db,
        sql`select state, reason from inbound_mail where message_id = ${messageId}`,
      );
      return found?.state === 'held' && found;
    });
    expect(row).toEqual({ state: 'held', reason: 'not-authenticated' });
  });
});
