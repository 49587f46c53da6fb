import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFigure } from '../../helpers/figures.ts';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { auditOf } from '../../helpers/admin-client.ts';
import { waitFor } from '../../helpers/wait.ts';

/**
 * The outbox against a real SMTP server that misbehaves: a 421 outage is waited out and every mail
 * arrives once; a 550 fails the mail at once, the admin Mail page shows it, and Retry delivers it.
 * The worker runs on its own (first retry after about a second), as in production.
 */
let sink: SmtpSink;
let t: TestApp;
let admin: SupportUser;
beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({
    env: {
      SMTP_URL: sink.url,
      MAIL_RETRY_FIRST_SECONDS: '1',
      NOTIFY_DELAY_SECONDS: '0',
      TICKETS_PER_USER_PER_HOUR: '1000',
    },
  });
  admin = await supportUser(t, { role: 'admin' });
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

type Mail = {
  id: number;
  recipient: string;
  subject: string;
  state: string;
  attempts: number;
  lastError: string | null;
  messageId: string;
};
const outbox = async (query: string) => {
  const res = await admin.get(`/api/admin/mail?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { mails: Mail[]; counts: Record<string, number> };
};

/** Reads the Mail page's answer until `done` holds for it; returns that answer. */
async function readUntil<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let last: T | undefined;
  const found = await waitFor(
    'the Mail page to show it',
    async () => {
      last = await read();
      return done(last) && { value: last };
    },
    { intervalMs: 50, seen: () => last },
  );
  return found.value;
}

describe('a mail server answering 421 for a while', () => {
  it('gets every mail once it recovers, none twice, each with the Message-ID it was recorded with', async () => {
    sink.refuse = { code: 421, message: '4.3.2 Service not available, try again later' };
    const user = await supportUser(t);
    const count = 12;
    const tickets = [];
    for (let i = 0; i < count; i++) tickets.push(await user.createTicket('General', `Outage question ${i}`));
    // Each new ticket is one team mail to the admin; all are refused and wait for a retry.
    const during = await readUntil(
      () => outbox(`q=${encodeURIComponent(admin.email)}`),
      (o) => o.mails.filter((m) => m.state === 'retrying').length === count,
    );
    for (const mail of during.mails) expect(mail.lastError).toContain('421');
    const recorded = new Map(during.mails.map((m) => [m.subject, m.messageId]));

    sink.refuse = null;
    const received = await sink.waitFor(admin.email, count);
    const after = await readUntil(
      () => outbox(`q=${encodeURIComponent(admin.email)}`),
      (o) => o.mails.filter((m) => m.state === 'sent').length === count,
    );
    expect(after.mails.every((m) => m.attempts >= 2)).toBe(true);
    // Give a late duplicate every chance to show up: one more full worker round after all are sent.
    await t.app.mailWorker.runOnce();
    const toAdmin = sink.messages.filter((m) => m.envelopeTo.includes(admin.email));
    expect(toAdmin).toHaveLength(count);
    expect(new Set(toAdmin.map((m) => m.messageId)).size).toBe(count);
    for (const mail of received) expect(recorded.get(mail.subject)).toBe(mail.messageId);
    recordFigure('outbox-smtp421', {
      checks: ['DATA-02'],
      label: 'Mail server outage (SMTP 421, then accepting)',
      values: {
        mails: count,
        refusals: sink.refusals,
        delivered: toAdmin.length,
        duplicates: toAdmin.length - count,
        lost: count - toAdmin.length,
      },
    });
  });
});

describe('a mail server answering 550', () => {
  it('fails the mail at once, shows it on the Mail page and the admin home count, and Retry delivers it once', async () => {
    const user = await supportUser(t);
    sink.refuse = { code: 550, message: '5.1.1 No such mailbox', when: (to) => to === user.email };
    const { ticketId, ticketNo } = await user.createTicket('General', 'Will this reach me?');
    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Here is your answer.' });

    const failed = await readUntil(
      () => outbox(`state=failed&q=${encodeURIComponent(user.email)}`),
      (o) => o.mails.length === 1,
    );
    const mail = failed.mails[0]!;
    expect(mail).toMatchObject({ subject: `New reply on ticket #${ticketNo}`, state: 'failed', attempts: 1 });
    expect(mail.lastError).toContain('550');
    expect(failed.counts.failed).toBeGreaterThanOrEqual(1);
    expect(sink.messages.some((m) => m.envelopeTo.includes(user.email))).toBe(false);

    // Retry while the server still refuses: failed again after one more attempt.
    const first = await admin.post(`/api/admin/mail/${mail.id}/retry`);
    expect(first.statusCode, first.body).toBe(200);
    await readUntil(
      () => outbox(`q=${encodeURIComponent(user.email)}`),
      (o) => o.mails[0]!.state === 'failed' && o.mails[0]!.attempts === 2,
    );

    sink.refuse = null;
    expect((await admin.post(`/api/admin/mail/${mail.id}/retry`)).statusCode).toBe(200);
    const [delivered] = await sink.waitFor(user.email, 1);
    expect(delivered!.messageId).toBe(mail.messageId);
    await readUntil(
      () => outbox(`q=${encodeURIComponent(user.email)}`),
      (o) => o.mails[0]!.state === 'sent',
    );
    await t.app.mailWorker.runOnce();
    expect(sink.messages.filter((m) => m.envelopeTo.includes(user.email))).toHaveLength(1);

    // Only a failed mail can be retried; every retry is in the audit log.
    const again = await admin.post(`/api/admin/mail/${mail.id}/retry`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('Only a failed mail can be sent again.');
    expect((await admin.post('/api/admin/mail/999999999/retry')).statusCode).toBe(404);
    const audit = await auditOf(admin as never, 'mail', mail.id);
    expect(audit.map((e) => e.action)).toEqual(['mail.retry', 'mail.retry']);
    expect(audit[0]!.details).toMatchObject({ recipient: user.email });
  });

  it('is for admins only', async () => {
    const user = await supportUser(t);
    expect((await user.get('/api/admin/mail')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/mail' })).statusCode).toBe(401);
  });
});
