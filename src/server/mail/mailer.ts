import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Mail transports behind one small interface. By default every message is written to
 * `DATA_DIR/outbox/*.eml` (open it in any mail program), so a fresh install works with no mail
 * server; with SMTP_URL it is sent for real. Only the outbox worker calls a transport: everything
 * else records mail in the database (outbox.ts).
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** One recorded mail as the worker hands it over: the Message-ID and file name never change on a retry. */
export interface OutgoingMail extends MailMessage {
  messageId: string;
  headers: Record<string, string>;
  date: Date;
  /** The outbox file's name without extension: the same on every attempt, so a retry overwrites. */
  fileStem: string;
  /** Files attached, read from storage by the worker. */
  attachments?: Array<{ filename: string; contentType: string; content: Buffer }>;
}

export interface MailTransport {
  readonly kind: 'outbox' | 'smtp';
  deliver(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}

/** A failed delivery: permanent for an SMTP 5xx (try no more), transient for anything else. */
export class MailDeliveryError extends Error {
  override name = 'MailDeliveryError';
  readonly permanent: boolean;
  constructor(message: string, permanent: boolean, options?: { cause?: unknown }) {
    super(message, options);
    this.permanent = permanent;
  }
}

/**
 * Sorts a transport error. SMTP reply codes 5xx are permanent and 4xx transient (RFC 5321, 4.2.1);
 * connection refused, time-outs and dropped connections carry no code and are transient too.
 * The message keeps the server's reply and never the SMTP URL (it may hold a password).
 */
export function classifyMailError(error: unknown): MailDeliveryError {
  const e = error as { responseCode?: unknown; response?: unknown; code?: unknown; message?: unknown };
  const responseCode = typeof e?.responseCode === 'number' ? e.responseCode : undefined;
  const permanent = responseCode !== undefined && responseCode >= 500 && responseCode < 600;
  const reply = typeof e?.response === 'string' ? e.response : undefined;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const text = reply ?? (typeof e?.message === 'string' ? e.message : String(error));
  const summary = [code, text.replace(/smtps?:\/\/\S+/gi, '[smtp server]').slice(0, 300)].filter(Boolean).join(': ');
  return new MailDeliveryError(summary || 'unknown mail error', permanent, { cause: error });
}

export interface TransportOptions {
  from: string;
  smtpUrl?: string;
  outboxDir: string;
}

/** SMTP waits no longer than this for any step, far inside the worker's lease on a claimed mail (one send each). */
const SMTP_TIMEOUT_MS = 30_000;

/** nodemailer loads with the first mail sent, not with the server (a start's cost; decision 101). */
const nodemailer = async () => (await import('nodemailer')).default;

export function createMailTransport(options: TransportOptions): MailTransport {
  const envelope = (mail: OutgoingMail) => {
    // Threading and reply headers go through nodemailer's own fields, which format them as RFC 5322
    // wants (an address list, Message-ID lists); every other header is passed as it is.
    // A From recorded with the mail (staff answers in the agent's name) replaces the default sender.
    const {
      From: from,
      'Reply-To': replyTo,
      'In-Reply-To': inReplyTo,
      References: references,
      ...headers
    } = mail.headers;
    return {
      from: from ?? options.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: mail.messageId,
      date: mail.date,
      replyTo,
      inReplyTo,
      references,
      headers,
      attachments: mail.attachments,
    };
  };

  if (options.smtpUrl) {
    const url = new URL(options.smtpUrl);
    // A pool keeps a few connections open and sends one mail after another on each (a connection
    // per mail spends most of its time on the greeting), unless the URL says otherwise.
    for (const [name, value] of [
      ['pool', 'true'],
      ['maxConnections', 4],
      ['connectionTimeout', SMTP_TIMEOUT_MS],
      ['greetingTimeout', SMTP_TIMEOUT_MS],
      ['socketTimeout', SMTP_TIMEOUT_MS],
    ] as const) {
      if (!url.searchParams.has(name)) url.searchParams.set(name, String(value));
    }
    const connect = async () => (await nodemailer()).createTransport(url.toString());
    let transport: ReturnType<typeof connect> | undefined;
    return {
      kind: 'smtp',
      async deliver(mail) {
        try {
          await (await (transport ??= connect())).sendMail(envelope(mail));
        } catch (error) {
          throw classifyMailError(error);
        }
      },
      async close() {
        (await transport)?.close();
      },
    };
  }

  const compose = async () =>
    (await nodemailer()).createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let composer: ReturnType<typeof compose> | undefined;
  return {
    kind: 'outbox',
    async deliver(mail) {
      const info = await (await (composer ??= compose())).sendMail(envelope(mail));
      await fs.mkdir(options.outboxDir, { recursive: true });
      const file = path.join(options.outboxDir, `${mail.fileStem}.eml`);
      // Written under a temporary name and renamed, so a reader never sees half a message; a retry
      // of the same mail replaces the file rather than adding a second one.
      await fs.writeFile(`${file}.tmp`, info.message as Buffer, { mode: 0o600 });
      await fs.rename(`${file}.tmp`, file);
    },
    async close() {},
  };
}
