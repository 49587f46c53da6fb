import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type AppDatabase, inTransaction } from '../db/connection.ts';
import { mailOutbox, type OutboxAttachment } from '../db/schema.ts';
import type { MailMessage } from './mailer.ts';

/**
 * Records mail in the `mail_outbox` table. Callers pass the database handle of the transaction that
 * makes the change the mail is about, so the mail exists exactly when the change does; the outbox
 * worker (modules/notifications) delivers it. Nothing outside that worker talks to a mail server.
 */
export const MAIL_KINDS = [
  'verify-email',
  'reset-password',
  'password-changed',
  'already-registered',
  'change-email',
  'email-change-notice',
  'partner-received',
  'partner-decision',
  'partner-changes',
  'partner-link',
  'ticket-reply',
  'ticket-closed',
  'ticket-reopened',
  'team-new-ticket',
  'team-user-reply',
  'account-deletion',
  'inbound-closed-ticket',
  'inbound-unknown-sender',
  'inbound-follow-up',
  'team-follow-up',
  'service-level-soon',
  'service-level-missed',
  'auto-close-nudge',
  'license-reminder',
  'license-decision',
  'side-conversation',
  'staff-invitation',
  'webhook-disabled',
  'claim-traveller',
  'claim-due',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export interface QueuedMail extends MailMessage {
  kind: MailKind;
  userId?: string | null;
  headers?: Record<string, string>;
  /** A mail about a ticket: a reply naming its Message-ID belongs to that ticket. */
  ticketId?: string;
  /** A partner decision mail: companies.is_email_send turns true when it is delivered. */
  company?: { id: string; decision: number };
  /** Stored files it carries, read when it is sent. */
  attachments?: OutboxAttachment[];
}

export interface Outbox {
  /** Records one mail in the caller's transaction; returns its Message-ID. */
  enqueue(db: AppDatabase, mail: QueuedMail): Promise<string>;
  /** Called by whoever committed mail, so this process's worker looks at once rather than at its next poll. */
  wake(): void;
  onWake(listener: () => void): void;
}

export interface OutboxOptions {
  /** The domain of Message-IDs (the host of PUBLIC_BASE_URL). */
  domain: string;
  /** How long transient failures are retried before a mail counts as failed. */
  retryHours: number;
}

/** Records a mail of a kind for a user in the surrounding transaction. */
export type MailQueue = (kind: MailKind, message: MailMessage, userId: string) => Promise<void>;

/**
 * A service's transactions that carry mail: `work` gets the repository bound to the transaction and
 * a queue whose mail commits (or not) with it; the outbox worker is woken once it has committed.
 */
export function mailTransactions<R>(db: AppDatabase, outbox: Outbox, repositoryOf: (tx: AppDatabase) => R) {
  return async function transaction<T>(work: (repo: R, queue: MailQueue) => Promise<T>): Promise<T> {
    const result = await inTransaction(db, async (txDb) => {
      return work(repositoryOf(txDb), async (kind, message, userId) => {
        await outbox.enqueue(txDb, { ...message, kind, userId });
      });
    });
    outbox.wake();
    return result;
  };
}

/** A globally unique Message-ID, decided once when the mail is recorded. */
export const newMessageId = (domain: string) => `<${randomUUID()}@${domain}>`;

export function createOutbox(options: OutboxOptions): Outbox {
  const listeners = new Set<() => void>();
  return {
    async enqueue(db, mail) {
      const messageId = newMessageId(options.domain);
      await db.insert(mailOutbox).values({
        messageId,
        kind: mail.kind,
        recipient: mail.to,
        userId: mail.userId ?? null,
        subject: mail.subject,
        textBody: mail.text,
        htmlBody: mail.html,
        // Every mail we send is automatic (RFC 3834): well-behaved auto-responders leave it alone.
        headers: { 'Auto-Submitted': 'auto-generated', ...mail.headers },
        attachments: mail.attachments ?? [],
        ticketId: mail.ticketId ?? null,
        companyId: mail.company?.id ?? null,
        companyDecision: mail.company?.decision ?? null,
        giveUpAt: sql`now() + make_interval(hours => ${options.retryHours})`,
      });
      return messageId;
    },
    wake() {
      for (const listener of listeners) listener();
    },
    onWake(listener) {
      listeners.add(listener);
    },
  };
}
