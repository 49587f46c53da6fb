import { and, eq, isNull, sql } from 'drizzle-orm';
import { CLAIM_TEXT } from '../../../contracts/claims.ts';
import type { IncidentInput } from '../../../contracts/claims.schemas.ts';
import type { CompanyStatus } from '../../../contracts/partner-review.ts';
import { INTEGRATION_TEXT as T } from '../../../contracts/integrations.ts';
import type { Message, Ticket } from '../../../contracts/support.schemas.ts';
import { SUPPORT_TEXT, type TICKET_REASON_VALUES } from '../../../contracts/support.ts';
import type { AppDatabase } from '../../db/connection.ts';
import { isUuid } from '../../db/sql.ts';
import { supportTickets, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { KeyCaller } from '../../plugins/access.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { PartnersModule } from '../partners/index.ts';
import type { SupportService } from '../support/support.service.ts';
import { keyActor } from './keys.service.ts';

/** The most partners one answer lists. */
const PARTNERS_MAX = 1000;

const userMissing = () => new AppError('NOT_FOUND', T.userMissing);
const ticketMissing = () => new AppError('NOT_FOUND', SUPPORT_TEXT.ticketMissing);

type AppUser = { userEmail?: string | undefined; userId?: string | undefined };

/**
 * What the Bagspace app does with its key (docs/integrations.md): it opens tickets for its users and
 * posts their messages through the same service the website uses (limits, retries by clientId,
 * replies only while open), so the user sees each ticket here as their own.
 */
export function createAppService(options: {
  db: AppDatabase;
  support: SupportService;
  partners: Pick<PartnersModule, 'statuses'>;
  audit: AuditService;
  /** The website's address, for the Contact us link a damaged item's claim is sent to. */
  site: { publicBaseUrl: string };
}) {
  const { db, support, audit } = options;

  /** An enabled account, by email (any case) or id. */
  async function userOf(who: AppUser): Promise<{ id: string; email: string }> {
    if (who.userId !== undefined && !isUuid(who.userId)) throw userMissing();
    const [row] = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(
        and(
          who.userId !== undefined ? eq(users.id, who.userId) : eq(users.email, (who.userEmail ?? '').toLowerCase()),
          isNull(users.disabledAt),
        ),
      );
    if (!row) throw userMissing();
    return row;
  }

  async function ownerOf(
    ticketId: string,
  ): Promise<{ userId: string; ticketNo: number; deliveryReference: string | null }> {
    const [row] = isUuid(ticketId)
      ? await db
          .select({
            userId: supportTickets.userId,
            ticketNo: supportTickets.ticketNo,
            deliveryReference: supportTickets.deliveryReference,
          })
          .from(supportTickets)
          .where(eq(supportTickets.id, ticketId))
      : [];
    if (!row) throw ticketMissing();
    return row;
  }

  return {
    async openTicket(
      key: KeyCaller,
      input: AppUser & {
        reason: (typeof TICKET_REASON_VALUES)[number];
        message: string;
        /** Empty is none (the schema makes it null). */
        deliveryReference?: string | null | undefined;
        clientId?: string | undefined;
        /** The claim the incident's fields open (claims.schemas.ts readIncident), or none. */
        incident: IncidentInput | null;
      },
    ): Promise<{ ticketId: string; ticketNo: number }> {
      const user = await userOf(input);
      // A damaged item's claim needs a photo (decision 152) and this API takes no files: rather than
      // a claim without its evidence, the sender is sent to the form that takes them, with the
      // reason and the delivery chosen.
      if (input.incident?.kind === 'damaged') {
        const link = `${options.site.publicBaseUrl}/support/create-ticket?${new URLSearchParams({
          reason: 'Incident',
          delivery: input.incident.deliveryReference,
        })}`;
        const words = CLAIM_TEXT.photoRequiredOnPage(link);
        throw new AppError('INVALID_ARGUMENT', words, { fields: { claimKind: words } });
      }
      const created = await support.createTicket(user.id, {
        reason: input.reason,
        message: input.message,
        clientId: input.clientId,
        deliveryReference: input.deliveryReference ?? undefined,
        incident: input.incident,
      });
      await audit.record({
        actor: keyActor(key),
        action: 'app.ticket.open',
        targetType: 'ticket',
        targetId: created.ticketId,
        details: {
          ticketNo: created.ticketNo,
          user: user.email,
          deliveryReference: input.deliveryReference ?? null,
          ...(input.incident ? { claimKind: input.incident.kind } : {}),
        },
      });
      return created;
    },

    async postMessage(
      key: KeyCaller,
      ticketId: string,
      input: { messageBody: string; clientId?: string | undefined },
    ): Promise<Message> {
      const { userId, ticketNo } = await ownerOf(ticketId);
      const message = await support.reply(userId, ticketId, {
        messageBody: input.messageBody,
        ...(input.clientId ? { clientId: input.clientId } : {}),
      });
      await audit.record({
        actor: keyActor(key),
        action: 'app.ticket.message',
        targetType: 'ticket',
        targetId: ticketId,
        details: { ticketNo, messageId: message.id },
      });
      return message;
    },

    async tickets(who: AppUser, open: boolean | undefined) {
      const user = await userOf(who);
      const lists = await Promise.all(
        (open === undefined ? [true, false] : [open]).map((value) => support.listTickets(user.id, value)),
      );
      const tickets = lists.flat().sort((a, b) => b.lastMessage.localeCompare(a.lastMessage));
      const references = new Map(
        (
          await db
            .select({ id: supportTickets.id, deliveryReference: supportTickets.deliveryReference })
            .from(supportTickets)
            .where(and(eq(supportTickets.userId, user.id), sql`${supportTickets.deliveryReference} is not null`))
        ).map((row) => [row.id, row.deliveryReference]),
      );
      return tickets.map((ticket: Ticket) => ({
        ...ticket,
        userId: user.id,
        deliveryReference: references.get(ticket.id) ?? null,
      }));
    },

    async ticket(ticketId: string) {
      const { userId, deliveryReference } = await ownerOf(ticketId);
      const { ticket, messages } = await support.getTicketWithMessages(userId, ticketId);
      return { ticket: { ...ticket, userId, deliveryReference }, messages };
    },

    async partners(status: CompanyStatus | undefined) {
      const rows = await options.partners.statuses(status, PARTNERS_MAX);
      return rows.map((row) => ({ ...row, lastUpdated: row.lastUpdated.toISOString() }));
    },
  };
}

export type AppService = ReturnType<typeof createAppService>;
