import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/server/db/sql.ts';
import { type Dovecot, dovecotAvailable, startDovecot } from '../../helpers/dovecot.ts';
import { readOutbox } from '../../helpers/mail.ts';
import { openSse, type SseEvent } from '../../helpers/sse-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

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

  it('is posted in its ticket, reaches the open stream live, and leaves the inbox', async () => {
    const owner = await supportUser(t, { email: `tama-${randomBytes(4).toString('hex')}@kiwi-mail.test` });
    const { ticketId, ticketNo } = await owner.createTicket('General', 'Is my bag on the plane?');
    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Which flight?' });
    // The worker runs by itself here: wait for the notification, as a person waits for their mail.
    const deadline = Date.now() + 15_000;
    let notice;
    while (!notice && Date.now() < deadline) {
      notice = (await readOutbox(t.dataDir)).find((m) => m.subject === `New reply on ticket #${ticketNo}`);
      if (!notice) await new Promise((r) => setTimeout(r, 50));
    }
    expect(notice).toBeDefined();
    const replyAddress = notice!.headers['reply-to']!.replace(/^.*<|>.*$/g, '').trim();

    const stream = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, owner.headers);
    try {
      const sentAt = Date.now();
      await dovecot.deliver(
        [
          `Authentication-Results: ${PROVIDER}; dkim=pass header.d=kiwi-mail.test; spf=pass smtp.mailfrom=kiwi-mail.test; dmarc=pass header.from=kiwi-mail.test`,
          `From: Tama <${owner.email}>`,
          `To: ${replyAddress}`,
          `Subject: Re: ${notice!.subject}`,
          `Message-ID: <imap-${randomBytes(6).toString('hex')}@kiwi-mail.test>`,
          `In-Reply-To: ${notice!.messageId}`,
          'MIME-Version: 1.0',
          'Content-Type: text/plain; charset=utf-8',
          'Content-Transfer-Encoding: quoted-printable',
          '',
          'NZ42 to Wellington, ng=C4=81 mihi.',
          '',
          `On Fri, 27 Nov 2026 at 10:12, Bagspace <${replyAddress}> wrote:`,
          '> Which flight?',
          '',
        ].join('\r\n'),
      );
      const arrived = (e: SseEvent) => e.event === 'message' && JSON.stringify(e.data).includes('NZ42');
      const events = await stream.waitFor((all) => all.some(arrived), 15_000);
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
    const deadline = Date.now() + 15_000;
    let row: { state: string; reason: string | null } | undefined;
    while (row?.state !== 'held' && Date.now() < deadline) {
      [row] = await queryRows<{ state: string; reason: string | null }>(
        t.database.db,
        sql`select state, reason from inbound_mail where message_id = ${messageId}`,
      );
      if (row?.state !== 'held') await new Promise((r) => setTimeout(r, 50));
    }
    expect(row).toEqual({ state: 'held', reason: 'not-authenticated' });
  });
});
