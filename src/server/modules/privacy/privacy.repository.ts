import { and, asc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { AppDatabase } from '../../db/connection.ts';
import {
  auditLog,
  companies,
  incidentClaims,
  notificationOptOuts,
  sessions,
  supportTickets,
  ticketAttachments,
  ticketMessages,
  ticketRatings,
  users,
} from '../../db/schema.ts';

/**
 * Reads everything held about one person, for their data export (docs/data-export.md). It reads
 * other modules' tables on purpose and never writes them: the export is the one place that must
 * see all of a person's data at once. Secrets (password hash, token hashes) and internal notes are
 * never selected, nor a claim's traveller (who they are, what they were told and answered) or who
 * on the team decided it: those are other people's data.
 */
export function createPrivacyRepository(db: AppDatabase) {
  return {
    /** All of it, read in one repeatable-read snapshot so the parts agree with each other. */
    async collect(userId: string) {
      return db.transaction(
        async (tx) => {
          const [account] = await tx
            .select({
              email: users.email,
              name: users.name,
              emailVerifiedAt: users.emailVerifiedAt,
              role: users.role,
              createdAt: users.createdAt,
              disabledAt: users.disabledAt,
            })
            .from(users)
            .where(eq(users.id, userId));
          if (!account) return null;
          const sessionRows = await tx
            .select({
              createdAt: sessions.createdAt,
              lastSeenAt: sessions.lastSeenAt,
              expiresAt: sessions.expiresAt,
              userAgent: sessions.userAgent,
              ipPrefix: sessions.ipPrefix,
            })
            .from(sessions)
            .where(eq(sessions.userId, userId))
            .orderBy(asc(sessions.createdAt));
          const optOuts = await tx
            .select({ kind: notificationOptOuts.kind, at: notificationOptOuts.at })
            .from(notificationOptOuts)
            .where(eq(notificationOptOuts.userId, userId))
            .orderBy(asc(notificationOptOuts.kind));
          const tickets = await tx
            .select({
              id: supportTickets.id,
              ticketNo: supportTickets.ticketNo,
              reason: supportTickets.reason,
              open: supportTickets.open,
              createdAt: supportTickets.creationDate,
              closedAt: supportTickets.closedAt,
              good: ticketRatings.good,
              comment: ticketRatings.comment,
              ratedAt: ticketRatings.ratedAt,
            })
            .from(supportTickets)
            .leftJoin(ticketRatings, eq(ticketRatings.ticketId, supportTickets.id))
            .where(eq(supportTickets.userId, userId))
            .orderBy(asc(supportTickets.ticketNo));
          const ticketIds = tickets.map((t) => t.id);
          // Every message the person can see on their tickets: never internal notes.
          const messages = ticketIds.length
            ? await tx
                .select({
                  id: ticketMessages.id,
                  ticketId: ticketMessages.ticketId,
                  at: ticketMessages.timestamp,
                  admin: ticketMessages.admin,
                  systemEvent: ticketMessages.systemEvent,
                  text: ticketMessages.messageBody,
                })
                .from(ticketMessages)
                .where(and(inArray(ticketMessages.ticketId, ticketIds), eq(ticketMessages.internal, false)))
                .orderBy(asc(ticketMessages.id))
            : [];
          const files = ticketIds.length
            ? await tx
                .select({
                  id: ticketAttachments.id,
                  messageId: ticketAttachments.messageId,
                  name: ticketAttachments.name,
                  kind: ticketAttachments.kind,
                  size: ticketAttachments.size,
                  sentAt: ticketAttachments.createdAt,
                })
                .from(ticketAttachments)
                .innerJoin(ticketMessages, eq(ticketMessages.id, ticketAttachments.messageId))
                .where(and(inArray(ticketAttachments.ticketId, ticketIds), eq(ticketMessages.internal, false)))
                .orderBy(asc(ticketAttachments.createdAt), asc(ticketAttachments.id))
            : [];
          // The claims of their tickets, as they made them and as they were decided and appealed.
          const claims = ticketIds.length
            ? await tx
                .select({
                  ticketId: incidentClaims.ticketId,
                  kind: incidentClaims.kind,
                  deliveryReference: incidentClaims.deliveryReference,
                  itemValueCents: incidentClaims.itemValueCents,
                  deliveredOn: incidentClaims.deliveredOn,
                  state: incidentClaims.state,
                  createdAt: incidentClaims.createdAt,
                  outcome: incidentClaims.outcome,
                  amountCents: incidentClaims.amountCents,
                  decisionReason: incidentClaims.decisionReason,
                  decidedAt: incidentClaims.decidedAt,
                  appealReason: incidentClaims.appealReason,
                  appealedAt: incidentClaims.appealedAt,
                })
                .from(incidentClaims)
                .where(inArray(incidentClaims.ticketId, ticketIds))
            : [];
          const applications = await tx
            .select({
              companyName: companies.companyName,
              address: companies.address,
              street: companies.street,
              phoneNumber: companies.phoneNumber,
              contactPersonName: companies.contactPersonName,
              contactPersonJobTitle: companies.contactPersonJobTitle,
              contactPersonPhoneNumber: companies.contactPersonPhoneNumber,
              contactPersonEmail: companies.contactPersonEmail,
              licenceFileKept: isNotNull(companies.commercialLicenseKey),
              verified: companies.verified,
              isBanned: companies.isBanned,
              rejectionReason: companies.rejectionReason,
              createdAt: companies.createdAt,
              lastUpdated: companies.lastUpdated,
            })
            .from(companies)
            .where(sql`lower(${companies.contactPersonEmail}) = lower(${account.email})`)
            .orderBy(asc(companies.createdAt));
          const audit = await tx
            .select({
              at: auditLog.at,
              action: auditLog.action,
              actorId: auditLog.actorId,
              targetType: auditLog.targetType,
              targetId: auditLog.targetId,
              details: auditLog.details,
            })
            .from(auditLog)
            .where(
              or(and(eq(auditLog.targetType, 'user'), eq(auditLog.targetId, userId)), eq(auditLog.actorId, userId)),
            )
            .orderBy(asc(auditLog.at), asc(auditLog.id));
          return { account, sessions: sessionRows, optOuts, tickets, messages, files, claims, applications, audit };
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
    },
  };
}

export type PrivacyRepository = ReturnType<typeof createPrivacyRepository>;
export type CollectedData = NonNullable<Awaited<ReturnType<PrivacyRepository['collect']>>>;
