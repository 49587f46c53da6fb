import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type ParsedMail, simpleParser } from 'mailparser';
import { DEFAULT_WAIT_MS, waitFor } from './wait.ts';

/** Reads the mail the app wrote to DATA_DIR/outbox (the default mail mode), parsed like a mail program would. */
export interface ReadMail {
  file: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  from: string;
  messageId: string;
  /** Header lines by lower-case name, as they arrived (e.g. list-unsubscribe). */
  headers: Record<string, string>;
  /** The files it carries, with their bytes. */
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
}

function toReadMail(file: string, parsed: ParsedMail): ReadMail {
  const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(', ') : (parsed.to?.text ?? '');
  return {
    file,
    to,
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : '',
    from: parsed.from?.text ?? '',
    messageId: parsed.messageId ?? '',
    headers: Object.fromEntries(parsed.headerLines.map((h) => [h.key, h.line.slice(h.line.indexOf(':') + 1).trim()])),
    attachments: parsed.attachments.map((a) => ({
      filename: a.filename ?? '',
      contentType: a.contentType,
      content: a.content,
    })),
  };
}

export async function parseMail(source: Buffer | string, file = ''): Promise<ReadMail> {
  return toReadMail(file, await simpleParser(source));
}

/**
 * Mails already parsed, by file, with the size and time they had: the mailer renames a finished
 * message into place (a retry writes the same message again), so a file whose size and time are
 * unchanged is the mail parsed before. A wait polls the outbox every 50 ms, and a browser run's
 * outbox holds thousands of mails: parsing each of them on every poll was most of the test
 * workers' time.
 */
const parsedMails = new Map<string, { stamp: string; mail: ReadMail }>();

export async function readOutbox(dataDir: string): Promise<ReadMail[]> {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort();
  return Promise.all(
    files.map(async (f) => {
      const file = path.join(dir, f);
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      const stamp = stat ? `${stat.size}:${stat.mtimeMs}` : '';
      const known = parsedMails.get(file);
      if (known && known.stamp === stamp) return known.mail;
      const mail = await parseMail(fs.readFileSync(file), file);
      parsedMails.set(file, { stamp, mail });
      return mail;
    }),
  );
}

/** Waits (bounded) for the mails to one recipient to reach `count`; returns them oldest first. */
export async function waitForMails(
  dataDir: string,
  to: string,
  count = 1,
  timeoutMs = DEFAULT_WAIT_MS,
): Promise<ReadMail[]> {
  const mine = async () => (await readOutbox(dataDir)).filter((m) => m.to.toLowerCase().includes(to.toLowerCase()));
  let seen = 0;
  return waitFor(
    `${count} mail(s) to ${to} in ${dataDir}/outbox`,
    async () => {
      const mails = await mine();
      seen = mails.length;
      return mails.length >= count && mails;
    },
    { timeoutMs, intervalMs: 50, seen: () => `${seen} mail(s)` },
  );
}

/** The first link in a mail's plain-text body that starts with `prefix`. */
export function linkIn(mail: ReadMail, prefix: string): string {
  const match = mail.text.match(/https?:\/\/\S+/g)?.find((url) => url.startsWith(prefix));
  if (!match) throw new Error(`no link starting with ${prefix} in "${mail.subject}":\n${mail.text}`);
  return match;
}

export function tokenFrom(link: string): string {
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

/** Waits (bounded) for the mail to `to` with this subject; returns it. */
export async function waitForMail(
  dataDir: string,
  to: string,
  subject: string,
  timeoutMs = DEFAULT_WAIT_MS,
): Promise<ReadMail> {
  return waitFor(
    `a mail to ${to} with the subject "${subject}" in ${dataDir}/outbox`,
    async () =>
      (await readOutbox(dataDir)).find((m) => m.to.toLowerCase().includes(to.toLowerCase()) && m.subject === subject),
    { timeoutMs, intervalMs: 50 },
  );
}

/**
 * Everything the app has to mail so far is written: the account mail recorded after an answer, in
 * the background (enumeration-safe answers; `accounts.drain()` waits for exactly that work), then a
 * round of the mail worker, which delivers what is due (or schedules it for a retry). A test that
 * asserts no mail was sent calls this first: it waits for the work, never for a while.
 */
export async function deliverDueMail(app: Pick<FastifyInstance, 'accounts' | 'mailWorker'>): Promise<void> {
  await app.accounts.drain();
  await app.mailWorker.runOnce();
}
