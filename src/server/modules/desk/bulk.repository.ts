import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { AppDatabase } from '../../db/connection.ts';
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

export function createBulkRepository(db: AppDatabase) {
  return {
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
