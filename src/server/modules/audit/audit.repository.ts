import { sql } from 'drizzle-orm';
import { type AppDatabase } from '../../db/connection.ts';
import { queryRows } from '../../db/sql.ts';

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

type RawAudit = {
  id: unknown;
  at: unknown;
  actor_email: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  details: unknown;
};

const toAudit = (r: RawAudit): AuditRow => ({
  id: Number(r.id),
  at: new Date(r.at as string),
  actorEmail: r.actor_email,
  action: r.action,
  targetType: r.target_type,
  targetId: r.target_id,
  // node-postgres parses jsonb; PGlite may hand back the text.
  details: (typeof r.details === 'string' ? JSON.parse(r.details) : r.details) as Record<string, unknown> | null,
});

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
      await db.execute(sql`
        insert into audit_log (actor_id, actor_email, action, target_type, target_id, details)
        values (${entry.actorId}, ${entry.actorEmail}, ${entry.action}, ${entry.targetType}, ${entry.targetId},
                ${entry.details === null ? null : JSON.stringify(entry.details)}::jsonb)`);
    },

    /** Newest first; `before` pages back by id, which rises with commit order closely enough for a log view. */
    async list(filter: {
      before?: number;
      targetType?: string;
      targetId?: string;
      limit: number;
    }): Promise<AuditRow[]> {
      const rows = await queryRows<RawAudit>(
        db,
        sql`select id, at, actor_email, action, target_type, target_id, details
            from audit_log
            where (${filter.before ?? null}::bigint is null or id < ${filter.before ?? null}::bigint)
              and (${filter.targetType ?? null}::text is null or target_type = ${filter.targetType ?? null}::text)
              and (${filter.targetId ?? null}::text is null or target_id = ${filter.targetId ?? null}::text)
            order by id desc
            limit ${filter.limit}`,
      );
      return rows.map(toAudit);
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
