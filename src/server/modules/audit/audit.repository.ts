import { and, desc, eq, lt } from 'drizzle-orm';
import { type AppDatabase } from '../../db/connection.ts';
import { auditLog } from '../../db/schema.ts';

/** The append-only audit log (docs/design.md §3): rows are inserted, never updated or deleted by the app. */
export interface AuditRow {
  id: number;
  at: Date;
  actorEmail: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  details: Record<string, unknown> | null;
}

const columns = {
  id: auditLog.id,
  at: auditLog.at,
  actorEmail: auditLog.actorEmail,
  action: auditLog.action,
  targetType: auditLog.targetType,
  targetId: auditLog.targetId,
  details: auditLog.details,
};

export function createAuditRepository(db: AppDatabase) {
  return {
    async insert(entry: {
      actorId: string;
      actorEmail: string;
      action: string;
      targetType: string;
      targetId: string | null;
      details: Record<string, unknown> | null;
    }): Promise<void> {
      await db.insert(auditLog).values({
        actorId: entry.actorId,
        actorEmail: entry.actorEmail,
        action: entry.action,
        targetType: entry.targetType,
        targetId: entry.targetId,
        details: entry.details,
      });
    },

    /** Newest first; `before` pages back by id, which rises with commit order closely enough for a log view. */
    async list(filter: {
      before?: number;
      targetType?: string;
      targetId?: string;
      limit: number;
    }): Promise<AuditRow[]> {
      const rows = await db
        .select(columns)
        .from(auditLog)
        .where(
          and(
            filter.before == null ? undefined : lt(auditLog.id, filter.before),
            filter.targetType == null ? undefined : eq(auditLog.targetType, filter.targetType),
            filter.targetId == null ? undefined : eq(auditLog.targetId, filter.targetId),
          ),
        )
        .orderBy(desc(auditLog.id))
        .limit(filter.limit);
      // jsonb comes back parsed whichever driver is underneath (the column maps it).
      return rows.map((r) => ({ ...r, details: r.details as Record<string, unknown> | null }));
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
