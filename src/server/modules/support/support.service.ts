import { type AdminTicket, type Message, SUPPORT_TEXT, type Ticket } from '../../../contracts/support.ts';
import { AppError } from '../../errors.ts';
import { isUuid } from '../../db/sql.ts';
import type { RateLimiter } from '../../security/rate-limiter.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import type { AdminTicketRow, MessageRow, SupportRepository, TicketRow } from './support.repository.ts';

export function toTicketDto(row: TicketRow): Ticket {
  return {
    id: row.id,
    ticketNo: row.ticketNo,
    reason: row.reason as Ticket['reason'],
    open: row.open,
    creationDate: row.creationDate,
    lastMessage: row.lastMessage,
  };
}

export function toAdminTicketDto(row: AdminTicketRow): AdminTicket {
  return { ...toTicketDto(row), userEmail: row.userEmail, unanswered: row.unanswered };
}

/** A message as one viewer sees it: "mine" is relative to them; user ids never leave the server. */
export function toMessageDto(row: MessageRow, viewerId: string): Message {
  return {
    id: row.id,
    messageBody: row.messageBody,
    timestamp: row.timestamp,
    admin: row.admin,
    mine: row.userId === viewerId,
  };
}

export function toAdminMessageDto(row: MessageRow, viewerId: string) {
  return { ...toMessageDto(row, viewerId), authorEmail: row.authorEmail };
}

const ticketMissing = () => new AppError('NOT_FOUND', SUPPORT_TEXT.ticketMissing);

export interface SupportServiceOptions {
  repository: SupportRepository;
  limiter: RateLimiter;
  ticketsPerUserPerHour: number;
  /** Admin answers, closes and reopens are written to the audit log. */
  audit: AuditService;
}

export function createSupportService({ repository, limiter, ticketsPerUserPerHour, audit }: SupportServiceOptions) {
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
  }): Promise<MessageRow> {
    const stored = await repository.insertMessage({ ...input, clientId: input.clientId ?? null });
    if (stored) return stored;
    // Nothing stored: a retry of a message we already have, a closed ticket, or no such ticket.
    if (input.clientId) {
      const earlier = await repository.findMessageByClientId(input.ticketId, input.clientId);
      if (earlier && (input.ownerId === null || (await repository.findTicket(input.ticketId, input.ownerId))))
        return earlier;
    }
    const ticket = await repository.findTicket(input.ticketId, input.ownerId);
    if (!ticket) throw ticketMissing();
    throw new AppError('ABORTED', SUPPORT_TEXT.replyRejected);
  }

  return {
    getOwnTicket,
    getAnyTicket,

    /** A retry with the same clientId answers with the ticket the first attempt created (DATA-05). */
    async createTicket(userId: string, input: { reason: string; message: string; clientId?: string | undefined }) {
      const clientId = input.clientId ?? null;
      const earlier = clientId ? await repository.findTicketByClientId(userId, clientId) : null;
      if (earlier) return earlier;
      await limiter.consume(
        { key: `tickets:user:${userId}`, limit: ticketsPerUserPerHour, windowMs: 60 * 60 * 1000 },
        SUPPORT_TEXT.tooManyTickets,
      );
      const created = await repository.createTicket(userId, input.reason, input.message, clientId);
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
      const messages = await repository.listMessages(ticket.id, 0);
      return { ticket: toTicketDto(ticket), messages: messages.map((m) => toMessageDto(m, userId)) };
    },

    async listMessages(userId: string, ticketId: string, afterId = 0): Promise<Message[]> {
      const ticket = await getOwnTicket(userId, ticketId);
      return (await repository.listMessages(ticket.id, afterId)).map((m) => toMessageDto(m, userId));
    },

    async reply(userId: string, ticketId: string, input: { messageBody: string; clientId?: string }): Promise<Message> {
      if (!isUuid(ticketId)) throw ticketMissing();
      const stored = await storeMessage({
        ticketId,
        authorId: userId,
        ownerId: userId,
        admin: false,
        body: input.messageBody,
        clientId: input.clientId,
      });
      return toMessageDto(stored, userId);
    },

    // Admin side (docs/design.md §4 map).
    async listAllTickets(filter: { open: boolean; q?: string }): Promise<AdminTicket[]> {
      return (await repository.listAdminTickets({ open: filter.open, search: filter.q })).map(toAdminTicketDto);
    },

    async getAnyTicketWithMessages(adminId: string, ticketId: string) {
      const ticket = await getAnyTicket(ticketId);
      const messages = await repository.listMessages(ticket.id, 0);
      return { ticket: toAdminTicketDto(ticket), messages: messages.map((m) => toAdminMessageDto(m, adminId)) };
    },

    async adminReply(actor: AuditActor, ticketId: string, input: { messageBody: string; clientId?: string }) {
      if (!isUuid(ticketId)) throw ticketMissing();
      const stored = await storeMessage({
        ticketId,
        authorId: actor.userId,
        ownerId: null,
        admin: true,
        body: input.messageBody,
        clientId: input.clientId,
      });
      const message = toAdminMessageDto(stored, actor.userId);
      const ticket = await getAnyTicket(ticketId);
      await audit.record({
        actor,
        action: 'ticket.answer',
        targetType: 'ticket',
        targetId: ticket.id,
        details: { ticketNo: ticket.ticketNo, userEmail: ticket.userEmail, messageId: message.id },
      });
      return message;
    },

    async setOpen(actor: AuditActor, ticketId: string, open: boolean): Promise<AdminTicket> {
      if (!isUuid(ticketId)) throw ticketMissing();
      const changed = await repository.setOpen(ticketId, open);
      if (!changed) throw ticketMissing();
      const ticket = toAdminTicketDto(await getAnyTicket(ticketId));
      await audit.record({
        actor,
        action: open ? 'ticket.reopen' : 'ticket.close',
        targetType: 'ticket',
        targetId: ticket.id,
        details: { ticketNo: ticket.ticketNo, userEmail: ticket.userEmail },
      });
      return ticket;
    },
  };
}

export type SupportService = ReturnType<typeof createSupportService>;
