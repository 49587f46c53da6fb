import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { MailZone } from './mail-dns.ts';

/**
 * A mail as it reaches our receiver or mailbox from outside (reply by email, decision 105), for the
 * tests, the browser tests and the bench: a plain-text message in RFC 5322 form, and, when a relay
 * or mailbox provider vouches for it, that relay's Authentication-Results on top (dmarc=pass for
 * the From domain).
 */
export interface IncomingMail {
  from: string;
  to: string;
  subject?: string;
  words: string;
  /** The authserv-id of the relay that says DMARC passed (INBOUND_AUTHSERV_ID); none: unvouched. */
  vouchedBy?: string;
  inReplyTo?: string;
  references?: string;
  messageId?: string;
  /** Files after the words (the mail becomes multipart/mixed). */
  attachments?: Array<{ filename: string; contentType: string; content: Buffer }>;
}

/** The words, and any files after them as base64 parts of a multipart/mixed body. */
function bodyOf(mail: IncomingMail): string[] {
  const words = mail.words.replace(/\r?\n/g, '\r\n');
  if (!mail.attachments?.length) return ['Content-Type: text/plain; charset=utf-8', '', words];
  const boundary = `part-${randomUUID()}`;
  return [
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    words,
    ...mail.attachments.flatMap((file) => [
      `--${boundary}`,
      `Content-Type: ${file.contentType}; name="${file.filename}"`,
      `Content-Disposition: attachment; filename="${file.filename}"`,
      'Content-Transfer-Encoding: base64',
      '',
      ...(file.content.toString('base64').match(/.{1,76}/g) ?? []),
    ]),
    `--${boundary}--`,
  ];
}

export function rawMail(mail: IncomingMail): string {
  const domain = mail.from.split('@')[1]!;
  return [
    ...(mail.vouchedBy ? [`Authentication-Results: ${mail.vouchedBy}; dmarc=pass header.from=${domain}`] : []),
    `From: ${mail.from}`,
    `To: ${mail.to}`,
    `Subject: ${mail.subject ?? 'Re: my ticket'}`,
    `Message-ID: ${mail.messageId ?? `<${randomUUID()}@${domain}>`}`,
    ...(mail.inReplyTo ? [`In-Reply-To: ${mail.inReplyTo}`] : []),
    ...(mail.references ? [`References: ${mail.references}`] : []),
    'MIME-Version: 1.0',
    ...bodyOf(mail),
    '',
  ].join('\r\n');
}

/**
 * An SMTP client of our receiver on 127.0.0.1 that keeps one connection open for all its mail, as a
 * relay does (the receiver greets each new connection 100 ms late).
 */
export const receiverClient = (port: number) =>
  nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: 1,
    maxMessages: Infinity,
  });

/** Sends one mail to our receiver; resolves with its answer (250), rejects with a refusal's code. */
export async function mailToReceiver(port: number, mail: IncomingMail) {
  const transport = receiverClient(port);
  try {
    return await transport.sendMail({ envelope: { from: mail.from, to: mail.to }, raw: rawMail(mail) });
  } finally {
    transport.close();
  }
}

/** A mail as a sender's provider sends it to our receiver: its headers, or a whole raw message. */
export interface SignedMail {
  from: string;
  to: string;
  subject?: string;
  text?: string;
  html?: string;
  inReplyTo?: string;
  references?: string;
  messageId?: string;
  headers?: Record<string, string>;
  /** The envelope's MAIL FROM (default: From). */
  envelopeFrom?: string;
  /** Sign with this domain's key (default: From's domain); null sends unsigned. */
  signAs?: string | null;
  raw?: string;
  /** Files, as a mail program attaches them (`cid`: a picture inside the HTML, multipart/related). */
  attachments?: Array<{ filename: string; content: Buffer; contentType?: string; cid?: string }>;
}

/**
 * Sends one mail to our receiver as a mail provider's server would: over SMTP, DKIM-signed with the
 * zone's key for its domain (tests/helpers/mail-dns.ts), unless `signAs` is null.
 */
export async function signedMailToReceiver(port: number, zone: MailZone, mail: SignedMail) {
  const signAs = mail.signAs === undefined ? mail.from.split('@')[1]! : mail.signAs;
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    ...(signAs ? { dkim: zone.dkim(signAs) } : {}),
  });
  try {
    return await transport.sendMail({
      envelope: { from: mail.envelopeFrom ?? mail.from, to: mail.to },
      ...(mail.raw
        ? { raw: mail.raw }
        : {
            from: mail.from,
            to: mail.to,
            subject: mail.subject ?? 'Re: New reply',
            text: mail.text,
            html: mail.html,
            inReplyTo: mail.inReplyTo,
            references: mail.references,
            messageId: mail.messageId,
            headers: mail.headers,
            attachments: mail.attachments,
          }),
    });
  } finally {
    transport.close();
  }
}
