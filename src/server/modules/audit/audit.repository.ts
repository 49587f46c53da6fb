import { and, asc, desc, eq, gte, isNotNull, lt, notLike, sql } from 'drizzle-orm';
import { type AppDatabase } from '../../db/connection.ts';
import { auditLog, supportTickets } from '../../db/schema.ts';
import { nzDayStart } from '../../db/sql.ts';

/** The append-only audit log (docs/design.md §3): rows are inserted, never updated or deleted by the app. */
export interface AuditRow {
  id: number;
  at: Date;
  actorEmail: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  details: Record<string, unknown> | null;
  /** The number of the ticket a posted held mail went to (its details name the ticket by id only). */
  ticketNo: number | null;
}

/** What the log can be narrowed to; days are New Zealand calendar days ('YYYY-MM-DD'). */
export interface AuditFilter {
  before?: number;
  targetType?: string;
  targetId?: string;
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
}

const columns = {
  id: auditLog.id,
  at: auditLog.at,
  actorEmail: auditLog.actorEmail,
  action: auditLog.action,
  targetType: auditLog.targetType,
  targetId: auditLog.targetId,
  details: auditLog.details,
  ticketNo: supportTickets.ticketNo,
};

export function createAuditRepository(db: AppDatabase) {
  return {
    /** Entries in one statement (a bulk action's, one per ticket). */
    async insert(
      entries: ReadonlyArray<{
        actorId: string | null;
        actorEmail: string;
        action: string;
        targetType: string;
        targetId: string | null;
        details: Record<string, unknown> | null;
      }>,
    ): Promise<void> {
      if (entries.length === 0) return;
      await db.insert(auditLog).values(
        entries.map((entry) => ({
          actorId: entry.actorId,
          actorEmail: entry.actorEmail,
          action: entry.action,
          targetType: entry.targetType,
          targetId: entry.targetId,
          details: entry.details,
        })),
      );
    },

    /** Newest first; `before` pages back by id, which rises with commit order closely enough for a log view. */
    async list(filter: AuditFilter & { limit: number }): Promise<AuditRow[]> {
      const rows = await db
        .select(columns)
        .from(auditLog)
        .leftJoin(
          supportTickets,
          and(
            eq(auditLog.action, 'mail.post'),
            eq(sql`${supportTickets.id}::text`, sql`${auditLog.details}->>'ticketId'`),
          ),
        )
        .where(
          and(
            filter.before == null ? undefined : lt(auditLog.id, filter.before),
            filter.targetType == null ? undefined : eq(auditLog.targetType, filter.targetType),
            filter.targetId == null ? undefined : eq(auditLog.targetId, filter.targetId),
            filter.actor == null ? undefined : eq(sql`lower(${auditLog.actorEmail})`, filter.actor.toLowerCase()),
            filter.action == null ? undefined : eq(auditLog.action, filter.action),
            filter.from == null ? undefined : gte(auditLog.at, nzDayStart(filter.from)),
            filter.to == null ? undefined : lt(auditLog.at, nzDayStart(filter.to, 1)),
          ),
        )
        .orderBy(desc(auditLog.id))
        .limit(filter.limit);
      // jsonb comes back parsed whichever driver is underneath (the column maps it).
      return rows.map((r) => ({ ...r, details: r.details as Record<string, unknown> | null }));
    },

    /**
     * The admins who have acted, by the email the log copied, for the console's person filter. A
     * person's own requests (account.*, such as asking to delete their account) are not console
     * work, so their authors are not offered (the filter still finds them by address).
     */
    async actors(): Promise<string[]> {
      const rows = await db
        .selectDistinct({ email: auditLog.actorEmail })
        .from(auditLog)
        .where(and(isNotNull(auditLog.actorEmail), notLike(auditLog.action, 'account.%')))
        .orderBy(asc(auditLog.actorEmail));
      return rows.map((r) => r.email!);
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
