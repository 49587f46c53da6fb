import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailReplyTokens } from '../../../src/server/db/schema.ts';
import { createReplyToken, replyAddress } from '../../../src/server/mail/threading.ts';
import { hashToken } from '../../../src/server/security/tokens.ts';
import { supportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { waitFor, waitUntil } from '../../helpers/wait.ts';

/**
 * The SMTP receiver's limits (decision 131), spoken to in plain SMTP over a socket so each
 * answer is seen as a sending server sees it: a mail that can never be stored is refused for good
 * (5xx, not 451, which would make the sender try for days); one mail takes at most 100 recipients;
 * a connection that guesses reply addresses is slowed and closed. The guessing limit and the slow
 * answer are lowered for this file (INBOUND_SMTP_UNKNOWN_LIMIT 5, INBOUND_SMTP_SLOW_MS 400; the
 * defaults are 20 and 5 s).
 */
const REPLY_DOMAIN = 'reply.bagspace.test';
const SUPPORT = `support@${REPLY_DOMAIN}`;
const UNKNOWN_LIMIT = 5;
const SLOW_MS = 400;

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      REPLY_DOMAIN,
      INBOUND_SMTP_PORT: '0',
      INBOUND_SMTP_HOST: '127.0.0.1',
      INBOUND_SMTP_UNKNOWN_LIMIT: String(UNKNOWN_LIMIT),
      INBOUND_SMTP_SLOW_MS: String(SLOW_MS),
    },
    mailWorker: false,
  });
  port = t.app.inbound.smtpPort()!;
});
afterAll(() => t?.close());

/** One SMTP connection: send a line, read the complete reply (its last line's code and text). */
async function connect() {
  const socket = net.connect(port, '127.0.0.1');
  const replies: string[] = [];
  let pending = '';
  let closed = false;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    pending += chunk;
    let end: number;
    while ((end = pending.indexOf('\r\n')) >= 0) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 2);
      // "250-…" continues a reply, "250 …" ends it.
      if (/^\d{3}(?: |$)/.test(line)) replies.push(line);
    }
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    closed = true;
  });
  const reply = () => waitFor('an SMTP reply', () => replies.shift(), { seen: () => ({ closed, pending }) });
  const session = {
    reply,
    async send(line: string | Buffer) {
      socket.write(line);
      if (typeof line === 'string' && !line.endsWith('\r\n')) socket.write('\r\n');
      return reply();
    },
    /** Several commands at once, without waiting (PIPELINING); read their replies with reply(). */
    write(lines: string[]) {
      socket.write(lines.map((line) => `${line}\r\n`).join(''));
    },
    closed: () => closed,
    end: () => socket.destroy(),
  };
  expect(await reply()).toMatch(/^220 /);
  expect(await session.send('EHLO sender.test')).toMatch(/^250 /);
  return session;
}

/** A mail to the support address with this header section and a short body; the answer to its data. */
async function mailWithHeaders(headers: Buffer) {
  const smtp = await connect();
  try {
    expect(await smtp.send('MAIL FROM:<someone@sender.test>')).toMatch(/^250 /);
    expect(await smtp.send(`RCPT TO:<${SUPPORT}>`)).toMatch(/^250 /);
    expect(await smtp.send('DATA')).toMatch(/^354 /);
    return await smtp.send(Buffer.concat([headers, Buffer.from('\r\nHello.\r\n.\r\n')]));
  } finally {
    smtp.end();
  }
}

const basicHeaders = () =>
  [
    'From: someone@sender.test',
    `To: ${SUPPORT}`,
    `Message-ID: <${randomBytes(6).toString('hex')}@sender.test>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain',
  ].join('\r\n') + '\r\n';

describe('a mail that can never be stored', () => {
  it('with a NUL byte in a header is refused for good (5xx), not asked to try again (451)', async () => {
    const answer = await mailWithHeaders(Buffer.from(`Subject: a\u0000b\r\n${basicHeaders()}`));
    expect(answer).toMatch(/^5\d\d /);
    expect(answer).toContain('NUL');
  });

  it('with an 8 MB header line is refused for good (5xx)', async () => {
    const answer = await mailWithHeaders(Buffer.from(`Subject: ${'x'.repeat(8 * 1024 * 1024)}\r\n${basicHeaders()}`));
    expect(answer).toMatch(/^5\d\d /);
  });

  it('while an ordinary mail on the same receiver is stored (250)', async () => {
    expect(await mailWithHeaders(Buffer.from(`Subject: hello\r\n${basicHeaders()}`))).toMatch(/^250 /);
  });
});

describe('recipients', () => {
  it('one mail takes at most 100: the 101st is answered 452 and the 100 are delivered', async () => {
    const owner = await supportUser(t);
    const { ticketId } = await owner.createTicket('General', 'Where is my bag?');
    const tokens = Array.from({ length: 100 }, () => createReplyToken());
    await t.database.db.insert(mailReplyTokens).values(
      tokens.map((token) => ({
        tokenHash: hashToken(token),
        ticketId,
        userId: owner.id,
        email: owner.email,
        expiresAt: new Date(Date.now() + 86_400_000),
      })),
    );
    const smtp = await connect();
    try {
      expect(await smtp.send(`MAIL FROM:<${owner.email}>`)).toMatch(/^250 /);
      // Pipelined (the receiver offers PIPELINING), as a relay sends a mail with many recipients.
      smtp.write([...tokens.map((token) => replyAddress(token, REPLY_DOMAIN)), SUPPORT].map((a) => `RCPT TO:<${a}>`));
      const answers: string[] = [];
      for (let i = 0; i <= tokens.length; i++) answers.push(await smtp.reply());
      expect(answers.slice(0, 100).filter((a) => !a.startsWith('250 '))).toEqual([]);
      expect(answers[100]).toMatch(/^452 .*too many recipients/i);
      expect(await smtp.send('DATA')).toMatch(/^354 /);
      expect(await smtp.send(`Subject: many\r\n${basicHeaders()}\r\nHello.\r\n.`)).toMatch(/^250 /);
    } finally {
      smtp.end();
    }
  });
});

describe('guessing reply addresses', () => {
  const guess = () => `RCPT TO:<${replyAddress(createReplyToken(), REPLY_DOMAIN)}>`;

  it(`after ${UNKNOWN_LIMIT} unknown addresses the connection is answered slowly, then closed`, async () => {
    const smtp = await connect();
    try {
      expect(await smtp.send('MAIL FROM:<guesser@sender.test>')).toMatch(/^250 /);
      for (let i = 0; i < UNKNOWN_LIMIT; i++) expect(await smtp.send(guess())).toMatch(/^550 5\.1\.1 /);
      const started = Date.now();
      const answer = await smtp.send(guess());
      expect(Date.now() - started).toBeGreaterThanOrEqual(SLOW_MS);
      expect(answer).toMatch(/^421 /);
      await waitUntil('the connection is closed', () => smtp.closed());
    } finally {
      smtp.end();
    }
    // Another connection starts afresh: its first unknown address is answered 550 as usual.
    const next = await connect();
    try {
      expect(await next.send('MAIL FROM:<guesser@sender.test>')).toMatch(/^250 /);
      expect(await next.send(guess())).toMatch(/^550 5\.1\.1 /);
    } finally {
      next.end();
    }
  });
});
