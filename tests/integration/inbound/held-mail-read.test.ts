import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldMailPage, heldMailsText, INBOUND_TEXT } from '../../../src/contracts/inbound.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { jpegWithGps } from '../../helpers/attachment-files.ts';
import { readOutbox, type ReadMail } from '../../helpers/mail.ts';
import { createMailZone, type MailZone } from '../../helpers/mail-dns.ts';
import { postPageForm } from '../../helpers/page-forms.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { waitFor } from '../../helpers/wait.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * A held mail can be read before an admin decides (decision 134): the Incoming view opens it with
 * its words as text (an HTML-only mail's converted, markup never rendered), its files as downloads
 * served as people's uploads are, and its headers behind "Show headers"; only admins reach any of
 * it; and the console's ticket page says how many held mails would belong to it, with a link to each.
 * Held mail comes as it does from outside: over SMTP to the receiver, unsigned, its envelope another
 * domain's, so DMARC fails and the worker holds it.
 */
const REPLY_DOMAIN = 'reply.bagspace.test';
const SENDER_DOMAIN = 'kiwi-mail.test';
const ATTACKER_DOMAIN = 'not-kiwi.test';
let t: TestApp;
let zone: MailZone;
let admin: SupportUser;
let port: number;

const person = (label: string) => `${label}-${randomBytes(4).toString('hex')}@${SENDER_DOMAIN}`;

beforeAll(async () => {
  zone = createMailZone();
  zone.addSender(SENDER_DOMAIN);
  zone.addSender(ATTACKER_DOMAIN);
  t = await createTestApp({
    web: true,
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

const decide = () => t.app.inbound.worker.runOnce();
const replyTo = (mail: ReadMail) => mail.headers['reply-to']!.replace(/^.*<|>.*$/g, '').trim();
/** A link in server-rendered HTML to a held mail on the Incoming view, saying `words`. */
const linkTo = (id: number, words: string) =>
  new RegExp(`<a href="${heldMailPage(id).replace('?', '\\?').replace('&', '&amp;')}"[^>]*>${words}</a>`);
const page = (user: SupportUser, url: string) =>
  t.app.inject({ method: 'GET', url, headers: { ...user.headers, accept: 'text/html' } });

/** A customer's ticket that an admin answered, and the notification mail (with its reply address). */
async function answeredTicket() {
  const owner = await supportUser(t, { email: person('aroha') });
  const { ticketId, ticketNo } = await owner.createTicket('General', 'Where is my bag?');
  await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Which flight were you on?' });
  // Sent by this call or by the app's own mail worker, whichever took it first.
  await t.app.mailWorker.runOnce();
  const notice = await waitFor(`the answer mailed to ${owner.email}`, async () =>
    (await readOutbox(t.dataDir)).find(
      (m) => m.to.includes(owner.email) && m.subject === `New reply on ticket #${ticketNo}`,
    ),
  );
  return { owner, ticketId, notice };
}

/**
 * Mails the owner's reply address "from" the owner, unsigned and from another domain's envelope, as
 * a forger would: it fails DMARC and is held. Answers the held mail's id.
 */
async function heldMail(to: string, from: string, mail: SendMailOptions): Promise<number> {
  const messageId = `<held-${randomBytes(6).toString('hex')}@${ATTACKER_DOMAIN}>`;
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ envelope: { from: `bounce@${ATTACKER_DOMAIN}`, to }, from, to, messageId, ...mail });
  } finally {
    transport.close();
  }
  // Decided by this call or by the app's own inbound worker, whichever took the mail first.
  await decide();
  const row = await waitFor(`a decision on ${messageId}`, async () => {
    const [found] = await queryRows<{ id: unknown; state: string }>(
      t.database.db,
      sql`select id, state from inbound_mail where message_id = ${messageId}`,
    );
    return found && !['received', 'processing'].includes(found.state) ? found : undefined;
  });
  expect(row.state).toBe('held');
  return Number(row.id);
}

type ReadAnswer = {
  id: number;
  state: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  headers: string;
  attachments: Array<{ index: number; name: string; size: number; contentType: string; url: string }>;
};

describe('a held mail, opened on the Incoming view', () => {
  it('shows its words as text, its files as downloads and its headers, to admins only', async () => {
    const { owner, notice } = await answeredTicket();
    const photo = await jpegWithGps();
    const page_ = '<script>alert(1)</script><p>Not a page of ours</p>';
    const id = await heldMail(replyTo(notice), owner.email, {
      subject: `Re: ${notice.subject}`,
      text: 'The tag is attached. <script>alert(1)</script> is just words here.',
      attachments: [
        { filename: 'tag.jpg', content: photo, contentType: 'image/jpeg' },
        // A file whose declared type a browser would render: served as bytes, never as a page.
        { filename: 'receipt.html', content: Buffer.from(page_), contentType: 'text/html' },
      ],
    });

    const read = await admin.get(`/api/admin/mail/incoming/${id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.headers['cache-control']).toBe('no-store');
    const mail = read.json() as ReadAnswer;
    expect(mail).toMatchObject({ id, state: 'held', from: owner.email, subject: `Re: ${notice.subject}` });
    expect(mail.text).toBe('The tag is attached. <script>alert(1)</script> is just words here.');
    // The reply address's token is a credential: masked in To and in the headers alike.
    expect(mail.to).toBe(`reply+…@${REPLY_DOMAIN}`);
    expect(mail.headers).toMatch(/^Message-ID: <held-[0-9a-f]+@not-kiwi\.test>$/im);
    expect(mail.headers).toMatch(/^Subject: Re: New reply on ticket #\d+$/im);
    expect(mail.headers).toContain(`reply+…@${REPLY_DOMAIN}`);
    expect(mail.headers).not.toMatch(/reply\+[0-9a-f]{48}/i);
    expect(mail.headers).not.toContain('The tag is attached');
    expect(mail.attachments.map(({ index, name, contentType }) => ({ index, name, contentType }))).toEqual([
      { index: 0, name: 'tag.jpg', contentType: 'image/jpeg' },
      { index: 1, name: 'receipt.html', contentType: 'application/octet-stream' },
    ]);

    // Each file: a download, its type by its bytes (else octet-stream), nosniff, sandboxed, never cached.
    const [jpeg, html] = mail.attachments;
    expect(jpeg!.url).toBe(`/api/admin/mail/incoming/${id}/files/0`);
    for (const [file, type, bytes] of [
      [jpeg!, 'image/jpeg', photo],
      [html!, 'application/octet-stream', Buffer.from(page_)],
    ] as const) {
      const got = await admin.get(file.url);
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe(type);
      expect(got.headers['content-disposition']).toBe(
        `attachment; filename="${file.name}"; filename*=UTF-8''${file.name}`,
      );
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      expect(got.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(got.headers['cache-control']).toBe('no-store');
      expect(got.rawPayload.equals(bytes)).toBe(true);
    }
    expect((await admin.get(`/api/admin/mail/incoming/${id}/files/2`)).statusCode).toBe(404);
    expect((await admin.get(`/api/admin/mail/incoming/987654321`)).statusCode).toBe(404);

    // Not the ticket's owner (whose name it bears), nor anyone signed out: staff only.
    for (const url of [`/api/admin/mail/incoming/${id}`, jpeg!.url]) {
      expect((await owner.get(url)).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }

    // The page itself, without JavaScript: the text as characters, the files as links, the headers
    // in a disclosure, and Post and Discard.
    const html_ = (await page(admin, heldMailPage(id))).body;
    expect(html_).toContain(`${INBOUND_TEXT.heldMailTitle}: “Re: ${notice.subject}”`);
    expect(html_).toContain('The tag is attached. &lt;script&gt;alert(1)&lt;/script&gt; is just words here.');
    expect(html_).not.toContain('<script>alert(1)');
    expect(html_).toContain(
      `<a href="/api/admin/mail/incoming/${id}/files/0" class="whole-mail__file-name">tag.jpg</a>`,
    );
    expect(html_).toContain(
      `<a href="/api/admin/mail/incoming/${id}/files/1" class="whole-mail__file-name">receipt.html</a>`,
    );
    expect(html_).toMatch(
      new RegExp(`<details[^>]*><summary>${INBOUND_TEXT.showHeaders}</summary><pre[^>]*>[^<]*Message-ID: &lt;held-`),
    );
    expect(html_).not.toMatch(/reply\+[0-9a-f]{48}/i);
    expect(html_).toMatch(/<button type="submit" value="post"[^>]*>Post</);
    expect(html_).toMatch(/<button type="submit" value="discard"[^>]*>Discard</);
    // The owner gets the console's refusal, not the mail.
    expect((await page(owner, heldMailPage(id))).body).not.toContain('The tag is attached');
  });

  it('an HTML-only mail shows its text conversion, never its markup', async () => {
    const { owner, notice } = await answeredTicket();
    const id = await heldMail(replyTo(notice), owner.email, {
      subject: 'Only HTML',
      html: '<p>Kia ora, my <b>bag</b> is at gate 5.</p><script>alert(1)</script><img src="x" onerror="alert(2)">',
    });
    const mail = (await admin.get(`/api/admin/mail/incoming/${id}`)).json() as ReadAnswer;
    expect(mail.text).toContain('Kia ora, my bag is at gate 5.');
    expect(mail.text).not.toMatch(/[<>]|alert|onerror/);
    const html = (await page(admin, heldMailPage(id))).body;
    expect(html).toContain('Kia ora, my bag is at gate 5.');
    expect(html).not.toContain('onerror');
    expect(html).not.toContain('<script>alert');
  });
});

describe('the console’s ticket page', () => {
  it('says how many held mails would belong to it, with a link to each on the Incoming view', async () => {
    const { owner, ticketId, notice } = await answeredTicket();
    const ticketPage = `/admin/support/${ticketId}`;
    expect((await page(admin, ticketPage)).body).not.toContain('held mail');

    const first = await heldMail(replyTo(notice), owner.email, { subject: 'First try', text: 'Refund me here.' });
    let html = (await page(admin, ticketPage)).body;
    expect(html).toMatch(linkTo(first, heldMailsText(1)));
    expect(heldMailsText(1)).toBe('1 held mail');

    const second = await heldMail(replyTo(notice), owner.email, { subject: 'Second try', text: 'Refund me now.' });
    html = (await page(admin, ticketPage)).body;
    expect(heldMailsText(2)).toBe('2 held mails');
    expect(html).toContain(heldMailsText(2));
    for (const [id, subject] of [
      [second, 'Second try'],
      [first, 'First try'],
    ] as const)
      expect(html).toMatch(linkTo(id, `“${subject}”`));

    // The list API's ticket filter: this ticket's held mail only.
    const listed = (await admin.get(`/api/admin/mail/incoming?state=held&ticketId=${ticketId}`)).json().mails as Array<{
      id: number;
    }>;
    expect(listed.map((m) => m.id)).toEqual([second, first]);

    // Decided from the opened mail's own forms (as a browser posts them): the count follows.
    for (const id of [first, second]) {
      const discarded = await postPageForm(
        t,
        heldMailPage(id),
        { intent: 'discard', inboundId: String(id) },
        { origin: 'http://localhost:80', ...admin.headers },
      );
      expect(discarded.statusCode).toBe(303);
      expect(discarded.headers.location).toBe('/admin/mail/incoming?state=held&done=discard');
    }
    expect((await page(admin, ticketPage)).body).not.toContain('held mail');
    // A user's own ticket page never says so.
    expect((await page(owner, `/support/ticket/${ticketId}`)).body).not.toContain('held mail');
  });
});
