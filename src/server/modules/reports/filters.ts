import { type SQL, sql } from 'drizzle-orm';

/** A range of New Zealand days, both included, as instants: [starts, ends); and the label asked for, if any. */
export interface Range {
  from: string;
  to: string;
  label?: string;
  /** Only tickets of this reason. */
  reason?: string;
  /** Only tickets assigned to this admin (their user id). */
  agent?: string;
}
/**
 * The ticket `ticketId` has the range's label, reason and assignee, those it asks for (always true
 * when it asks for none).
 */
export const labelled = (range: Range, ticketId: SQL = sql`t.id`) => {
  const conditions: SQL[] = [];
  if (range.label)
    conditions.push(
      sql`exists (select 1 from ticket_labels tl where tl.ticket_id = ${ticketId} and tl.label_id = ${range.label}::uuid)`,
    );
  if (range.reason || range.agent)
    conditions.push(sql`exists (select 1 from support_tickets ft where ft.id = ${ticketId}
      ${range.reason ? sql`and ft.reason = ${range.reason}` : sql``}
      ${range.agent ? sql`and ft.assigned_to = ${range.agent}::uuid` : sql``})`);
  return conditions.length === 0 ? sql`true` : sql.join(conditions, sql` and `);
};
