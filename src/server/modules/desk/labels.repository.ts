import { sql } from 'drizzle-orm';
import type { AppDatabase } from '../../db/connection.ts';
import { pgArray, queryRows } from '../../db/sql.ts';
import { announceAfterCommit, EVENTS_CHANNEL } from '../../realtime/event-bus.ts';

export interface LabelRow {
  id: string;
  name: string;
  tickets: number;
}

/**
 * The team's labels and the tickets that have them (docs/decisions/141-labels.md). A name taken
 * whatever its case is a unique violation (labels_name_uq).
 */
export function createLabelsRepository(db: AppDatabase) {
  return {
    async list(): Promise<LabelRow[]> {
      const rows = await queryRows<{ id: string; name: string; tickets: unknown }>(
        db,
        sql`select l.id, l.name, (select count(*) from ticket_labels tl where tl.label_id = l.id) as tickets
            from labels l order by lower(l.name), l.id`,
      );
      return rows.map((r) => ({ id: r.id, name: r.name, tickets: Number(r.tickets) }));
    },

    async count(): Promise<number> {
      const [row] = await queryRows<{ n: unknown }>(db, sql`select count(*) as n from labels`);
      return Number(row?.n ?? 0);
    },

    async insert(name: string): Promise<{ id: string; name: string }> {
      const [row] = await queryRows<{ id: string; name: string }>(
        db,
        sql`insert into labels (name) values (${name}) returning id, name`,
      );
      return row!;
    },

    async rename(id: string, name: string): Promise<{ id: string; name: string } | null> {
      const [row] = await queryRows<{ id: string; name: string }>(
        db,
        sql`update labels set name = ${name}, updated_at = now() where id = ${id}::uuid returning id, name`,
      );
      return row ?? null;
    },

    /** Removes a label (it comes off every ticket: cascade); returns it with the tickets it was on. */
    async remove(id: string): Promise<{ id: string; name: string; ticketIds: string[] } | null> {
      const [row] = await queryRows<{ id: string; name: string; ticket_ids: string[] | null }>(
        db,
        sql`with gone as (delete from labels where id = ${id}::uuid returning id, name)
            select gone.id, gone.name,
              (select array_agg(tl.ticket_id) from ticket_labels tl where tl.label_id = gone.id) as ticket_ids
            from gone`,
      );
      return row ? { id: row.id, name: row.name, ticketIds: row.ticket_ids ?? [] } : null;
    },

    /**
     * Puts the label on each of `ticketIds` (a bulk action; the caller's transaction locked the
     * tickets), or takes it off with `on` false, in one statement. The tickets whose labels changed.
     */
    async putOnAll(ticketIds: readonly string[], labelId: string, on: boolean): Promise<string[]> {
      if (ticketIds.length === 0) return [];
      const changed = on
        ? sql`insert into ticket_labels (ticket_id, label_id)
              select t.id, l.id from support_tickets t join labels l on l.id = ${labelId}::uuid
              where t.id = any(${pgArray(ticketIds)}::uuid[])
              on conflict do nothing
              returning ticket_id`
        : sql`delete from ticket_labels
              where ticket_id = any(${pgArray(ticketIds)}::uuid[]) and label_id = ${labelId}::uuid
              returning ticket_id`;
      const rows = await queryRows<{ ticket_id: string }>(
        db,
        sql`with c as (${changed})
            select c.ticket_id, pg_notify(${EVENTS_CHANNEL}, json_build_object('type', 'ticket.updated', 'ticketId', c.ticket_id, 'userId', '')::text)
            from c`,
      );
      return rows.map((row) => row.ticket_id);
    },

    /** How many of these ids are labels. */
    async existing(ids: string[]): Promise<number> {
      if (ids.length === 0) return 0;
      const [row] = await queryRows<{ n: unknown }>(
        db,
        sql`select count(*) as n from labels where id = any(${pgArray(ids)}::uuid[])`,
      );
      return Number(row?.n ?? 0);
    },

    /**
     * Sets a ticket's labels to exactly these, in one statement: the others come off, the new ones go
     * on. Returns the ticket's labels after, by name; null when there is no such ticket.
     */
    async setForTicket(
      ticketId: string,
      ids: string[],
    ): Promise<{ ticketNo: number; labels: Array<{ id: string; name: string }> } | null> {
      const wanted = pgArray(ids);
      const [row] = await queryRows<{
        id: string;
        ticket_no: unknown;
        labels: Array<{ id: string; name: string }> | null;
      }>(
        db,
        sql`with t as (select id, ticket_no from support_tickets where id = ${ticketId}::uuid),
            gone as (
              delete from ticket_labels tl using t
              where tl.ticket_id = t.id and not (tl.label_id = any(${wanted}::uuid[]))
              returning tl.label_id),
            added as (
              insert into ticket_labels (ticket_id, label_id)
              select t.id, l.id from t join labels l on l.id = any(${wanted}::uuid[])
              on conflict do nothing
              returning label_id)
            select t.id, t.ticket_no,
              (select json_agg(json_build_object('id', l.id, 'name', l.name) order by lower(l.name))
                 from labels l where l.id = any(${wanted}::uuid[])) as labels
            from t`,
      );
      if (!row) return null;
      await announceAfterCommit(db, { type: 'ticket.updated', ticketId, userId: '' });
      return { ticketNo: Number(row.ticket_no), labels: row.labels ?? [] };
    },
  };
}

export type LabelsRepository = ReturnType<typeof createLabelsRepository>;
