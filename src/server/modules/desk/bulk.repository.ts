import { holdsPermission } from '../../db/staff.ts';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AppDatabase } from '../../db/connection.ts';
import { pgArray, queryRows } from '../../db/sql.ts';
import { bulkActions } from '../../db/schema.ts';
import type { BulkAction } from '../../../contracts/bulk.ts';

/** What a bulk action did to one ticket, and what the ticket was before: enough to undo it. */
export interface BulkItem {
  ticketId: string;
  ticketNo: number;
  open: boolean;
  assignedTo: string | null;
  /** The label the action added (label actions only). */
  labelId: string | null;
  /** A macro's (decision 145): the labels it added, and the note it wrote. */
  labelIds?: string[];
  noteId?: number | null;
  /** The ticket's version right after the action: an undo finds it there, or someone changed it since. */
  versionAfter: number;
}

/** A ticket as a bulk action finds it, its row locked for the action's transaction. */
export interface LockedTicket {
  id: string;
  ticketNo: number;
  open: boolean;
  assignedTo: string | null;
  version: number;
  userEmail: string;
  labels: Array<{ id: string; name: string }>;
}

export function createBulkRepository(db: AppDatabase) {
  return {
    /**
     * Locks the tickets' rows (in id order, so two bulk actions over the same tickets queue rather than
     * deadlock; NO KEY UPDATE, as a ticket's own page takes) and reads what a bulk action decides on.
     * The ids must be uuids. Tickets that do not exist are not in the map.
     */
    async lockTickets(ticketIds: readonly string[]): Promise<Map<string, LockedTicket>> {
      if (ticketIds.length === 0) return new Map();
      const rows = await queryRows<{
        id: string;
        ticket_no: unknown;
        open: boolean;
        assigned_to: string | null;
        version: unknown;
        user_email: string;
        labels: Array<{ id: string; name: string }>;
      }>(
        db,
        sql`
        select t.id, t.ticket_no, t.open, t.assigned_to, t.version, u.email as user_email,
          coalesce((select json_agg(json_build_object('id', l.id, 'name', l.name) order by lower(l.name))
                    from ticket_labels tl join labels l on l.id = tl.label_id
                    where tl.ticket_id = t.id), '[]'::json) as labels
        from support_tickets t left join users u on u.id = t.user_id
        where t.id = any(${pgArray(ticketIds)}::uuid[])
        order by t.id
        for no key update of t`,
      );
      return new Map(
        rows.map((row) => [
          row.id,
          {
            id: row.id,
            ticketNo: Number(row.ticket_no),
            open: row.open,
            assignedTo: row.assigned_to,
            version: Number(row.version),
            userEmail: row.user_email,
            labels: row.labels,
          },
        ]),
      );
    },

    /** An active admin's email (null when the id is no active admin's): what a bulk assign's audit names. */
    async adminEmail(userId: string): Promise<string | null> {
      const [row] = await queryRows<{ email: string }>(
        db,
        sql`select email from users where id = ${userId}::uuid and ${holdsPermission(sql`${userId}::uuid`, 'tickets.write')}`,
      );
      return row?.email ?? null;
    },
    /** A label's name, null when there is no such label. */
    async labelName(labelId: string): Promise<string | null> {
      const [row] = await queryRows<{ name: string }>(db, sql`select name from labels where id = ${labelId}::uuid`);
      return row?.name ?? null;
    },

    async record(input: { actorId: string; action: BulkAction; detail: string | null; items: BulkItem[]; at: Date }) {
      const [row] = await db
        .insert(bulkActions)
        .values({
          actorId: input.actorId,
          action: input.action,
          detail: input.detail,
          items: input.items,
          createdAt: input.at,
        })
        .returning({ id: bulkActions.id, createdAt: bulkActions.createdAt });
      return row!;
    },

    /**
     * Claims the actor's last bulk action for its undo, once: only when it is their newest, not undone
     * yet, and made after `since`. Null when it is not.
     */
    async claimLast(actorId: string, bulkId: string, since: Date) {
      return db.transaction(async (tx) => {
        const [last] = await tx
          .select({ id: bulkActions.id })
          .from(bulkActions)
          .where(eq(bulkActions.actorId, actorId))
          .orderBy(desc(bulkActions.createdAt))
          .limit(1)
          .for('update');
        if (last?.id !== bulkId) return null;
        const [claimed] = await tx
          .update(bulkActions)
          .set({ undoneAt: new Date() })
          .where(and(eq(bulkActions.id, bulkId), isNull(bulkActions.undoneAt), gt(bulkActions.createdAt, since)))
          .returning({ action: bulkActions.action, detail: bulkActions.detail, items: bulkActions.items });
        return claimed
          ? { action: claimed.action as BulkAction, detail: claimed.detail, items: claimed.items as BulkItem[] }
          : null;
      });
    },
  };
}

export type BulkRepository = ReturnType<typeof createBulkRepository>;
