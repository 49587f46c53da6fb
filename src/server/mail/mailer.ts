import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

/**
 * Mail behind a small interface (DESIGN §1). By default every message is written to
 * `DATA_DIR/outbox/*.eml` (open it in any mail program) and logged, so a fresh install works
 * with no mail server; with SMTP_URL it is sent for real.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  readonly kind: 'outbox' | 'smtp';
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export interface MailLogger {
  info(details: object, message: string): void;
}

export interface MailerOptions {
  from: string;
  smtpUrl?: string;
  outboxDir: string;
  logger: MailLogger;
}

export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      kind: 'smtp',
      async send(message) {
        const info = await transport.sendMail({ from: options.from, ...message });
        // The recipient and subject only: bodies carry one-time links.
        options.logger.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail sent');
      },
      async close() {
        transport.close();
      },
    };
  }

  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(message) {
      const info = await composer.sendMail({ from: options.from, ...message });
      await fs.mkdir(options.outboxDir, { recursive: true });
      // Sortable by time, unique across processes sharing the folder.
      const name = `${new Date().toISOString().replaceAll(':', '-')}-${randomBytes(4).toString('hex')}.eml`;
      const file = path.join(options.outboxDir, name);
      // Written under a temporary name and renamed, so a reader never sees half a message.
      await fs.writeFile(`${file}.tmp`, info.message as Buffer, { mode: 0o600 });
      await fs.rename(`${file}.tmp`, file);
      options.logger.info({ to: message.to, subject: message.subject, file }, 'mail written to the outbox');
    },
    async close() {},
  };
}
