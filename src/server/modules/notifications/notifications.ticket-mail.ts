import { reasonLabel } from '../../../contracts/support.ts';
import type { AppDatabase } from '../../db/connection.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import type { MailKind, Outbox } from '../../mail/outbox.ts';
import { createReplyToken, replyAddress, ticketThreadId } from '../../mail/threading.ts';
import { createToken, hashToken } from '../../security/tokens.ts';
import type { MailContext } from '../../shared-services.ts';
import { settingsNote, type TicketRef } from './notifications.mail.ts';
import { createNotificationsRepository, type OptOutKind, type Recipient } from './notifications.repository.ts';

/** What a template is given to write one mail about a ticket to one person. */
export interface TicketMailTo {
  ticket: TicketRef;
  /** The recipient's address. */
  to: string;
  /** The mail's own one-click unsubscribe link (it names the person and the kind of mail). */
  unsubscribeUrl: string;
  /** A team mail that goes to the ticket's assignee alone rather than to the whole team. */
  assignedToYou: boolean;
}

/** Why a member of the team gets a mail about a ticket, and how to stop it (other modules' team mail). */
export const teamMailNote = (ctx: { companyName: string; publicBaseUrl: string }, to: TicketMailTo) =>
  settingsNote(
    ctx,
    to.assignedToYou
      ? `ticket #${to.ticket.ticketNo} is assigned to you on the ${ctx.companyName} support team`
      : `you are on the ${ctx.companyName} support team`,
    to.unsubscribeUrl,
  );

/**
 * Mail about a ticket that other modules record in their own transaction (the service levels'
 * warnings and auto-close nudge), routed and dressed as the outbox worker's own ticket mail: the
 * team's mail goes to the ticket's assignee alone (if their settings let it through) or, while it
 * is nobody's, to every admin on the team who has not switched team mail off; the owner's mail
 * honours their opt-out and a paused or disabled account. Each mail gets its unsubscribe link, the
 * ticket's thread headers and (with REPLY_DOMAIN) a reply address of its own.
 */
export function createTicketMailer(options: { outbox: Outbox; mail: MailContext }) {
  const { outbox, mail } = options;
  const threadDomain = new URL(mail.publicBaseUrl).hostname;

  async function record(
    db: AppDatabase,
    input: { ticketId: string; kind: MailKind; optOut: OptOutKind; to: Recipient },
    write: (unsubscribeUrl: string) => MailMessage,
  ): Promise<void> {
    const repo = createNotificationsRepository(db);
    const token = createToken();
    await repo.insertUnsubscribeToken(hashToken(token), input.to.userId, input.optOut);
    const unsubscribeUrl = `${mail.publicBaseUrl}/unsubscribe/${token}`;
    const root = ticketThreadId(input.ticketId, threadDomain);
    const headers: Record<string, string> = {
      'List-Unsubscribe': `<${unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'In-Reply-To': root,
      References: root,
    };
    if (mail.replyDomain) {
      const replyToken = createReplyToken();
      await repo.insertReplyToken({
        tokenHash: hashToken(replyToken),
        ticketId: input.ticketId,
        userId: input.to.userId,
        email: input.to.email,
        days: mail.replyAddressDays,
      });
      headers['Reply-To'] = replyAddress(replyToken, mail.replyDomain);
    }
    await outbox.enqueue(db, {
      ...write(unsubscribeUrl),
      kind: input.kind,
      userId: input.to.userId,
      ticketId: input.ticketId,
      headers,
    });
  }

  async function ticketRef(db: AppDatabase, ticketId: string) {
    const facts = await createNotificationsRepository(db).findTicketFacts(ticketId);
    if (!facts) return null;
    return { facts, ref: { id: facts.id, ticketNo: facts.ticketNo, reason: reasonLabel(facts.reason) } };
  }

  return {
    /** The team's mail about a ticket, recorded on `db` (the caller's transaction); returns how many. */
    async toTeam(
      db: AppDatabase,
      ticketId: string,
      kind: MailKind,
      write: (to: TicketMailTo) => MailMessage,
    ): Promise<number> {
      const found = await ticketRef(db, ticketId);
      if (!found) return 0;
      const repo = createNotificationsRepository(db);
      const assignee = await repo.activeAssignee(ticketId);
      const recipients = assignee ? (assignee.reachable ? [assignee] : []) : await repo.teamRecipients();
      for (const admin of recipients) {
        await record(db, { ticketId, kind, optOut: 'team', to: admin }, (unsubscribeUrl) =>
          write({ ticket: found.ref, to: admin.email, unsubscribeUrl, assignedToYou: assignee !== null }),
        );
      }
      return recipients.length;
    },

    /**
     * Mail to the admin `assignedTicketId` is assigned to (while an active admin whose settings let
     * team mail through) about `ticketId`; nobody when it is nobody's. Returns how many.
     */
    async toAssigneeOf(
      db: AppDatabase,
      assignedTicketId: string,
      ticketId: string,
      kind: MailKind,
      write: (to: TicketMailTo) => MailMessage,
    ): Promise<number> {
      const found = await ticketRef(db, ticketId);
      if (!found) return 0;
      const assignee = await createNotificationsRepository(db).activeAssignee(assignedTicketId);
      if (!assignee?.reachable) return 0;
      await record(db, { ticketId, kind, optOut: 'team', to: assignee }, (unsubscribeUrl) =>
        write({ ticket: found.ref, to: assignee.email, unsubscribeUrl, assignedToYou: true }),
      );
      return 1;
    },

    /** The ticket owner's mail, unless `optOut` is switched off or the account gets no mail; returns how many. */
    async toOwner(
      db: AppDatabase,
      ticketId: string,
      kind: MailKind,
      optOut: OptOutKind,
      write: (to: TicketMailTo) => MailMessage,
    ): Promise<number> {
      const found = await ticketRef(db, ticketId);
      if (!found) return 0;
      const { facts } = found;
      if (!facts.ownerActive || (await createNotificationsRepository(db).hasOptedOut(facts.ownerId, optOut))) return 0;
      const owner = { userId: facts.ownerId, email: facts.ownerEmail };
      await record(db, { ticketId, kind, optOut, to: owner }, (unsubscribeUrl) =>
        write({ ticket: found.ref, to: owner.email, unsubscribeUrl, assignedToYou: false }),
      );
      return 1;
    },
  };
}
