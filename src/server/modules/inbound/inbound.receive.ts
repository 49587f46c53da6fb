import { createHash } from 'node:crypto';
import type { AddressObject } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { isUnstorableValue } from '../../db/errors.ts';
import { replyTokenOf } from '../../mail/threading.ts';
import { hashToken } from '../../security/tokens.ts';
import type { SideConversations } from '../side-conversations/index.ts';
import type { InboundRepository } from './inbound.repository.ts';

/**
 * The two ways mail comes in, and the one thing both do with it: store the raw message durably
 * (idempotent on its Message-ID and bytes) before the sender hears `250` or the mailbox message is
 * moved. Deciding what it means is the inbound worker's, later.
 */

/** The largest mail taken: answered 552 beyond (the SIZE extension announces it). */
export const INBOUND_MAX_BYTES = 25 * 1024 * 1024;
/** Recipients one mail may name (RFC 5321 4.5.3.1.8: a server takes at least 100); the next is answered 452. */
export const INBOUND_MAX_RECIPIENTS = 100;

/**
 * A mail that can never be stored, whoever tries and however often: its sender is answered with a
 * permanent refusal (5xx), so it stops trying and tells the person, instead of `451` for days.
 */
export class NotStorable extends Error {
  override name = 'NotStorable';
}

export interface ReceivedEnvelope {
  via: 'smtp' | 'imap';
  remoteAddress?: string | null;
  helo?: string | null;
  envelopeFrom?: string | null;
  /** RCPT TO for SMTP; for a mailbox, the addresses its headers name. */
  recipients?: string[];
}

const addresses = (value: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((a) => a.value.map((v) => v.address ?? ''));

/** Stores one raw message; resolves once it is committed (true) or was already stored (false). */
export async function storeReceived(
  repository: InboundRepository,
  raw: Buffer,
  envelope: ReceivedEnvelope,
): Promise<boolean> {
  const rawHash = createHash('sha256').update(raw).digest('hex');
  const header = headerBlock(raw);
  // RFC 5322 allows no NUL in a header, and the database takes none in text (the Subject, From…).
  if (header.includes(0)) throw new NotStorable('5.6.0 The mail has a NUL byte in its header and cannot be taken');
  // Headers only: the bodies are the worker's to read. A header the parser refuses (over 1 MB) never parses.
  // mailparser loads with the first mail (a start's cost otherwise; decision 101).
  const { simpleParser } = await import('mailparser');
  const head = await simpleParser(header, {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipImageLinks: true,
  }).catch((error: unknown) => {
    throw new NotStorable('5.6.0 The mail’s header is too large or malformed to be read', { cause: error });
  });
  const recipients =
    envelope.recipients ??
    [
      ...addresses(head.to),
      ...addresses(head.cc),
      ...['delivered-to', 'x-original-to'].map((h) => String(head.headers.get(h) ?? '')),
    ]
      .map((a) => a.trim().toLowerCase())
      .filter((a) => a.includes('@'));
  return repository
    .storeRaw({
      // A mail without a Message-ID gets one from its bytes, so its redelivery is still recognised.
      messageId: head.messageId?.slice(0, 500) ?? `<${rawHash}@no-message-id.invalid>`,
      rawHash,
      raw,
      via: envelope.via,
      remoteAddress: envelope.remoteAddress ?? null,
      helo: envelope.helo ?? null,
      envelopeFrom: envelope.envelopeFrom ?? null,
      recipients,
      fromAddress: head.from?.value[0]?.address?.toLowerCase().slice(0, 320) ?? null,
      subject: head.subject?.slice(0, 300) ?? null,
    })
    .catch((error: unknown) => {
      if (isUnstorableValue(error)) throw new NotStorable('5.6.0 The mail cannot be stored as it is', { cause: error });
      throw error;
    });
}

function headerBlock(raw: Buffer): Buffer {
  const end = raw.indexOf('\r\n\r\n');
  const lfEnd = raw.indexOf('\n\n');
  const cut = [end >= 0 ? end + 4 : -1, lfEnd >= 0 ? lfEnd + 2 : -1].filter((n) => n >= 0);
  return cut.length > 0 ? raw.subarray(0, Math.min(...cut)) : raw;
}

export interface SmtpReceiverOptions {
  host: string;
  port: number;
  /** Our name in the greeting. */
  name: string;
  replyDomain: string;
  /** The general support address (a verified account's mail to it opens a ticket). */
  supportAddress: string | undefined;
  repository: InboundRepository;
  /** A side conversation's reply address (decision 138): accepted while the conversation is not closed. */
  sideConversations: Pick<SideConversations, 'findByTokenHash'>;
  /** Called after each stored message (wakes the worker). */
  stored(): void;
  /** Unknown reply addresses one connection may try; the next RCPT TO is answered slowly with 421, and the connection closed. */
  unknownRecipientLimit: number;
  /** How long that last answer waits. */
  slowAnswerMs: number;
  log: { info(o: object, m: string): void; warn(o: object, m: string): void };
}

type SmtpError = Error & { responseCode?: number };
const smtpError = (code: number, message: string): SmtpError =>
  Object.assign(new Error(message), { responseCode: code });

/**
 * The built-in SMTP receiver, for an MX record or a relay in front of it. Recipients are checked at
 * RCPT TO, so an unknown or expired reply address is refused there (550) and never bounced later;
 * a mail over 25 MB is refused with 552; `250` comes only once the raw message is committed, and a
 * database that cannot store it answers 451 so the sender tries again, unless the mail itself can
 * never be stored (a NUL byte or an unreadable header): 554, for good. One mail names at most 100
 * recipients (452 beyond). A connection that has tried `unknownRecipientLimit` unknown addresses is
 * answered its next RCPT TO after `slowAnswerMs`, with 421, and closed: guessing reply addresses
 * costs time (docs/decisions/131-every-inbound-mail-decided.md). No log line carries a recipient
 * address: the reply address's token is a credential.
 */
export function createSmtpReceiver(options: SmtpReceiverOptions) {
  const { repository, log } = options;
  /** Unknown addresses each connection tried (smtp-server keeps one session object per connection). */
  const unknownTried = new WeakMap<SMTPServerSession, number>();

  async function acceptsRecipient(address: string): Promise<boolean> {
    const lowered = address.trim().toLowerCase();
    if (options.supportAddress && lowered === options.supportAddress) return true;
    const token = replyTokenOf(lowered, options.replyDomain);
    if (!token) return false;
    const found = await repository.findReplyToken(hashToken(token));
    if (found) return !found.expired;
    // A closed side conversation's address is refused as an expired reply address is.
    const side = await options.sideConversations.findByTokenHash(hashToken(token));
    return side !== null && side.state !== 'closed';
  }

  const server = new SMTPServer({
    name: options.name,
    banner: 'mail for the support desk',
    size: INBOUND_MAX_BYTES,
    authOptional: true,
    // Taking mail needs no sign-in; TLS is the relay's or the load balancer's in front of us.
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    maxClients: 100,
    maxRecipients: INBOUND_MAX_RECIPIENTS,
    socketTimeout: 60_000,
    closeTimeout: 5_000,
    onRcptTo(address, session, callback) {
      const unknown = unknownTried.get(session) ?? 0;
      if (unknown >= options.unknownRecipientLimit) {
        // 421 makes smtp-server close the connection once it is sent.
        setTimeout(
          () => callback(smtpError(421, '4.7.0 Too many unknown addresses, closing the connection')),
          options.slowAnswerMs,
        ).unref();
        return;
      }
      acceptsRecipient(address.address).then(
        (ok) => {
          if (!ok) unknownTried.set(session, unknown + 1);
          callback(ok ? undefined : smtpError(550, '5.1.1 No such reply address here'));
        },
        (error: unknown) => {
          log.warn({ err: error }, 'a recipient could not be checked');
          callback(smtpError(451, '4.3.0 Try again later'));
        },
      );
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (!stream.sizeExceeded) chunks.push(chunk);
      });
      stream.on('error', (error) => callback(error));
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          callback(smtpError(552, '5.3.4 The mail is larger than 25 MB'));
          return;
        }
        const raw = Buffer.concat(chunks);
        storeReceived(repository, raw, {
          via: 'smtp',
          remoteAddress: session.remoteAddress ?? null,
          helo: session.hostNameAppearsAs ?? null,
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          recipients: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
        }).then(
          () => {
            options.stored();
            callback(null, 'Stored');
          },
          (error: unknown) => {
            if (error instanceof NotStorable) {
              log.warn({ err: error, size: raw.length }, 'a received mail can never be stored; refused for good');
              callback(smtpError(554, error.message));
              return;
            }
            log.warn({ err: error, size: raw.length }, 'a received mail could not be stored; the sender tries again');
            callback(smtpError(451, '4.3.0 Could not store the mail, try again later'));
          },
        );
      });
    },
  });
  server.on('error', (error) => log.warn({ err: error }, 'inbound SMTP connection error'));

  return {
    async listen(): Promise<number> {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port, options.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const address = server.server.address();
      return typeof address === 'object' && address ? address.port : options.port;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
