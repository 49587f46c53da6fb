import { DESK_TEXT } from '../../../contracts/desk.ts';
import type { Agent, DeskFigures, FirstSteps } from '../../../contracts/desk.schemas.ts';
import { type AdminMessage } from '../../../contracts/admin.ts';
import { SUPPORT_TEXT, type WaitingOn } from '../../../contracts/support.ts';
import type { AdminSearchResult, AdminTicket } from '../../../contracts/support.schemas.ts';
import { isUuid } from '../../db/sql.ts';
import type { Clock } from '../../clock.ts';
import { AppError } from '../../errors.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import { addDays, instantOf, newZealandDate } from '../../calendar/business-calendar.ts';
import { type SupportService, toAdminMessageDto, toAdminTicketDto } from '../support/support.service.ts';
import type { DeliveryCard } from '../../../contracts/delivery-card.schemas.ts';
import type { DeskRepository } from './desk.repository.ts';
import type { DeliveryContext } from './delivery-context.ts';
import type { SearchRepository } from './desk.search.repository.ts';

const ticketMissing = () => new AppError('NOT_FOUND', SUPPORT_TEXT.ticketMissing);
/** A staff write against a version the ticket has moved on from (decision 140): an answer or a note, or an action. */
const stale = () => new AppError('FAILED_PRECONDITION', DESK_TEXT.stale);
const staleAction = () => new AppError('FAILED_PRECONDITION', DESK_TEXT.staleAction);

/** The inbox's due filter as an instant range (after, by]: late is up to now; today, from now to the end of the New Zealand day. */
function dueRange(due: 'late' | 'today', now: Date): { after: Date | null; by: Date } {
  if (due === 'late') return { after: null, by: now };
  return { after: now, by: instantOf(addDays(newZealandDate(now), 1), 0) };
}

/**
 * The support desk, the team's side of tickets: the inbox, a ticket's thread, answers, close and
 * reopen, internal notes, assignment, the privacy and keep-for-record marks, search and the
 * inbox's figures. Tickets and messages are read and written through the support module's service
 * (the same statements the owner's side uses); every change is written to the audit log.
 */
export function createDeskService(options: {
  /** The support module's service: tickets and messages as both sides share them. */
  tickets: SupportService;
  desk: DeskRepository;
  search: SearchRepository;
  audit: AuditService;
  clock: Clock;
  /** What the app says of a delivery (delivery-context.ts); null without DELIVERY_CONTEXT_URL. */
  delivery?: DeliveryContext | null;
}) {
  const { tickets, desk, audit, clock } = options;

  async function adminTicket(ticketId: string): Promise<AdminTicket> {
    return toAdminTicketDto(await tickets.getAnyTicket(ticketId), clock.now());
  }

  return {
    /** One ticket as the team sees it (its version, assignee and labels among it). */
    adminTicket,

    // The inbox and a ticket's thread, answers, close and reopen (docs/design.md §4 map).
    async listAllTickets(
      adminId: string,
      filter: {
        open: boolean;
        q?: string;
        waiting?: WaitingOn;
        assigned?: 'me' | 'none';
        privacy?: 'due' | 'overdue';
        sort?: 'recent' | 'due';
        due?: 'late' | 'today';
        thirdParty?: 'waiting';
        label?: string;
      },
    ): Promise<{ tickets: AdminTicket[]; now: string }> {
      const assignee = filter.assigned === 'me' ? adminId : filter.assigned;
      const now = clock.now();
      const rows = await tickets.listAdminTickets({
        open: filter.open,
        search: filter.q,
        waiting: filter.waiting,
        assignee,
        privacy: filter.privacy !== undefined,
        sortDue: filter.sort === 'due',
        thirdParty: filter.thirdParty === 'waiting',
        label: filter.label,
        ...(filter.due ? { due: dueRange(filter.due, now) } : {}),
      });
      const listed = rows.map((row) => toAdminTicketDto(row, now));
      return {
        tickets: filter.privacy === 'overdue' ? listed.filter((ticket) => ticket.overdue) : listed,
        now: now.toISOString(),
      };
    },

    async getAnyTicketWithMessages(adminId: string, ticketId: string) {
      const ticket = await tickets.getAnyTicket(ticketId);
      const messages = await tickets.listThread(ticket.id);
      return {
        ticket: toAdminTicketDto(ticket, clock.now()),
        messages: messages.map((m) => toAdminMessageDto(m, adminId)),
        now: clock.now().toISOString(),
      };
    },

    async adminReply(
      actor: AuditActor,
      ticketId: string,
      input: { messageBody: string; clientId?: string; attachmentIds?: string[]; seenVersion?: number },
    ) {
      if (!isUuid(ticketId)) throw ticketMissing();
      const stored = await tickets.storeMessage({
        ticketId,
        authorId: actor.userId,
        ownerId: null,
        admin: true,
        body: input.messageBody,
        clientId: input.clientId,
        attachmentIds: input.attachmentIds,
        seenVersion: input.seenVersion,
        stale,
      });
      const message = toAdminMessageDto(stored, actor.userId);
      const ticket = await tickets.getAnyTicket(ticketId);
      await audit.record({
        actor,
        action: 'ticket.answer',
        targetType: 'ticket',
        targetId: ticket.id,
        details: { ticketNo: ticket.ticketNo, userEmail: ticket.userEmail, messageId: message.id },
      });
      return message;
    },

    async setOpen(actor: AuditActor, ticketId: string, open: boolean, seenVersion?: number): Promise<AdminTicket> {
      if (!isUuid(ticketId)) throw ticketMissing();
      const changed = await tickets.setOpen(ticketId, open, seenVersion);
      if (!changed) throw ticketMissing();
      if (changed === 'stale') throw staleAction();
      const ticket = toAdminTicketDto(await tickets.getAnyTicket(ticketId), clock.now());
      await audit.record({
        actor,
        action: open ? 'ticket.reopen' : 'ticket.close',
        targetType: 'ticket',
        targetId: ticket.id,
        details: { ticketNo: ticket.ticketNo, userEmail: ticket.userEmail },
      });
      return ticket;
    },

    /** An admins-only note, on an open or closed ticket. A retried clientId answers with the first note. */
    async addNote(
      actor: AuditActor,
      ticketId: string,
      input: { messageBody: string; clientId?: string; seenVersion?: number },
    ): Promise<AdminMessage> {
      const ticket = await adminTicket(ticketId);
      const clientId = input.clientId ?? null;
      const stored =
        (await desk.insertNote({
          ticketId: ticket.id,
          authorId: actor.userId,
          body: input.messageBody,
          clientId,
          seenVersion: input.seenVersion,
        })) ?? (clientId ? await tickets.findMessageByClientId(ticket.id, clientId, actor.userId) : null);
      if (!stored && input.seenVersion !== undefined && (await adminTicket(ticket.id)).version !== input.seenVersion)
        throw stale();
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
    async assign(
      actor: AuditActor,
      ticketId: string,
      assignee: string | null,
      seenVersion?: number,
    ): Promise<AdminTicket> {
      const before = await adminTicket(ticketId);
      const to = assignee === 'me' ? actor.userId : assignee;
      const assigned = await desk.assign(before.id, to, seenVersion);
      if (assigned === 'stale') throw staleAction();
      if (!assigned) throw new AppError('INVALID_ARGUMENT', DESK_TEXT.assigneeMissing);
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

    /** Gives a ticket the reference of its delivery, corrects it, or (null) takes it off; audited with before and now. */
    async setDeliveryReference(actor: AuditActor, ticketId: string, reference: string | null): Promise<AdminTicket> {
      if (!isUuid(ticketId)) throw ticketMissing();
      const changed = await desk.setDeliveryReference(ticketId, reference);
      if (!changed) throw ticketMissing();
      const ticket = await adminTicket(ticketId);
      if (changed !== 'same')
        await audit.record({
          actor,
          action: 'ticket.delivery-reference',
          targetType: 'ticket',
          targetId: ticket.id,
          details: { ticketNo: ticket.ticketNo, before: changed.before, now: reference },
        });
      return ticket;
    },

    /** The ticket's delivery card: what the app says of its reference, kept 60 s (delivery-context.ts). */
    async deliveryCard(ticketId: string): Promise<DeliveryCard> {
      const ticket = await adminTicket(ticketId);
      if (!options.delivery) return { state: 'off' };
      if (!ticket.deliveryReference) return { state: 'none' };
      return options.delivery.lookUp(ticket.deliveryReference, ticket.id);
    },

    async agents(): Promise<Agent[]> {
      return desk.listAgents();
    },

    /** Tickets matching by number, user email or message text, best first, each with its best words. */
    async search(q: string): Promise<AdminSearchResult[]> {
      const hits = await options.search.search(q);
      if (hits.length === 0) return [];
      const byId = new Map(
        (await tickets.listAdminTickets({ ticketIds: hits.map((hit) => hit.ticketId) })).map((row) => [row.id, row]),
      );
      return hits.flatMap((hit) => {
        const row = byId.get(hit.ticketId);
        return row ? [{ ticket: toAdminTicketDto(row, clock.now()), snippet: hit.snippet }] : [];
      });
    },

    async figures(): Promise<DeskFigures> {
      return desk.figures();
    },

    async firstSteps(): Promise<FirstSteps> {
      return desk.firstSteps();
    },
  };
}

export type DeskService = ReturnType<typeof createDeskService>;
