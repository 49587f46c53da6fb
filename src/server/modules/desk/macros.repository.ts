import { sql } from 'drizzle-orm';
import type { AppDatabase } from '../../db/connection.ts';
import { pgArray, queryRows } from '../../db/sql.ts';
import { announceAfterCommit } from '../../realtime/event-bus.ts';

/**
 * What a macro (decision 145) reads and writes beyond the statements it shares with the console's own
 * buttons, each on the transaction it is given: the ticket locked as it was, the labels it adds or
 * takes back, the note an undo takes back.
 */
export function createMacrosRepository(db: AppDatabase) {
  return {
    /** The ticket as it is, locked until the transaction ends; null when there is none. */
    async lockTicket(ticketId: string) {
      const [row] = await queryRows<{
        id: string;
        ticket_no: unknown;
        open: boolean;
        assigned_to: string | null;
        version: unknown;
        labels: string[] | null;
      }>(
        db,
        sql`select t.id, t.ticket_no, t.open, t.assigned_to, t.version,
                   (select array_agg(label_id::text) from ticket_labels where ticket_id = t.id) as labels
            from support_tickets t where t.id = ${ticketId}::uuid and t.merged_into_id is null
            for no key update of t`,
      );
      return row
        ? {
            id: row.id,
            ticketNo: Number(row.ticket_no),
            open: row.open,
            assignedTo: row.assigned_to,
            version: Number(row.version),
            labelIds: row.labels ?? [],
          }
        : null;
    },

    async version(ticketId: string): Promise<number> {
      const [row] = await queryRows<{ version: unknown }>(
        db,
        sql`select version from support_tickets where id = ${ticketId}::uuid`,
      );
      return Number(row?.version ?? 0);
    },

    /** Adds the labels that still exist; returns the ids it added (those the ticket had are left). */
    async addLabels(ticketId: string, ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await queryRows<{ label_id: string }>(
        db,
        sql`insert into ticket_labels (ticket_id, label_id)
            select ${ticketId}::uuid, l.id from labels l where l.id = any(${pgArray(ids)}::uuid[])
            on conflict do nothing
            returning label_id`,
      );
      if (rows.length > 0) await announceAfterCommit(db, { type: 'ticket.updated', ticketId, userId: '' });
      return rows.map((row) => row.label_id);
    },

    async removeLabels(ticketId: string, ids: string[]): Promise<void> {
      if (ids.length === 0) return;
      await db.execute(
        sql`delete from ticket_labels where ticket_id = ${ticketId}::uuid and label_id = any(${pgArray(ids)}::uuid[])`,
      );
      await announceAfterCommit(db, { type: 'ticket.updated', ticketId, userId: '' });
    },

    /** Takes back a note a macro added (an undo): only an internal note of this ticket. */
    async removeNote(ticketId: string, messageId: number): Promise<void> {
      const removed = await queryRows<{ id: unknown }>(
        db,
        sql`delete from ticket_messages where id = ${messageId} and ticket_id = ${ticketId}::uuid and internal
            returning id`,
      );
      // The pages that show the thread read it again without the note.
      if (removed.length > 0) await announceAfterCommit(db, { type: 'ticket.reshaped', ticketId, userId: '' });
    },
  };
}
