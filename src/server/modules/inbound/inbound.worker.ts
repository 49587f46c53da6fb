import type { ParsedMail } from 'mailparser';
import { readMail } from './read-mail.ts';
import type { DNSResolver } from 'mailauth';
import { backoffSeconds, createBackgroundRounds } from '../../background-rounds.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import type { Outbox } from '../../mail/outbox.ts';
import { messageIdsIn, replyTokenOf, ticketIdOfThreadId, ticketThreadId } from '../../mail/threading.ts';
import { hashToken } from '../../security/tokens.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { createTicketMailer } from '../notifications/index.ts';
import type { SideConversations, SideOfToken } from '../side-conversations/index.ts';
import { filesOfMail } from '../../mail/mail-files.ts';
import type { SupportRecords } from '../support/index.ts';
import type { UndecidedWhy } from '../../../contracts/inbound.ts';
import { type Clock, systemClock } from '../../clock.ts';
import {
  automaticReason,
  NotYetDecidable,
  readBounce,
  type Trust,
  trustFromDmarc,
  trustFromHeader,
} from './inbound.checks.ts';
import type { MailPoster } from './inbound.post.ts';
import {
  closedTicketAnswer,
  followUpAnswer,
  followUpTeamMail,
  type InboundMailContext,
  unknownSenderAnswer,
} from './inbound.mail.ts';
import { newWords } from './reply-text.ts';
import { type Account, type ClaimedInbound, createInboundRepository, type Outcome } from './inbound.repository.ts';

/**
 * The inbound worker (docs/decisions/105-reply-by-email.md): claims stored mail with a lease, as the
 * outbox worker claims mail to send, and decides each one in this order:
 * 1. unreadable, a replay of a Message-ID we already have, automatic (RFC 3834, lists) or a
 *    delivery report (marks our mail bounced): ignored, nothing answered;
 * 2. the ticket: the reply address's token; else In-Reply-To / References against the mail we
 *    sent; else a new ticket when it comes from a verified account; else one polite answer;
 * 3. trust: From must be the address the reply address was made for (or the account's), and its
 *    domain must vouch for it (DMARC); otherwise the mail is held for an admin, never posted;
 * 4. a reply to a closed ticket from its owner goes to the open ticket that carries on from it, or
 *    opens one (decision 132); anyone else gets the spec's words back; anything else is posted with only the new words,
 *    through the same statement a web reply uses, which also marks the mail posted: a crash at any
 *    point leaves the mail to be claimed again, and its client id (`mail:<id>`) stops a second post.
 */
export interface InboundWorkerOptions {
  db: AppDatabase;
  outbox: Outbox;
  /** Posts a mail (inbound.post.ts), as an admin's Post of a held one does. */
  postMail: MailPoster;
  /** Side conversations (decision 138): a reply address that is not a ticket's may be one of theirs. */
  sideConversations: SideConversations;
  audit: AuditService;
  /** The support module's writes (a post from a mail goes through a web reply's statement). */
  records: SupportRecords;
  mail: InboundMailContext;
  /** Team mail about a ticket (the closed ticket's assignee hears of a follow-up by mail). */
  ticketMailer: ReturnType<typeof createTicketMailer>;
  log: {
    info(o: object, m: string): void;
    warn(o: object, m: string): void;
    error(o: object, m: string): void;
  };
  replyDomain: string | undefined;
  /** Our own Message-ID domain (thread roots). */
  threadDomain: string;
  /** Set: trust the topmost Authentication-Results of this authserv-id; unset: check DMARC ourselves (SMTP). */
  authservId: string | undefined;
  /** Our host name in Authentication-Results (mailauth's mta). */
  mta: string;
  /** DNS for the DMARC check (tests give a zone of their own). */
  resolver?: DNSResolver | undefined;
  pollMs?: number;
  leaseSeconds?: number;
  /** Tries (claims) before a mail that cannot be decided is held (INBOUND_MAX_ATTEMPTS). */
  maxAttempts?: number;
  /** When a retry is due (the app's clock; tests move it). */
  clock?: Clock;
}

const AUTO_ANSWER_KINDS = ['inbound-closed-ticket', 'inbound-unknown-sender'] as const;
/** A mail that could not be decided (the database or DNS failed) is tried again after 5 s, 10 s, … up to an hour. */
const RETRY_FIRST_SECONDS = 5;
/** Ten tries: the waits between them add up to about an hour and a half. */
const DEFAULT_MAX_ATTEMPTS = 10;

/** What deciding a mail had found when it failed: kept with the mail when it is held as undecided. */
interface Known {
  ticketId?: string | null;
  userId?: string | null;
  sideConversationId?: string | null;
}

interface Person {
  account: Account;
  /** Where the mail would go: the ticket, or null for a new one. */
  ticketId: string | null;
}

export function createInboundWorker(options: InboundWorkerOptions) {
  const { db, log } = options;
  const repository = createInboundRepository(db);
  const { records } = options;
  const { postMail } = options;
  const leaseSeconds = options.leaseSeconds ?? 120;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const clock = options.clock ?? systemClock;
  const counters = { posted: 0, held: 0, ignored: 0, retried: 0 };

  async function trustOf(mail: ClaimedInbound, parsed: ParsedMail, from: string): Promise<Trust> {
    if (options.authservId) return trustFromHeader(parsed, options.authservId, from);
    if (mail.via !== 'smtp') return { trusted: false, how: 'no INBOUND_AUTHSERV_ID for the mailbox' };
    return trustFromDmarc(
      mail.raw,
      { ip: mail.remoteAddress, helo: mail.helo, sender: mail.envelopeFrom, mta: options.mta },
      options.resolver,
    );
  }

  /** Records an outcome, with an automatic answer in the same transaction when one is due. */
  async function finish(
    mail: ClaimedInbound,
    parsed: ParsedMail | null,
    outcome: Outcome,
    answer?: { kind: (typeof AUTO_ANSWER_KINDS)[number]; to: string; ticketNo?: number },
  ) {
    await inTransaction(db, async (txDb) => {
      const txRepository = createInboundRepository(txDb);
      let answered = false;
      // At most one automatic answer a day to one address, counted in the outbox itself.
      if (answer && !(await txRepository.mailedToday(answer.to, AUTO_ANSWER_KINDS))) {
        const message =
          answer.kind === 'inbound-closed-ticket'
            ? closedTicketAnswer(options.mail, answer.to, answer.ticketNo ?? 0, parsed?.subject ?? null)
            : unknownSenderAnswer(options.mail, answer.to, parsed?.subject ?? null);
        await options.outbox.enqueue(txDb, {
          ...message,
          kind: answer.kind,
          // An answer to a person's mail (RFC 3834 5.2): threaded under it, marked auto-replied.
          headers: {
            'Auto-Submitted': 'auto-replied',
            ...(parsed?.messageId ? { 'In-Reply-To': parsed.messageId, References: parsed.messageId } : {}),
          },
        });
        answered = true;
      }
      const recorded = await txRepository.recordOutcome(mail.id, {
        ...outcome,
        details: { ...outcome.details, ...(answer ? { answered } : {}) },
      });
      // Another worker took the mail over (this one's lease ran out): its outcome stands.
      if (!recorded) throw new LeaseLost();
    });
    if (answer) options.outbox.wake();
    if (outcome.state === 'held') counters.held++;
    else counters.ignored++;
  }

  /** Who the mail would post as, and where; or why not. */
  async function findPerson(
    mail: ClaimedInbound,
    parsed: ParsedMail,
    from: string,
  ): Promise<Person | { outcome: Outcome; answer?: 'unknown' } | { side: SideOfToken; threadTicket: string | null }> {
    const references = [...messageIdsIn(parsed.inReplyTo), ...messageIdsIn(parsed.references)];
    const threadTicket =
      references.map((id) => ticketIdOfThreadId(id, options.threadDomain)).find((id) => id !== null) ??
      (await repository.findTicketOfSentMail(references));
    for (const recipient of mail.recipients) {
      const token = options.replyDomain ? replyTokenOf(recipient, options.replyDomain) : null;
      const found = token ? await repository.findReplyToken(hashToken(token)) : null;
      if (!found && token) {
        // A side conversation's own address (decision 138); a closed one counts as an expired reply address.
        const side = await options.sideConversations.findByTokenHash(hashToken(token));
        if (side && side.state !== 'closed') return { side, threadTicket };
      }
      if (!found || found.expired) continue;
      const base = { ticketId: found.ticketId, userId: found.userId };
      if (found.email !== from)
        return { outcome: { state: 'held', reason: 'sender-mismatch', ...base, details: { from } } };
      // A token is bound to its ticket: a thread naming another ticket is not followed, nor posted.
      if (threadTicket !== null && threadTicket !== found.ticketId)
        return { outcome: { state: 'held', reason: 'other-ticket', ...base, details: { threadTicket } } };
      const account = await repository.findAccount(found.userId);
      if (!account || !account.active) return { outcome: { state: 'ignored', reason: 'unknown-sender', ...base } };
      return { account, ticketId: found.ticketId };
    }
    const account = await repository.findAccountByEmail(from);
    const usable = account !== null && account.active && account.verified;
    if (threadTicket !== null) {
      const ticket = await records.findTicket(db, threadTicket);
      if (ticket && usable && (ticket.ownerId === account.id || account.role === 'admin'))
        return { account, ticketId: ticket.id };
      if (ticket)
        return {
          outcome: { state: 'held', reason: 'not-a-party', ticketId: ticket.id, userId: account?.id ?? null },
        };
    }
    if (usable) return { account, ticketId: null };
    return { outcome: { state: 'ignored', reason: 'unknown-sender', userId: account?.id ?? null }, answer: 'unknown' };
  }

  async function post(mail: ClaimedInbound, parsed: ParsedMail, person: Person, details: Record<string, unknown>) {
    const { account } = person;
    const result = await postMail({ inboundId: mail.id, parsed, author: account, ticketId: person.ticketId });
    if (!result.posted) {
      if (result.why === 'closed' && person.ticketId !== null)
        await closed(mail, parsed, person.ticketId, account, result.ticketNo ?? 0, details);
      else
        await finish(mail, parsed, {
          // Not a party (say, an admin's reply address after they stopped being one): an admin decides.
          state: result.why === 'not-a-party' ? 'held' : 'ignored',
          reason: result.why,
          ticketId: person.ticketId,
          userId: account.id,
          details,
        });
      return;
    }
    // The statement that posted also marked the mail posted (this attempt's, or an earlier one's).
    await repository.setDetails(mail.id, { ...details, refusedFiles: result.refusedFiles });
    counters.posted++;
    if (result.asAdmin)
      await options.audit.record({
        actor: { userId: account.id, email: account.email },
        action: 'ticket.answer',
        targetType: 'ticket',
        targetId: result.ticketId,
        details: { ticketNo: result.ticketNo, messageId: result.messageId, via: 'email' },
      });
  }

  /**
   * A reply to a closed ticket (decision 132). From its owner: posted to the open ticket that
   * carries on from it, or it opens one (the closed ticket's reason, linked as 'Still need help?'
   * links it), the customer told and the closed ticket's assignee mailed in the same transaction.
   * From anyone else (an admin's reply address): the spec's words back, at most once a day.
   */
  async function closed(
    mail: ClaimedInbound,
    parsed: ParsedMail,
    ticketId: string,
    account: Account,
    ticketNo: number,
    details: Record<string, unknown>,
  ) {
    const ticket = await records.findTicket(db, ticketId);
    if (ticket && !ticket.open && ticket.ownerId === account.id) {
      await followUp(mail, parsed, ticket, account, details);
      return;
    }
    await finish(
      mail,
      parsed,
      { state: 'ignored', reason: 'closed-ticket', ticketId, userId: account.id },
      { kind: 'inbound-closed-ticket', to: account.email, ticketNo },
    );
  }

  async function followUp(
    mail: ClaimedInbound,
    parsed: ParsedMail,
    closedTicket: { id: string; ticketNo: number; reason: string },
    account: Account,
    details: Record<string, unknown>,
  ) {
    // One follow-up at a time: while one is open, further mail to the closed ticket goes there.
    const open = await records.findOpenFollowUp(db, closedTicket.id, account.id);
    const words = newWords({ text: parsed.text ?? null, html: parsed.html, subject: parsed.subject ?? null }).text;
    const result = await postMail({
      inboundId: mail.id,
      parsed,
      author: account,
      ticketId: open?.ticketId ?? null,
      ...(open
        ? {}
        : {
            follows: { ticketId: closedTicket.id, reason: closedTicket.reason },
            onOpened: async (txDb: AppDatabase, opened: { ticketId: string; ticketNo: number }) => {
              const root = ticketThreadId(opened.ticketId, options.threadDomain);
              await options.outbox.enqueue(txDb, {
                ...followUpAnswer(options.mail, account.email, opened, closedTicket.ticketNo),
                kind: 'inbound-follow-up',
                userId: account.id,
                ticketId: opened.ticketId,
                // An answer to a person's mail (RFC 3834 5.2), and a reply to it belongs to the new ticket.
                headers: {
                  'Auto-Submitted': 'auto-replied',
                  ...(parsed.messageId
                    ? { 'In-Reply-To': parsed.messageId, References: `${parsed.messageId} ${root}` }
                    : { 'In-Reply-To': root, References: root }),
                },
              });
              await options.ticketMailer.toAssigneeOf(txDb, closedTicket.id, opened.ticketId, 'team-follow-up', (to) =>
                followUpTeamMail(options.mail, to, { email: account.email, words }, closedTicket.ticketNo),
              );
            },
          }),
    });
    if (!result.posted) {
      await finish(mail, parsed, {
        state: 'ignored',
        reason: result.why === 'closed' ? 'closed-ticket' : result.why,
        ticketId: closedTicket.id,
        userId: account.id,
        details,
      });
      return;
    }
    await repository.setDetails(mail.id, {
      ...details,
      refusedFiles: result.refusedFiles,
      followUpOf: closedTicket.ticketNo,
    });
    counters.posted++;
    options.outbox.wake();
  }

  async function decide(mail: ClaimedInbound, known: Known): Promise<void> {
    let parsed: ParsedMail;
    try {
      parsed = await readMail(mail.raw);
    } catch (error) {
      await finish(mail, null, { state: 'ignored', reason: 'unreadable', details: { error: String(error) } });
      return;
    }
    if (await repository.receivedEarlier(mail.messageId, mail.id)) {
      await finish(mail, parsed, { state: 'ignored', reason: 'replayed' });
      return;
    }
    const automatic = automaticReason(parsed, mail.envelopeFrom);
    if (automatic === 'delivery-report') {
      const bounce = readBounce(parsed);
      const marked = bounce ? await repository.markBounced(bounce.messageId, bounce.status, bounce.hard) : null;
      await finish(mail, parsed, {
        state: 'ignored',
        reason: 'delivery-report',
        details: bounce ? { bounce: bounce.status, hard: bounce.hard, ours: marked !== null } : {},
      });
      return;
    }
    if (automatic) {
      await finish(mail, parsed, { state: 'ignored', reason: 'automatic' });
      return;
    }
    const from = (parsed.from?.value[0]?.address ?? '').toLowerCase();
    const person = await findPerson(mail, parsed, from);
    if ('side' in person) {
      await toSide(mail, parsed, from, person.side, person.threadTicket, known);
      return;
    }
    if ('outcome' in person) {
      await finish(
        mail,
        parsed,
        person.outcome,
        person.answer && from ? { kind: 'inbound-unknown-sender', to: from } : undefined,
      );
      return;
    }
    known.ticketId = person.ticketId;
    known.userId = person.account.id;
    const trust = await trustOf(mail, parsed, from);
    const details = { trust: trust.how };
    const base = { ticketId: person.ticketId, userId: person.account.id, details };
    if (!trust.trusted) {
      await finish(mail, parsed, { state: 'held', reason: 'not-authenticated', ...base });
      return;
    }
    await post(mail, parsed, person, details);
  }

  /**
   * A reply to a side conversation (decision 138), under the customer's rules: From must be the
   * address the conversation writes to, and its domain must vouch for it; otherwise it is held (an
   * admin's Post puts it in the conversation). Only the new words are posted, never into the ticket.
   */
  async function toSide(
    mail: ClaimedInbound,
    parsed: ParsedMail,
    from: string,
    side: SideOfToken,
    threadTicket: string | null,
    known: Known,
  ) {
    known.ticketId = side.ticketId;
    known.sideConversationId = side.id;
    const base = { ticketId: side.ticketId, sideConversationId: side.id };
    if (from !== side.counterpart.toLowerCase()) {
      await finish(mail, parsed, { state: 'held', reason: 'sender-mismatch', ...base, details: { from, side: true } });
      return;
    }
    if (threadTicket !== null && threadTicket !== side.ticketId) {
      await finish(mail, parsed, { state: 'held', reason: 'other-ticket', ...base, details: { threadTicket } });
      return;
    }
    const trust = await trustOf(mail, parsed, from);
    if (!trust.trusted) {
      await finish(mail, parsed, {
        state: 'held',
        reason: 'not-authenticated',
        ...base,
        details: { trust: trust.how },
      });
      return;
    }
    const words = newWords({ text: parsed.text ?? null, html: parsed.html, subject: parsed.subject ?? null }).text;
    // Files alone are an answer too (a signed form sent back with no words).
    const files = filesOfMail(parsed);
    if (words.trim() === '' && files.length === 0) {
      await finish(mail, parsed, { state: 'ignored', reason: 'no-words', ...base, details: { trust: trust.how } });
      return;
    }
    const posted = await options.sideConversations.postFromMail({
      conversationId: side.id,
      ticketId: side.ticketId,
      inboundId: mail.id,
      words,
      files,
      expect: 'processing',
      details: { trust: trust.how, side: true },
    });
    // Neither this try nor an earlier one posted it: another worker holds the mail now.
    if (!posted) throw new LeaseLost();
    counters.posted++;
  }

  /** Held for an admin: it could not be decided in `maxAttempts` tries; what was found is kept. */
  async function holdUndecided(mail: ClaimedInbound, why: UndecidedWhy, known: Known, error: string | null) {
    await finish(mail, null, {
      state: 'held',
      reason: 'undecided',
      ticketId: known.ticketId ?? null,
      userId: known.userId ?? null,
      sideConversationId: known.sideConversationId ?? null,
      details: { why, tries: Math.min(mail.attempts, maxAttempts), ...(error ? { error: error.slice(0, 300) } : {}) },
    });
  }

  async function handle(mail: ClaimedInbound) {
    const known: Known = {};
    try {
      // Claimed once more than allowed: the last try never finished (the process died, or its hold failed).
      if (mail.attempts > maxAttempts) {
        log.warn(
          { inboundId: mail.id, attempts: mail.attempts },
          'a received mail was never decided; held for an admin',
        );
        await holdUndecided(mail, 'worker-stopped', known, null);
        return;
      }
      await decide(mail, known);
    } catch (error) {
      if (error instanceof LeaseLost) return;
      const message = error instanceof Error ? error.message : String(error);
      if (mail.attempts >= maxAttempts) {
        log.warn(
          { inboundId: mail.id, attempts: mail.attempts, err: error },
          'a received mail could not be decided; held for an admin',
        );
        const why = error instanceof NotYetDecidable ? error.why : 'error';
        // If even this fails (the database is gone), the lease runs out and the next claim holds it.
        await holdUndecided(mail, why, known, message).catch(() => {});
        return;
      }
      counters.retried++;
      const delay = backoffSeconds(mail.attempts, RETRY_FIRST_SECONDS);
      log.warn({ inboundId: mail.id, attempts: mail.attempts, err: error }, 'a received mail could not be decided yet');
      await repository.markRetry(mail.id, new Date(clock.now().getTime() + delay * 1000), message).catch(() => {});
    }
  }

  async function round() {
    try {
      for (;;) {
        if (rounds.stopped) break;
        const claimed = await repository.claimDue(4, leaseSeconds, clock.now());
        if (claimed.length === 0) break;
        for (const mail of claimed) await handle(mail);
      }
    } catch (error) {
      log.error({ err: error }, 'the inbound mail worker failed a round; it tries again');
    }
  }
  const rounds = createBackgroundRounds(options.pollMs ?? 1000, round);

  return {
    start: () => rounds.start(),
    runOnce: () => rounds.run(),
    wake: () => rounds.wake(),
    stop: () => rounds.stop(),
    stats: () => ({ ...counters }),
  };
}

class LeaseLost extends Error {
  override name = 'LeaseLost';
}

export type InboundWorker = ReturnType<typeof createInboundWorker>;
