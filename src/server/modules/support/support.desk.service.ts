import { DESK_TEXT } from '../../../contracts/desk.ts';
import type { Agent, DeskFigures } from '../../../contracts/desk.schemas.ts';
import { type AdminMessage } from '../../../contracts/admin.ts';
import { SUPPORT_TEXT } from '../../../contracts/support.ts';
import type { AdminSearchResult, AdminTicket, Ticket } from '../../../contracts/support.schemas.ts';
import { isUuid } from '../../db/sql.ts';
import type { Clock } from '../../clock.ts';
import { AppError } from '../../errors.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import type { DeskRepository } from './support.desk.repository.ts';
import type { SearchRepository } from './support.search.repository.ts';
import type { SupportRepository } from './support.repository.ts';
import { toAdminMessageDto, toAdminTicketDto, toTicketDto } from './support.service.ts';

const ticketMissing = () => new AppError('NOT_FOUND', SUPPORT_TEXT.ticketMissing);

/**
 * The desk's tools: internal notes, assignment, the owner's rating and the inbox's figures. Notes
 * and assignments are written to the audit log like every admin change.
 */
export function createDeskService(options: {
  repository: SupportRepository;
  desk: DeskRepository;
  search: SearchRepository;
  audit: AuditService;
  clock: Clock;
}) {
  const { repository, desk, audit, clock } = options;

  async function adminTicket(ticketId: string): Promise<AdminTicket> {
    const ticket = isUuid(ticketId) ? await repository.findAdminTicket(ticketId) : null;
    if (!ticket) throw ticketMissing();
    return toAdminTicketDto(ticket, clock.now());
  }

  return {
    /** An admins-only note, on an open or closed ticket. A retried clientId answers with the first note. */
    async addNote(
      actor: AuditActor,
      ticketId: string,
      input: { messageBody: string; clientId?: string },
    ): Promise<AdminMessage> {
      const ticket = await adminTicket(ticketId);
      const clientId = input.clientId ?? null;
      const stored =
        (await desk.insertNote({
          ticketId: ticket.id,
          authorId: actor.userId,
          body: input.messageBody,
          clientId,
        })) ?? (clientId ? await repository.findMessageByClientId(ticket.id, clientId, actor.userId) : null);
      if (!stored) throw new AppError('ABORTED', SUPPORT_TEXT.replyFailed);
      await audit.record({
        actor,
        action: 'ticket.note',
        targetType: 'ticket',
        targetId: ticket.id,
        details: { ticketNo: ticket.ticketNo, messageId: stored.id },
      });
      return toAdminMessageDto(stored, actor.userId);
    },

    /** Assigns to the caller ('me'), another admin (their id), or nobody (null). */
    async assign(actor: AuditActor, ticketId: string, assignee: string | null): Promise<AdminTicket> {
      const before = await adminTicket(ticketId);
      const to = assignee === 'me' ? actor.userId : assignee;
      if (!(await desk.assign(before.id, to))) throw new AppError('INVALID_ARGUMENT', DESK_TEXT.assigneeMissing);
      const ticket = await adminTicket(before.id);
      await audit.record({
        actor,
        action: 'ticket.assign',
        targetType: 'ticket',
        targetId: ticket.id,
        details: { ticketNo: ticket.ticketNo, assignee: ticket.assignee?.email ?? null },
      });
      return ticket;
    },

    /** Marks a ticket a privacy request, or not (a Deactivation ticket always is one). */
    async setPrivacy(actor: AuditActor, ticketId: string, privacy: boolean): Promise<AdminTicket> {
      const before = await adminTicket(ticketId);
      if (!privacy && before.reason === 'Deactivation')
        throw new AppError('INVALID_ARGUMENT', DESK_TEXT.deactivationIsPrivacy);
      await desk.setPrivacyRequest(before.id, privacy);
      const ticket = await adminTicket(before.id);
      await audit.record({
        actor,
        action: 'ticket.privacy',
        targetType: 'ticket',
        targetId: ticket.id,
        details: { ticketNo: ticket.ticketNo, privacy, due: ticket.privacyDue },
      });
      return ticket;
    },

    /** Keeps a ticket's messages for the record when its owner's account is erased (docs/product.md §2.14), or not. */
    async setKeepForRecord(actor: AuditActor, ticketId: string, keep: boolean): Promise<AdminTicket> {
      const before = await adminTicket(ticketId);
      await desk.setKeepForRecord(before.id, keep);
      const ticket = await adminTicket(before.id);
      await audit.record({
        actor,
        action: 'ticket.keep-for-record',
        targetType: 'ticket',
        targetId: ticket.id,
        details: { ticketNo: ticket.ticketNo, keep },
      });
      return ticket;
    },

    async agents(): Promise<Agent[]> {
      return desk.listAgents();
    },

    /** The owner rates their closed ticket: once, then changeable for 7 days. */
    async rate(userId: string, ticketId: string, input: { good: boolean; comment: string | null }): Promise<Ticket> {
      if (!isUuid(ticketId)) throw ticketMissing();
      if (await desk.rate(ticketId, userId, input.good, input.comment)) {
        const ticket = await repository.findTicket(ticketId, userId);
        if (ticket) return toTicketDto(ticket);
      }
      const ticket = await repository.findTicket(ticketId, userId);
      if (!ticket) throw ticketMissing();
      throw new AppError('ABORTED', ticket.open ? DESK_TEXT.rateOnlyClosed : DESK_TEXT.ratingLocked);
    },

    /** Tickets matching by number, user email or message text, best first, each with its best words. */
    async search(q: string): Promise<AdminSearchResult[]> {
      const hits = await options.search.search(q);
      if (hits.length === 0) return [];
      const tickets = new Map(
        (await repository.listAdminTickets({ ticketIds: hits.map((hit) => hit.ticketId) })).map((row) => [row.id, row]),
      );
      return hits.flatMap((hit) => {
        const row = tickets.get(hit.ticketId);
        return row ? [{ ticket: toAdminTicketDto(row, clock.now()), snippet: hit.snippet }] : [];
      });
    },

    async figures(): Promise<DeskFigures> {
      return desk.figures();
    },
  };
}

export type DeskService = ReturnType<typeof createDeskService>;
