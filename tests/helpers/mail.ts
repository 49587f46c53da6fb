import fs from 'node:fs';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';

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
  };
}

export async function parseMail(source: Buffer | string, file = ''): Promise<ReadMail> {
  return toReadMail(file, await simpleParser(source));
}

export async function readOutbox(dataDir: string): Promise<ReadMail[]> {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort();
  return Promise.all(files.map(async (f) => parseMail(fs.readFileSync(path.join(dir, f)), path.join(dir, f))));
}

/** Waits (bounded) for the mails to one recipient to reach `count`; returns them oldest first. */
export async function waitForMails(dataDir: string, to: string, count = 1, timeoutMs = 10_000): Promise<ReadMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = (await readOutbox(dataDir)).filter((m) => m.to.toLowerCase().includes(to.toLowerCase()));
    if (mails.length >= count) return mails;
    if (Date.now() > deadline)
      throw new Error(`expected ${count} mail(s) to ${to} in ${dataDir}/outbox, found ${mails.length}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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
export async function waitForMail(dataDir: string, to: string, subject: string, timeoutMs = 10_000): Promise<ReadMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = (await readOutbox(dataDir)).find(
      (m) => m.to.toLowerCase().includes(to.toLowerCase()) && m.subject === subject,
    );
    if (mail) return mail;
    if (Date.now() > deadline)
      throw new Error(`expected a mail to ${to} with the subject "${subject}" in ${dataDir}/outbox`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs the app's mail worker until everything due now is composed and delivered (or scheduled for a retry). */
export async function deliverDueMail(app: { mailWorker: { runOnce(): Promise<void> } }): Promise<void> {
  await app.mailWorker.runOnce();
}
