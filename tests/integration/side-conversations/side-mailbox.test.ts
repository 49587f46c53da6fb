import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_EVENTS } from '../../../src/contracts/support.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { type Dovecot, dovecotAvailable, startDovecot } from '../../helpers/dovecot.ts';
import { readOutbox } from '../../helpers/mail.ts';
import { openSse } from '../../helpers/sse-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { waitFor } from '../../helpers/wait.ts';

/**
 * A side conversation's reply read from the support mailbox (IMAP_URL, decision 138), as the
 * replies to a ticket are (imap-mailbox.test.ts): the provider vouches in its Authentication-Results
 * (INBOUND_AUTHSERV_ID); the reply lands in the conversation, trimmed to its new words, the team's
 * open page hears of it live, and a reply its provider did not vouch for is held.
 */
const PROVIDER = 'mx.provider.test';
const REPLY_DOMAIN = 'reply.bagspace.test';
let dovecot: Dovecot;
let t: TestApp;
let admin: SupportUser;
let base: string;

describe.skipIf(!dovecotAvailable && !process.env.CI)(
  'a side conversation’s reply read from the support mailbox',
  () => {
    beforeAll(async () => {
      dovecot = await startDovecot();
      t = await createTestApp({ env: { REPLY_DOMAIN, IMAP_URL: dovecot.url, INBOUND_AUTHSERV_ID: PROVIDER } });
      admin = await supportUser(t, { role: 'admin' });
      base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await t?.close();
      await dovecot?.stop();
    });

    /** A ticket with a side conversation to `partner`, and the mail it sent (the mail worker runs by itself). */
    async function started(partner: string) {
      const owner = await supportUser(t);
      const { ticketId } = await owner.createTicket('General', 'My bag to Nelson?');
      const res = await admin.post(`/api/admin/support/tickets/${ticketId}/side-conversations`, {
        to: partner,
        subject: 'A bag for Nelson',
        messageBody: 'Is it with you?',
      });
      expect(res.statusCode, res.body).toBe(200);
      const mail = await waitFor(`the side conversation's mail to ${partner}`, async () =>
        (await readOutbox(t.dataDir)).find((m) => m.to.includes(partner)),
      );
      const side = res.json().conversation as { id: string };
      return { ticketId, side, mail, replyAddress: mail.headers['reply-to']!.replace(/^.*<|>.*$/g, '').trim() };
    }

    const deliver = (from: string, to: string, body: string, vouched = true) =>
      dovecot.deliver(
        [
          vouched
            ? `Authentication-Results: ${PROVIDER}; dkim=pass header.d=kea-couriers.test; spf=pass smtp.mailfrom=kea-couriers.test; dmarc=pass header.from=kea-couriers.test`
            : 'Authentication-Results: mx.elsewhere.test; dmarc=pass header.from=kea-couriers.test',
          `From: Depot <${from}>`,
          `To: ${to}`,
          'Subject: Re: A bag for Nelson',
          `Message-ID: <side-imap-${randomBytes(6).toString('hex')}@kea-couriers.test>`,
          'MIME-Version: 1.0',
          'Content-Type: text/plain; charset=utf-8',
          '',
          body,
          '',
          'On Mon, 30 Nov 2026 at 10:12, Sam at Bagspace <support@bagspace.test> wrote:',
          '> Is it with you?',
          '',
        ].join('\r\n'),
      );

    it('is posted in its conversation with only the new words, the team’s page hears of it, and it leaves the inbox', async () => {
      const partner = `depot-${randomBytes(4).toString('hex')}@kea-couriers.test`;
      const { ticketId, side, replyAddress } = await started(partner);
      const stream = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, admin.headers);
      try {
        await deliver(partner, replyAddress, 'It is here, on shelf 4.');
        await stream.waitFor((events) => events.some((e) => e.event === LIVE_EVENTS.side));
      } finally {
        stream.close();
      }
      const list = (await admin.get(`/api/admin/support/tickets/${ticketId}/side-conversations`)).json()
        .conversations as Array<{ id: string; state: string; messages: Array<{ body: string; byEmail: boolean }> }>;
      expect(list.find((c) => c.id === side.id)).toMatchObject({ state: 'answered' });
      expect(list[0]!.messages.at(-1)).toMatchObject({ body: 'It is here, on shelf 4.', byEmail: true });
      const [row] = await queryRows<{ via: string; state: string; side_conversation_id: string }>(
        t.database.db,
        sql`select via, state, side_conversation_id from inbound_mail order by id desc limit 1`,
      );
      expect(row).toEqual({ via: 'imap', state: 'posted', side_conversation_id: side.id });
      await waitFor('the mailbox message moved', async () => (await dovecot.mailboxCount('INBOX')) === 0 || undefined);
    });

    it('holds one its provider did not vouch for', async () => {
      const partner = `depot-${randomBytes(4).toString('hex')}@kea-couriers.test`;
      const { side, replyAddress } = await started(partner);
      await deliver(partner, replyAddress, 'Trust me, it is here.', false);
      const held = await waitFor('the unvouched reply held', async () => {
        const [row] = await queryRows<{ state: string; reason: string }>(
          t.database.db,
          sql`select state, reason from inbound_mail where side_conversation_id = ${side.id}::uuid and state = 'held'`,
        );
        return row;
      });
      expect(held.reason).toBe('not-authenticated');
    });
  },
);
