import { DESK_TEXT } from '../../../contracts/desk.ts';
import { SUPPORT_TEXT } from '../../../contracts/support.ts';
import type { AdminTicket, Message, Ticket } from '../../../contracts/support.schemas.ts';
import { ATTACHMENT_TYPES, attachmentUrl } from '../../../contracts/attachments.ts';
import { shownEmail } from '../../../contracts/account-deletion.ts';
import { AppError } from '../../errors.ts';
import { newZealandDate, privacyDueDate } from '../privacy/index.ts';
import { isUuid } from '../../db/sql.ts';
import type { RateLimiter } from '../../security/rate-limiter.ts';
import type { Clock } from '../../clock.ts';
import { ATTACHMENT_LIMITS, ATTACHMENT_TEXT } from '../../../contracts/attachments.ts';
import { CLAIM_TEXT } from '../../../contracts/claims.ts';
import type { IncidentInput } from '../../../contracts/claims.schemas.ts';
import { RATING_CHANGEABLE_DAYS, type SupportRepository } from './support.repository.ts';
import type { AdminTicketRow, MessageRow, TicketRow } from './support.rows.ts';

export function toTicketDto(row: TicketRow): Ticket {
  return {
    id: row.id,
    ticketNo: row.ticketNo,
    reason: row.reason as Ticket['reason'],
    open: row.open,
    creationDate: row.creationDate,
    lastMessage: row.lastMessage,
    waitingOn: row.waitingOn,
    rating: row.rating
      ? {
          ...row.rating,
          changeableUntil: new Date(Date.parse(row.rating.ratedAt) + RATING_CHANGEABLE_DAYS * 86_400_000).toISOString(),
        }
      : null,
    follows: row.follows ? { id: row.follows.id, ticketNo: row.follows.ticketNo } : null,
    continuedIn: row.continuedIn.map((link) => ({ id: link.id, ticketNo: link.ticketNo })),
  };
}

/** A ticket as the console shows it; `now` (the app clock's) decides whether a privacy request is overdue. */
export function toAdminTicketDto(row: AdminTicketRow, now: Date): AdminTicket {
  return {
    ...toTicketDto(row),
    userEmail: shownEmail(row.userEmail),
    userName: row.userName,
    keepForRecord: row.keepForRecord,
    unanswered: row.unanswered,
    assignee: row.assignee,
    firstResponseAt: row.firstResponseAt,
    closedAt: row.closedAt,
    ...privacyClock(row, now),
    due: row.due,
    dueTimes: row.dueTimes,
    firstLine: row.firstLine,
    version: row.version,
    labels: row.labels,
    deliveryReference: row.deliveryReference,
  };
}

/** A privacy request's due date (20 working days, as the Privacy Act counts them) and whether it has passed. */
function privacyClock(row: AdminTicketRow, now: Date): { privacyDue: string | null; overdue: boolean } {
  if (!row.privacy) return { privacyDue: null, overdue: false };
  const due = privacyDueDate(new Date(row.creationDate));
  return { privacyDue: due, overdue: row.open && newZealandDate(now) > due };
}

/** A message as one viewer sees it: "mine" is relative to them; user ids never leave the server. */
export function toMessageDto(row: MessageRow, viewerId: string): Message {
  return {
    id: row.id,
    messageBody: row.messageBody,
    timestamp: row.timestamp,
    admin: row.admin,
    // A system line (an auto-close) is nobody's, though it is stored under the ticket's owner.
    mine: row.systemEvent === null && row.userId === viewerId,
    ...(row.byEmail ? { byEmail: true as const } : {}),
    ...(row.systemEvent === null ? {} : { systemEvent: row.systemEvent }),
    attachments: row.attachments.map((a) => ({
      id: a.id,
      name: a.name,
      kind: a.kind,
      contentType: ATTACHMENT_TYPES[a.kind].contentType,
      size: a.size,
      width: a.width,
      height: a.height,
      url: attachmentUrl(row.ticketId, a.id),
      thumbnailUrl: a.thumbnail ? attachmentUrl(row.ticketId, a.id, true) : null,
    })),
  };
}

export function toAdminMessageDto(row: MessageRow, viewerId: string) {
  return {
    ...toMessageDto(row, viewerId),
    authorEmail: row.authorEmail === null || row.systemEvent !== null ? null : shownEmail(row.authorEmail),
    internal: row.internal,
    ticketVersion: row.ticketVersion,
  };
}

const ticketMissing = () => new AppError('NOT_FOUND', SUPPORT_TEXT.ticketMissing);

export interface SupportServiceOptions {
  repository: SupportRepository;
  limiter: RateLimiter;
  ticketsPerUserPerHour: number;
  clock: Clock;
}

export function createSupportService({ repository, limiter, ticketsPerUserPerHour, clock }: SupportServiceOptions) {
  /**
   * What a claim needs beyond its fields (docs/decisions/152-incident-claims.md): a delivery day not
   * after today, and for a damaged item a photo among its files. A ticket without a claim keeps the
   * files of a message (five); a claim takes up to ten.
   */
  async function checkEvidence(userId: string, incident: IncidentInput | null, attachmentIds: string[]) {
    if (!incident) {
      if (attachmentIds.length > ATTACHMENT_LIMITS.filesPerMessage) {
        throw new AppError('INVALID_ARGUMENT', ATTACHMENT_TEXT.tooMany, { fields: { files: ATTACHMENT_TEXT.tooMany } });
      }
      return;
    }
    if (incident.deliveredOn && incident.deliveredOn > newZealandDate(clock.now())) {
      throw new AppError('INVALID_ARGUMENT', CLAIM_TEXT.deliveredOnFuture, {
        fields: { deliveredOn: CLAIM_TEXT.deliveredOnFuture },
      });
    }
    if (incident.kind === 'damaged' && (await repository.countPendingPhotos(attachmentIds, userId)) === 0) {
      throw new AppError('INVALID_ARGUMENT', CLAIM_TEXT.photoRequired, { fields: { files: CLAIM_TEXT.photoRequired } });
    }
  }

  /** Another user's ticket and a ticket that does not exist look the same (AZ-03). */
  async function getOwnTicket(userId: string, ticketId: string): Promise<TicketRow> {
    const ticket = isUuid(ticketId) ? await repository.findTicket(ticketId, userId) : null;
    if (!ticket) throw ticketMissing();
    return ticket;
  }

  async function getAnyTicket(ticketId: string): Promise<AdminTicketRow> {
    const ticket = isUuid(ticketId) ? await repository.findAdminTicket(ticketId) : null;
    if (!ticket) throw ticketMissing();
    return ticket;
  }

  async function storeMessage(input: {
    ticketId: string;
    authorId: string;
    ownerId: string | null;
    admin: boolean;
    body: string;
    clientId?: string;
    attachmentIds?: string[];
    /** A staff write's version (decision 140): stopped with `stale` when the ticket moved on since. */
    seenVersion?: number;
    stale?: () => Error;
  }): Promise<MessageRow> {
    const stored = await repository.insertMessage({ ...input, clientId: input.clientId ?? null });
    if (stored) return stored;
    // The ticket was merged into another while this message was on its way (its address was read
    // before the merge's lock was let go): the message goes where the ticket's messages went. (A
    // write against a version is stopped instead: the merge changed what it was written against.)
    const target = await repository.resolveMerged(input.ticketId);
    if (target !== input.ticketId && input.seenVersion === undefined) {
      const moved = await repository.insertMessage({ ...input, ticketId: target, clientId: input.clientId ?? null });
      if (moved) return moved;
    }
    // Nothing stored: a retry of a message we already have, a closed ticket, or no such ticket.
    if (input.clientId) {
      const earlier = await repository.findMessageByClientId(input.ticketId, input.clientId, input.authorId);
      if (earlier && (input.ownerId === null || (await repository.findTicket(input.ticketId, input.ownerId))))
        return earlier;
    }
    const ticket = await repository.findTicket(input.ticketId, input.ownerId);
    if (!ticket) throw ticketMissing();
    if (input.seenVersion !== undefined && input.stale && ticket.version !== input.seenVersion) throw input.stale();
    throw new AppError('ABORTED', SUPPORT_TEXT.replyRejected);
  }

  return {
    getOwnTicket,
    getAnyTicket,

    /**
     * A retry with the same clientId answers with the ticket the first attempt created (DATA-05).
     * `follows` links it to a ticket it carries on from, only if that one is the user's own: any
     * other id (someone else's ticket, or none) leaves it unlinked, as a missing ticket would.
     */
    async createTicket(
      userId: string,
      input: {
        reason: string;
        message: string;
        clientId?: string | undefined;
        attachmentIds?: string[];
        follows?: string | undefined;
        /** The app's delivery the ticket is about (the app opens tickets with one: docs/integrations.md). */
        deliveryReference?: string | undefined;
        /** The claim an Incident Report about a delivery opens (claims.schemas.ts readIncident). */
        incident?: IncidentInput | null | undefined;
      },
    ) {
      const clientId = input.clientId ?? null;
      const earlier = clientId ? await repository.findTicketByClientId(userId, clientId) : null;
      if (earlier) return earlier;
      const incident = input.incident ?? null;
      await checkEvidence(userId, incident, input.attachmentIds ?? []);
      await limiter.consume(
        { key: `tickets:user:${userId}`, limit: ticketsPerUserPerHour, windowMs: 60 * 60 * 1000 },
        SUPPORT_TEXT.tooManyTickets,
      );
      const follows = input.follows && isUuid(input.follows) ? input.follows : null;
      const { reason, message, attachmentIds } = input;
      const created = await repository.createTicket(userId, reason, message, clientId, attachmentIds, null, {
        follows,
        deliveryReference: input.deliveryReference ?? incident?.deliveryReference ?? null,
        claim: incident ? { ...incident, at: clock.now() } : null,
      });
      if (created) return { ticketId: created.ticketId, ticketNo: created.ticketNo };
      // Another attempt with this clientId committed first: answer with its ticket.
      const winner = await repository.findTicketByClientId(userId, clientId!);
      if (!winner) throw new Error('a ticket insert stored nothing and no ticket has its clientId');
      return winner;
    },

    async listTickets(userId: string, open: boolean): Promise<Ticket[]> {
      return (await repository.listTicketsOfUser(userId, open)).map(toTicketDto);
    },

    async getTicketWithMessages(userId: string, ticketId: string) {
      const ticket = await getOwnTicket(userId, ticketId);
      const messages = await repository.listMessages(ticket.id, 0, { notes: false });
      return { ticket: toTicketDto(ticket), messages: messages.map((m) => toMessageDto(m, userId)) };
    },

    async listMessages(userId: string, ticketId: string, afterId = 0): Promise<Message[]> {
      const ticket = await getOwnTicket(userId, ticketId);
      return (await repository.listMessages(ticket.id, afterId, { notes: false })).map((m) => toMessageDto(m, userId));
    },

    async reply(
      userId: string,
      ticketId: string,
      input: { messageBody: string; clientId?: string; attachmentIds?: string[] },
    ): Promise<Message> {
      if (!isUuid(ticketId)) throw ticketMissing();
      const stored = await storeMessage({
        ticketId,
        authorId: userId,
        ownerId: userId,
        admin: false,
        body: input.messageBody,
        clientId: input.clientId,
        attachmentIds: input.attachmentIds,
      });
      return toMessageDto(stored, userId);
    },

    /**
     * The owner's page saw these answers: only this report, never a stream's delivery, keeps an
     * answer out of the owner's mail (docs/decisions/135-seen-means-seen.md).
     */
    async seen(userId: string, ticketId: string, messageIds: number[]): Promise<{ seenUpTo: number }> {
      const seenUpTo = isUuid(ticketId) ? await repository.markOwnerSeen(ticketId, userId, messageIds) : null;
      if (seenUpTo === null) throw ticketMissing();
      return { seenUpTo };
    },

    /** The owner rates their closed ticket: once, then changeable for 7 days. */
    async rate(userId: string, ticketId: string, input: { good: boolean; comment: string | null }): Promise<Ticket> {
      if (!isUuid(ticketId)) throw ticketMissing();
      if (await repository.rate(ticketId, userId, input.good, input.comment)) {
        const ticket = await repository.findTicket(ticketId, userId);
        if (ticket) return toTicketDto(ticket);
      }
      const ticket = await repository.findTicket(ticketId, userId);
      if (!ticket) throw ticketMissing();
      throw new AppError('ABORTED', ticket.open ? DESK_TEXT.rateOnlyClosed : DESK_TEXT.ratingLocked);
    },

    // What the desk (modules/desk) reads and writes of tickets and messages, through this service:
    // the same statements the owner's side uses (replies only while open, one close at a time).
    storeMessage,
    listAdminTickets: (filter: Parameters<SupportRepository['listAdminTickets']>[0]) =>
      repository.listAdminTickets(filter),
    /** A ticket's thread for the console, notes included. */
    listThread: (ticketId: string) => repository.listMessages(ticketId, 0, { notes: true }),
    findMessageByClientId: (ticketId: string, clientId: string, authorId: string) =>
      repository.findMessageByClientId(ticketId, clientId, authorId),
    setOpen: (ticketId: string, open: boolean, seenVersion?: number) => repository.setOpen(ticketId, open, seenVersion),
  };
}

export type SupportService = ReturnType<typeof createSupportService>;
