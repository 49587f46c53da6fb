import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from '../../logging.ts';
import { reasonLabel } from '../../../contracts/support.ts';
import { backoffSeconds, createBackgroundRounds } from '../../background-rounds.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { createToken, hashToken } from '../../security/tokens.ts';
import { type MailMessage, type MailTransport, MailDeliveryError, classifyMailError } from '../../mail/mailer.ts';
import type { Outbox } from '../../mail/outbox.ts';
import type { FileStorage } from '../../storage/storage.ts';
import { supportFrom } from '../../mail/layout.ts';
import { createReplyToken, replyAddress, ticketThreadId } from '../../mail/threading.ts';
import {
  type NotificationMailContext,
  teamTicketMail,
  ticketClosedMail,
  ticketReopenedMail,
  ticketReplyMail,
} from './notifications.mail.ts';
import {
  createNotificationsRepository,
  type ClaimedMail,
  type DueEvent,
  type NotificationsRepository,
  type OptOutKind,
} from './notifications.repository.ts';

export interface WorkerOptions {
  db: AppDatabase;
  transport: MailTransport;
  outbox: Outbox;
  /** Where the files some mail carries are read from (a side conversation's); without it, none is attached. */
  storage?: Pick<FileStorage, 'get'>;
  /** With `supportAddress`, the owner's mail comes from it in the answering agent's name (SUPPORT_FROM). */
  mail: NotificationMailContext & { replyAddressDays: number; supportAddress?: string | undefined };
  log: Logger;
  retryFirstSeconds: number;
  pollMs?: number;
  leaseSeconds?: number;
  batch?: number;
  concurrency?: number;
}

/** The most answers one 'New reply' mail quotes; more make further mails. */
export const ANSWERS_PER_MAIL = 50;

const OPT_OUT_OF: Record<DueEvent['kind'], OptOutKind> = {
  'ticket-reply': 'ticket-replies',
  'ticket-closed': 'ticket-closed',
  // One setting for both: a close and a reopen are the two ends of the same story.
  'ticket-reopened': 'ticket-closed',
  'team-new-ticket': 'team',
  'team-user-reply': 'team',
};

export function createOutboxWorker(options: WorkerOptions) {
  const { db, transport, outbox, log } = options;
  const pollMs = options.pollMs ?? 1000;
  const leaseSeconds = options.leaseSeconds ?? 300;
  // Each claim takes only as many mails as are sent at once, so every claimed mail is on its way at
  // once and its lease only has to cover one send (SMTP gives up on a step after 30 s).
  const concurrency = options.concurrency ?? 4;
  const batch = options.batch ?? concurrency;
  const repository = createNotificationsRepository(db);
  const threadDomain = new URL(options.mail.publicBaseUrl).hostname;

  const counters = { composed: 0, delivered: 0, retried: 0, failed: 0 };

  interface PlannedMail {
    userId: string;
    email: string;
    optOut: OptOutKind;
    /** The outbox's kind when it is not the event's (a close's answers mailed on their own). */
    kind?: DueEvent['kind'];
    /** The From header when it is not MAIL_FROM: the owner's mail comes from the support address. */
    from?: string;
    render(unsubscribeUrl: string): MailMessage;
  }

  /** Who is to be told of one event, and what; nothing when nobody is any more. */
  async function plan(
    repo: NotificationsRepository,
    event: DueEvent,
    followUps: Array<{ ticketId: string; fromMessageId: number }>,
  ): Promise<PlannedMail[]> {
    if (!event.ticketId) return [];
    const ticket = await repo.findTicketFacts(event.ticketId);
    if (!ticket) return [];
    // Mail names the reason as the pages do ('Incident Report'), not by its stored code.
    const ref = { id: ticket.id, ticketNo: ticket.ticketNo, reason: reasonLabel(ticket.reason) };
    const optOut = OPT_OUT_OF[event.kind];
    const owner = { email: ticket.ownerEmail, name: ticket.ownerName };
    /**
     * The owner's mail comes from the support address, in the name of the agent whose answer it
     * carries last ("Sam at Bagspace"), or of the team when none ("Bagspace Support").
     */
    const { supportAddress, companyName } = options.mail;
    let agentName: string | null = null;
    const fromSupport = () => (supportAddress ? { from: supportFrom(companyName, supportAddress, agentName) } : {});
    const toOwner = async (render: PlannedMail['render']): Promise<PlannedMail[]> => {
      if (!ticket.ownerActive || (await repo.hasOptedOut(ticket.ownerId, optOut))) return [];
      return [{ userId: ticket.ownerId, email: ticket.ownerEmail, optOut, render, ...fromSupport() }];
    };
    /**
     * The answers from `fromId` on that the owner has not seen, at most one mail's worth: more go in
     * the next mail (its event is queued now, after this one is deleted), so no answer goes untold.
     */
    const answersFrom = async (fromId: number | null): Promise<string[]> => {
      if (fromId === null) return [];
      const answers = await repo.unseenAnswers(ticket.id, fromId, ticket.ownerSeenMessageId, ANSWERS_PER_MAIL + 1);
      if (answers.length > ANSWERS_PER_MAIL) followUps.push({ ticketId: ticket.id, fromMessageId: answers.pop()!.id });
      agentName = answers.at(-1)?.authorName ?? null;
      return answers.map((a) => a.body);
    };
    switch (event.kind) {
      case 'ticket-reply': {
        const answers = await answersFrom(event.messageId ?? 0);
        if (answers.length === 0) return [];
        return toOwner((url) => ticketReplyMail(options.mail, owner, ref, answers, url));
      }
      case 'ticket-closed': {
        // The close took the answers still waiting to be told (support.repository.ts setOpen): the
        // closed mail quotes the unseen ones, so an answer sent with the close is never told only as
        // "was closed". An owner who switched closed mails off still gets them, as a reply mail.
        const answers = await answersFrom(event.messageId);
        const repliesOff = !ticket.ownerActive || (await repo.hasOptedOut(ticket.ownerId, 'ticket-replies'));
        const told = repliesOff ? [] : answers;
        const closed = await toOwner((url) => ticketClosedMail(options.mail, owner, ref, url, told));
        if (closed.length > 0 || told.length === 0) return closed;
        return [
          {
            userId: ticket.ownerId,
            email: ticket.ownerEmail,
            optOut: 'ticket-replies',
            kind: 'ticket-reply',
            render: (url) => ticketReplyMail(options.mail, owner, ref, told, url),
            ...fromSupport(),
          },
        ];
      }
      case 'ticket-reopened':
        return toOwner((url) => ticketReopenedMail(options.mail, owner, ref, url));
      case 'team-new-ticket':
      case 'team-user-reply': {
        const text = event.messageId === null ? null : await repo.findMessageBody(event.messageId);
        if (text === null) return [];
        const what = event.kind === 'team-new-ticket' ? 'new-ticket' : 'user-reply';
        // A user's reply on a ticket someone handles is theirs alone to hear of (if their settings
        // let it through); a new ticket, or a reply on nobody's ticket, goes to the whole team.
        const assignee = event.kind === 'team-user-reply' ? await repo.activeAssignee(ticket.id) : null;
        const recipients = assignee ? (assignee.reachable ? [assignee] : []) : await repo.teamRecipients();
        return recipients.map((admin) => ({
          userId: admin.userId,
          email: admin.email,
          optOut,
          render: (url: string) =>
            teamTicketMail(
              options.mail,
              admin.email,
              ref,
              { email: ticket.ownerEmail, text },
              what,
              url,
              assignee !== null,
            ),
        }));
      }
    }
  }

  /**
   * What makes a mail about a ticket one conversation, and answerable: the ticket's thread root in
   * In-Reply-To and References, and (with REPLY_DOMAIN) a reply address of its own for this person
   * and ticket, whose token is stored only as a hash.
   */
  async function ticketMailHeaders(
    repo: NotificationsRepository,
    ticketId: string,
    to: Pick<PlannedMail, 'userId' | 'email'>,
  ): Promise<Record<string, string>> {
    const root = ticketThreadId(ticketId, threadDomain);
    const headers: Record<string, string> = { 'In-Reply-To': root, References: root };
    const replyDomain = options.mail.replyDomain;
    if (replyDomain) {
      const token = createReplyToken();
      await repo.insertReplyToken({
        tokenHash: hashToken(token),
        ticketId,
        userId: to.userId,
        email: to.email,
        days: options.mail.replyAddressDays,
      });
      headers['Reply-To'] = replyAddress(token, replyDomain);
    }
    return headers;
  }

  /** Turns due events into mail; true when it did any work. */
  async function compose(): Promise<boolean> {
    return inTransaction(db, async (txDb) => {
      const repo = createNotificationsRepository(txDb);
      const events = await repo.claimDueEvents(10);
      const followUps: Array<{ ticketId: string; fromMessageId: number }> = [];
      for (const event of events) {
        for (const planned of await plan(repo, event, followUps)) {
          // Each mail gets its own unsubscribe link: the token names the person and the kind of mail.
          const token = createToken();
          await repo.insertUnsubscribeToken(hashToken(token), planned.userId, planned.optOut);
          const url = `${options.mail.publicBaseUrl}/unsubscribe/${token}`;
          await outbox.enqueue(txDb, {
            ...planned.render(url),
            kind: planned.kind ?? event.kind,
            userId: planned.userId,
            ticketId: event.ticketId!,
            headers: {
              ...(planned.from ? { From: planned.from } : {}),
              'List-Unsubscribe': `<${url}>`,
              'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
              ...(await ticketMailHeaders(repo, event.ticketId!, planned)),
            },
          });
        }
        await repo.deleteEvent(event.id);
        counters.composed++;
      }
      for (const next of followUps) await repo.queueRemainingAnswers(next.ticketId, next.fromMessageId);
      return events.length > 0;
    });
  }

  async function recordFailure(mail: ClaimedMail, error: MailDeliveryError) {
    if (error.permanent) {
      await repository.markFailed(mail.id, error.message);
      counters.failed++;
      log.error({ mailId: mail.id, to: mail.recipient, error: error.message }, 'mail refused for good');
      return;
    }
    const state = await repository.markRetry(
      mail.id,
      backoffSeconds(mail.attempts, options.retryFirstSeconds),
      error.message,
    );
    if (state === 'failed') counters.failed++;
    else counters.retried++;
    log.warn(
      { mailId: mail.id, to: mail.recipient, attempts: mail.attempts, error: error.message, state },
      'mail not delivered',
    );
  }

  /**
   * The files a mail carries, read now (a retry reads them again). A file no longer stored (its
   * ticket's files were erased since) is left out: the mail still goes, and the log says so.
   */
  async function attachmentsOf(mail: ClaimedMail) {
    const files: Array<{ filename: string; contentType: string; content: Buffer }> = [];
    for (const file of mail.attachments) {
      const object = options.storage ? await options.storage.get(file.storageKey) : null;
      if (!object) {
        log.warn(
          { mailId: mail.id, file: file.name },
          'a file of a mail is no longer stored; the mail goes without it',
        );
        continue;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of object.body as AsyncIterable<Buffer>) chunks.push(chunk);
      files.push({ filename: file.name, contentType: file.contentType, content: Buffer.concat(chunks) });
    }
    return files;
  }

  async function deliverOne(mail: ClaimedMail) {
    try {
      await transport.deliver({
        attachments: mail.attachments.length > 0 ? await attachmentsOf(mail) : undefined,
        to: mail.recipient,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
        messageId: mail.messageId,
        date: mail.createdAt,
        fileStem: `${mail.createdAt.toISOString().replaceAll(':', '-')}-${String(mail.id).padStart(8, '0')}`,
      });
    } catch (caught) {
      const error = caught instanceof MailDeliveryError ? caught : classifyMailError(caught);
      await recordFailure(mail, error).catch((recordError: unknown) =>
        log.error(
          { err: recordError, mailId: mail.id },
          'a failed delivery could not be recorded; the mail is tried again after its lease',
        ),
      );
      return;
    }
    try {
      await repository.markSent(mail.id);
    } catch (error) {
      // Delivered but not recorded: the row stays 'sending' and goes again, with the same Message-ID,
      // once its lease runs out. Never let it stop the other mails of the round.
      log.error({ err: error, mailId: mail.id }, 'a delivered mail could not be recorded as sent');
      return;
    }
    counters.delivered++;
    // The recipient and subject only: bodies carry one-time links (LOG-02).
    log.info(
      { mailId: mail.id, to: mail.recipient, subject: mail.subject, messageId: mail.messageId },
      'mail delivered',
    );
  }

  /** Sends due mail until none is due; true when it sent any. */
  async function deliver(): Promise<boolean> {
    let any = false;
    for (;;) {
      if (rounds.stopped) break;
      const claimed = await repository.claimDueMail(batch, leaseSeconds);
      if (claimed.length === 0) break;
      any = true;
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(concurrency, claimed.length) }, async () => {
          while (next < claimed.length) await deliverOne(claimed[next++]!);
        }),
      );
    }
    return any;
  }

  async function round() {
    try {
      // Compose every due event first, so the mail they make goes out in this same round. Between
      // batches the event loop takes its turn: on the embedded database every query resolves
      // without I/O, so without it a round of a few hundred events held every request for its
      // whole length (stalls of 0.3-0.5 s once a round; bench/results/goal-history.json,
      // "5b. embedded"). Hence also 10 events a transaction: the longest a request waits behind one.
      while (await compose()) await nextTurn();
      await deliver();
    } catch (error) {
      log.error({ err: error }, 'the mail worker failed a round; it tries again');
    }
  }
  const rounds = createBackgroundRounds(pollMs, round);
  outbox.onWake(() => rounds.wake());

  return {
    start: () => rounds.start(),
    /** Runs one full round now (tests, and `wake`). */
    runOnce: () => rounds.run(),
    stop: () => rounds.stop(),
    stats: () => ({ ...counters }),
  };
}

export type OutboxWorker = ReturnType<typeof createOutboxWorker>;
