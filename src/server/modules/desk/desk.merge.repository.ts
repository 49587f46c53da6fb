import { sql } from 'drizzle-orm';
import { MERGE_TEXT } from '../../../contracts/ticket-merge.ts';
import type { MergeTarget } from '../../../contracts/ticket-merge.schemas.ts';
import { firstLineOf } from '../../../contracts/support.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { pgArray, queryRows } from '../../db/sql.ts';
import { EVENTS_CHANNEL, notifySql } from '../../realtime/event-bus.ts';

interface LockedTicket {
  id: string;
  user_id: string;
  ticket_no: number;
  open: boolean;
  closed_at: string | null;
  merged_into_id: string | null;
  version: unknown;
  row: unknown;
}

/**
 * Puts the labels of one ticket on another (a merge's target, a split's new ticket); returns those
 * the other did not have, for the undo to take off.
 */
async function addLabels(tx: AppDatabase, fromId: string, toId: string): Promise<string[]> {
  const added = await queryRows<{ label_id: string }>(
    tx,
    sql`insert into ticket_labels (ticket_id, label_id)
        select ${toId}::uuid, label_id from ticket_labels where ticket_id = ${fromId}::uuid
        on conflict do nothing returning label_id`,
  );
  return added.map((row) => row.label_id);
}

/**
 * The tickets' pages hear that messages moved (on commit): each is sent its whole thread again, or
 * the ticket it went on in (`movedTo`); the owner's list and the inbox read theirs again.
 */
const announceReshaped = async (
  tx: AppDatabase,
  userId: string,
  tickets: Array<{ ticketId: string; movedTo?: string }>,
) => {
  for (const { ticketId, movedTo } of tickets)
    await tx.execute(notifySql({ type: 'ticket.reshaped', ticketId, userId, ...(movedTo ? { movedTo } : {}) }));
};

/**
 * An undo gives a ticket its last activity back: as it was before, or the time of the newest message
 * written to it since (after the lines the merge or split wrote).
 */
const restoreLastMessage = (tx: AppDatabase, ticketId: string, before: string, lines: string[]) =>
  tx.execute(
    sql`update support_tickets set last_message = greatest(${before}::timestamptz,
          coalesce((select max(timestamp) from ticket_messages where ticket_id = ${ticketId}::uuid
                    and id > (select max(x) from unnest(${pgArray(lines.length > 0 ? lines : [0])}::bigint[]) x)),
                   ${before}::timestamptz))
        where id = ${ticketId}::uuid`,
  );

export type UndoOutcome =
  | { kind: 'undone'; split: boolean; sourceId: string; targetId: string; sourceNo: number; targetNo: number }
  | { kind: 'missing' | 'undone-already' | 'too-old' | 'target-merged' };

/** How long a merge can be undone. */
export const UNDO_DAYS = 30;

export type SplitOutcome =
  | { kind: 'split'; sourceNo: number; targetNo: number; targetId: string }
  | { kind: 'missing' | 'already-merged' | 'not-customers' | 'first' };

export type MergeOutcome =
  | { kind: 'merged'; sourceNo: number; targetNo: number; targetId: string }
  | {
      kind: 'missing' | 'target-missing' | 'same' | 'other-customer' | 'already-merged' | 'target-merged' | 'stale';
    };

/**
 * Merging tickets (docs/decisions/116-ticket-merge.md). A merge is one transaction that locks both
 * tickets (in id order, FOR UPDATE, so a reply being stored on either waits for it, and two merges
 * of the pair take turns), moves the source's messages, notes and files to the target, writes a line
 * into each thread, closes the source pointing at the target, and records everything it changed
 * (both rows before, what moved, the lines) so it can be undone.
 */
export function createMergeRepository(db: AppDatabase) {
  return {
    /** The owner's other tickets that are not merged themselves, newest first. */
    async targets(ticketId: string): Promise<MergeTarget[]> {
      const rows = await queryRows<{
        id: string;
        ticket_no: number;
        reason: string;
        open: boolean;
        last_message: string | Date;
        first_body: string | null;
      }>(
        db,
        sql`select o.id, o.ticket_no, o.reason, o.open, o.last_message,
              (select left(m.message_body, 1000) from ticket_messages m
                where m.ticket_id = o.id and not m.admin and not m.internal and m.system_event is null
                order by m.id limit 1) as first_body
            from support_tickets t
            join support_tickets o on o.user_id = t.user_id and o.id <> t.id and o.merged_into_id is null
            where t.id = ${ticketId}::uuid
            order by o.last_message desc, o.ticket_no desc limit 100`,
      );
      return rows.map((row) => ({
        id: row.id,
        ticketNo: row.ticket_no,
        reason: row.reason,
        open: row.open,
        lastMessage: new Date(row.last_message).toISOString(),
        firstLine: firstLineOf(row.first_body ?? ''),
      }));
    },

    /** The merges into this ticket, and the splits of or into it, that can still be undone, newest first. */
    async undoable(ticketId: string) {
      const rows = await queryRows<{
        id: number;
        kind: 'merge' | 'split';
        source_ticket_id: string;
        source_no: number;
        target_ticket_id: string;
        target_no: number;
        created_at: string | Date;
      }>(
        db,
        sql`select m.id, m.kind, m.source_ticket_id, s.ticket_no as source_no, m.target_ticket_id,
              g.ticket_no as target_no, m.created_at
            from ticket_merges m
            join support_tickets s on s.id = m.source_ticket_id
            join support_tickets g on g.id = m.target_ticket_id
            where (m.target_ticket_id = ${ticketId}::uuid or (m.kind = 'split' and m.source_ticket_id = ${ticketId}::uuid))
              and m.undone_at is null and m.created_at > now() - make_interval(days => ${UNDO_DAYS})
            order by m.id desc`,
      );
      return rows.map((row) => ({
        id: Number(row.id),
        kind: row.kind,
        sourceTicketId: row.source_ticket_id,
        sourceTicketNo: row.source_no,
        targetTicketId: row.target_ticket_id,
        targetTicketNo: row.target_no,
        at: new Date(row.created_at).toISOString(),
      }));
    },

    /**
     * Undoes a merge: the messages and files it moved go back (wherever a later merge took them is
     * refused instead), the lines it wrote go, the merged ticket is open or closed as it was, with its
     * service-level wait as it was, and the target's last activity is what it was, or the newest of
     * what was written to it since. Messages written since stay where they were written.
     */
    async undo(mergeId: number): Promise<UndoOutcome> {
      return inTransaction(db, async (tx) => {
        const [merge] = await queryRows<{
          kind: 'merge' | 'split';
          source_ticket_id: string;
          target_ticket_id: string;
          /** The tickets' rows before; the wait a merge carried into the target, or a split ended here. */
          before: {
            source: Record<string, unknown>;
            target: Record<string, unknown>;
            carriedWait?: number | null;
            endedWait?: number | null;
            /** A split: the wait it opened again here (its answer moved), and when that answer had ended it. */
            reopenedWait?: number | null;
            reopenedEndedAt?: string | null;
          };
          moved_message_ids: unknown;
          moved_attachment_ids: unknown;
          line_ids: unknown;
          added_label_ids: unknown;
          undone_at: string | null;
          recent: boolean;
          created_at: string | Date;
        }>(
          tx,
          sql`select kind, source_ticket_id, target_ticket_id, before, moved_message_ids::text[] as moved_message_ids,
                moved_attachment_ids::text[] as moved_attachment_ids, line_ids::text[] as line_ids,
                added_label_ids::text[] as added_label_ids, undone_at, created_at,
                created_at > now() - make_interval(days => ${UNDO_DAYS}) as recent
              from ticket_merges where id = ${mergeId} for update`,
        );
        if (!merge) return { kind: 'missing' };
        if (merge.undone_at !== null) return { kind: 'undone-already' };
        if (!merge.recent) return { kind: 'too-old' };
        const sourceId = merge.source_ticket_id;
        const targetId = merge.target_ticket_id;
        const locked = await queryRows<LockedTicket>(
          tx,
          sql`select id, user_id, ticket_no, open, closed_at, merged_into_id, null as row
              from support_tickets t where id in (${sourceId}::uuid, ${targetId}::uuid) order by id for update`,
        );
        const source = locked.find((t) => t.id === sourceId)!;
        const target = locked.find((t) => t.id === targetId)!;
        if (target.merged_into_id !== null) return { kind: 'target-merged' };
        const ids = (value: unknown) => (value as string[] | null) ?? [];
        const movedMessages = ids(merge.moved_message_ids);
        const movedFiles = ids(merge.moved_attachment_ids);
        const lines = ids(merge.line_ids);
        await tx.execute(
          sql`update ticket_messages set ticket_id = ${sourceId}::uuid
              where id = any(${pgArray(movedMessages)}::bigint[]) and ticket_id = ${targetId}::uuid`,
        );
        await tx.execute(
          sql`update ticket_attachments set ticket_id = ${sourceId}::uuid
              where id = any(${pgArray(movedFiles)}::uuid[]) and ticket_id = ${targetId}::uuid`,
        );
        await tx.execute(sql`delete from ticket_messages where id = any(${pgArray(lines)}::bigint[])`);
        // The labels the merge or split put on the target come off it again.
        await tx.execute(
          sql`delete from ticket_labels where ticket_id = ${targetId}::uuid
                and label_id = any(${pgArray(ids(merge.added_label_ids))}::uuid[])`,
        );
        const before = merge.before;
        let targetDeleted = false;
        if (merge.kind === 'split') {
          // The split's ticket goes when nothing was written to it since; the ticket it came from
          // has its last activity back, or the newest written to it since.
          const deleted = await queryRows<{ id: string }>(
            tx,
            sql`delete from support_tickets where id = ${targetId}::uuid
                  and not exists (select 1 from ticket_messages where ticket_id = ${targetId}::uuid)
                returning id`,
          );
          targetDeleted = deleted.length > 0;
          await restoreLastMessage(tx, sourceId, before.source.last_message as string, lines);
          // The wait the split opened again here ends as the answer that moved back ended it, unless
          // answered here since; the first response is the ticket's own again.
          if (before.reopenedWait) {
            await tx.execute(
              sql`update ticket_waits set ended_at = ${before.reopenedEndedAt ?? null}::timestamptz, ended_by = 'answer'
                  where id = ${before.reopenedWait} and ended_at is null`,
            );
            await tx.execute(
              sql`update support_tickets set first_answer_at = ${(before.source.first_answer_at as string | null) ?? null}::timestamptz,
                    first_answer_by = ${(before.source.first_answer_by as string | null) ?? null}::uuid
                  where id = ${sourceId}::uuid`,
            );
          }
          // The wait the split ended here is open again, unless the ticket has one of its own since.
          if (before.endedWait)
            await tx.execute(
              sql`update ticket_waits set ended_at = null, ended_by = null
                  where id = ${before.endedWait} and ended_by = 'split'
                    and not exists (select 1 from ticket_waits where ticket_id = ${sourceId}::uuid and ended_at is null)`,
            );
        } else {
          // The rows as they were, without the service-level triggers (an undo is not a close or a
          // reopen): the merged ticket's wait that the merge ended is open again.
          await tx.execute(sql`set local bagspace.restoring = 'on'`);
          await tx.execute(
            sql`update support_tickets set open = ${before.source.open as boolean},
                  closed_at = ${(before.source.closed_at as string | null) ?? null}::timestamptz,
                  merged_into_id = null
                where id = ${sourceId}::uuid`,
          );
          if (before.source.open)
            await tx.execute(
              sql`update ticket_waits set ended_at = null, ended_by = null
                  where id = (select id from ticket_waits where ticket_id = ${sourceId}::uuid and ended_by = 'close'
                                and ended_at >= ${new Date(merge.created_at).toISOString()}::timestamptz
                              order by ended_at desc limit 1)
                    and not exists (select 1 from ticket_waits where ticket_id = ${sourceId}::uuid and ended_at is null)`,
            );
          await restoreLastMessage(tx, targetId, before.target.last_message as string, lines);
          // The wait the merge carried into the target goes back with the question, unless answered since.
          if (before.carriedWait)
            await tx.execute(sql`delete from ticket_waits where id = ${before.carriedWait} and ended_at is null`);
          await tx.execute(sql`set local bagspace.restoring = 'off'`);
        }
        await tx.execute(sql`update ticket_merges set undone_at = now() where id = ${mergeId}`);
        // A split's ticket deleted above lives on in the ticket it came from.
        await announceReshaped(tx, source.user_id, [
          { ticketId: sourceId },
          { ticketId: targetId, ...(targetDeleted ? { movedTo: sourceId } : {}) },
        ]);
        return {
          kind: 'undone',
          split: merge.kind === 'split',
          sourceId,
          targetId,
          sourceNo: source.ticket_no,
          targetNo: target.ticket_no,
        };
      });
    },

    /**
     * Splits a ticket at one of its customer's messages: that message and everything after it
     * (answers, notes, files) move into a new ticket of the customer with `reason`, a line in each
     * thread says so, and the split is recorded like a merge so it can be undone.
     */
    async split(sourceId: string, messageId: number, reason: string, actorId: string): Promise<SplitOutcome> {
      return inTransaction(db, async (tx) => {
        const [source] = await queryRows<LockedTicket>(
          tx,
          sql`select id, user_id, ticket_no, open, closed_at, merged_into_id, row_to_json(t) as row
              from support_tickets t where id = ${sourceId}::uuid for update`,
        );
        if (!source) return { kind: 'missing' };
        if (source.merged_into_id !== null) return { kind: 'already-merged' };
        const [message] = await queryRows<{ id: number; first: boolean }>(
          tx,
          sql`select m.id, not exists (select 1 from ticket_messages e where e.ticket_id = m.ticket_id and e.id < m.id) as first
              from ticket_messages m
              where m.id = ${messageId} and m.ticket_id = ${sourceId}::uuid and m.user_id = ${source.user_id}::uuid
                and not m.admin and not m.internal and m.system_event is null`,
        );
        if (!message) return { kind: 'not-customers' };
        if (message.first) return { kind: 'first' };
        const [created] = await queryRows<{ id: string; ticket_no: number }>(
          tx,
          sql`insert into support_tickets (user_id, reason, open, creation_date, last_message)
              select ${source.user_id}::uuid, ${reason}, true, m.timestamp, m.timestamp
              from ticket_messages m where m.id = ${messageId}
              returning id, ticket_no`,
        );
        const targetId = created!.id;
        // A wait the moved messages started is theirs: it goes on in the new ticket (derived below),
        // and ends here without counting (zero length, 'split'; an undo opens it again).
        const [ended] = await queryRows<{ id: number }>(
          tx,
          sql`update ticket_waits set ended_at = started_at, ended_by = 'split'
              where ticket_id = ${sourceId}::uuid and ended_at is null
                and started_at >= (select timestamp from ticket_messages where id = ${messageId})
              returning id`,
        );
        // A question asked here before the split message and answered only by a message that moves
        // waits here again, due as its reason's targets say from when it was asked (and, if that
        // answer was the first, the ticket has had no first response). An undo ends it again.
        const [reopened] = await queryRows<{ id: number; ended_at: string; phase: string }>(
          tx,
          sql`update ticket_waits w set ended_at = null, ended_by = null
              from (select id, ended_at::text as was from ticket_waits
                    where ticket_id = ${sourceId}::uuid and ended_by = 'answer'
                      and started_at < (select timestamp from ticket_messages where id = ${messageId})
                      and ended_at >= (select timestamp from ticket_messages where id = ${messageId})
                    order by started_at desc limit 1) r
              where w.id = r.id
                and not exists (select 1 from ticket_waits o where o.ticket_id = ${sourceId}::uuid and o.ended_at is null)
              returning w.id, r.was as ended_at, w.phase`,
        );
        if (reopened) {
          await tx.execute(
            sql`update ticket_waits w set (response_due, resolution_due) =
                  (select d.response_due, d.resolution_due from wait_dues(w.ticket_id, w.phase, w.started_at) d)
                where w.id = ${reopened.id}`,
          );
          if (reopened.phase === 'first')
            await tx.execute(
              sql`update support_tickets set first_answer_at = null, first_answer_by = null where id = ${sourceId}::uuid`,
            );
        }
        const moved = await queryRows<{ id: number }>(
          tx,
          sql`update ticket_messages set ticket_id = ${targetId}::uuid
              where ticket_id = ${sourceId}::uuid and id >= ${messageId} returning id`,
        );
        const files = await queryRows<{ id: string }>(
          tx,
          sql`update ticket_attachments set ticket_id = ${targetId}::uuid
              where ticket_id = ${sourceId}::uuid and message_id = any(${pgArray(moved.map((m) => m.id))}::bigint[])
              returning id`,
        );
        const lines = await queryRows<{ id: number }>(
          tx,
          sql`with l as (
                insert into ticket_messages (ticket_id, message_body, user_id, admin, system_event, timestamp)
                values
                  (${sourceId}::uuid, ${MERGE_TEXT.splitSourceLine(created!.ticket_no)}, ${source.user_id}::uuid, false, 'split-into', clock_timestamp()),
                  (${targetId}::uuid, ${MERGE_TEXT.splitTargetLine(source.ticket_no)}, ${source.user_id}::uuid, false, 'split-from', clock_timestamp())
                returning id, ticket_id, user_id
              )
              select l.id, pg_notify(${EVENTS_CHANNEL}, json_build_object('type', 'message.created',
                'ticketId', l.ticket_id, 'userId', l.user_id, 'messageId', l.id)::text)
              from l order by l.id`,
        );
        // The new ticket's last activity, and its waits as its messages tell them (its first response is
        // the answer its first question got; a question still unanswered waits, with its due times).
        await tx.execute(
          sql`update support_tickets set last_message = (select max(timestamp) from ticket_messages where ticket_id = ${targetId}::uuid)
              where id = ${targetId}::uuid`,
        );
        await tx.execute(sql`select derive_ticket_waits(${targetId}::uuid)`);
        await tx.execute(
          sql`update ticket_waits w set (response_due, resolution_due) =
                (select d.response_due, d.resolution_due from wait_dues(w.ticket_id, w.phase, w.started_at) d)
              where w.ticket_id = ${targetId}::uuid and w.ended_at is null`,
        );
        await tx.execute(
          sql`select pg_notify(${EVENTS_CHANNEL}, json_build_object('type', 'ticket.created', 'ticketId', ${targetId}::uuid, 'userId', ${source.user_id}::uuid)::text)`,
        );
        await announceReshaped(tx, source.user_id, [{ ticketId: sourceId }]);
        // The new ticket has the labels of the one it came from (docs/decisions/141-labels.md).
        const labelled = await addLabels(tx, sourceId, targetId);
        await tx.execute(
          sql`insert into ticket_merges (kind, source_ticket_id, target_ticket_id, actor_id, before, moved_message_ids, moved_attachment_ids, line_ids, added_label_ids)
              values ('split', ${sourceId}::uuid, ${targetId}::uuid, ${actorId}::uuid,
                json_build_object('source', ${JSON.stringify(source.row)}::json, 'target', null,
                  'endedWait', ${ended?.id ?? null}::bigint, 'reopenedWait', ${reopened?.id ?? null}::bigint,
                  'reopenedEndedAt', ${reopened?.ended_at ?? null}::timestamptz),
                ${pgArray(moved.map((m) => m.id))}::bigint[],
                ${pgArray(files.map((f) => f.id))}::uuid[],
                ${pgArray(lines.map((l) => l.id))}::bigint[],
                ${pgArray(labelled)}::uuid[])`,
        );
        return { kind: 'split', sourceNo: source.ticket_no, targetNo: created!.ticket_no, targetId };
      });
    },

    async merge(sourceId: string, targetId: string, actorId: string, seenVersion?: number): Promise<MergeOutcome> {
      return inTransaction(db, async (tx) => {
        const locked = await queryRows<LockedTicket>(
          tx,
          sql`select id, user_id, ticket_no, open, closed_at, merged_into_id, version, row_to_json(t) as row
              from support_tickets t where id in (${sourceId}::uuid, ${targetId}::uuid) order by id for update`,
        );
        const source = locked.find((t) => t.id === sourceId);
        const target = locked.find((t) => t.id === targetId);
        if (!source) return { kind: 'missing' };
        // The ticket moved on since the agent looked (decision 140): they see what changed first.
        if (seenVersion !== undefined && Number(source.version) !== seenVersion) return { kind: 'stale' };
        if (sourceId === targetId) return { kind: 'same' };
        if (!target) return { kind: 'target-missing' };
        if (source.user_id !== target.user_id) return { kind: 'other-customer' };
        if (source.merged_into_id !== null) return { kind: 'already-merged' };
        if (target.merged_into_id !== null) return { kind: 'target-merged' };

        // The customer's unanswered question in the merged ticket is still unanswered in the target: when
        // the target waits for nothing, a wait starts there from when the merged one started (its due
        // times by the target's targets); the merged ticket's own wait ends with its close below.
        const [carried] = await queryRows<{ id: number }>(
          tx,
          sql`insert into ticket_waits (ticket_id, phase, started_at, response_due, resolution_due)
              select ${targetId}::uuid, p.phase, s.started_at, d.response_due, d.resolution_due
              from ticket_waits s,
                   lateral (select case when exists (select 1 from ticket_waits where ticket_id = ${targetId}::uuid)
                                        then 'next' else 'first' end as phase) p,
                   lateral wait_dues(${targetId}::uuid, p.phase, s.started_at) d
              where s.ticket_id = ${sourceId}::uuid and s.ended_at is null
              on conflict (ticket_id) where ended_at is null do nothing
              returning id`,
        );
        const moved = await queryRows<{ id: number }>(
          tx,
          sql`update ticket_messages set ticket_id = ${targetId}::uuid where ticket_id = ${sourceId}::uuid returning id`,
        );
        const files = await queryRows<{ id: string }>(
          tx,
          sql`update ticket_attachments set ticket_id = ${targetId}::uuid where ticket_id = ${sourceId}::uuid returning id`,
        );
        // Answers the customer has not seen yet are still to be told, now from the target: the merged
        // ticket's pending answer notice joins the target's (the earlier answer first), and the
        // target's seen mark ("every answer up to here was seen") stops below the first answer of the
        // joined thread that was not seen where it was written. An answer seen in one ticket above
        // that mark may be told again: a mail twice, never an answer untold.
        await tx.execute(
          sql`with ev as (
                delete from notification_events where ticket_id = ${sourceId}::uuid and kind = 'ticket-reply'
                returning message_id, due_at)
              insert into notification_events (kind, ticket_id, message_id, due_at)
              select 'ticket-reply', ${targetId}::uuid, message_id, due_at from ev
              on conflict (ticket_id) where kind = 'ticket-reply'
              do update set message_id = least(notification_events.message_id, excluded.message_id),
                due_at = least(notification_events.due_at, excluded.due_at)`,
        );
        await tx.execute(
          sql`update support_tickets t set owner_seen_message_id = coalesce(
                (select min(m.id) - 1 from ticket_messages m
                 where m.ticket_id = ${targetId}::uuid and m.admin and not m.internal and m.system_event is null
                   and m.id > case when m.id = any(${pgArray(moved.map((m) => m.id))}::bigint[])
                                   then s.owner_seen_message_id else t.owner_seen_message_id end),
                greatest(s.owner_seen_message_id, t.owner_seen_message_id))
              from support_tickets s
              where t.id = ${targetId}::uuid and s.id = ${sourceId}::uuid`,
        );
        // The two lines, one in each thread, under the owner like every system line (not an answer,
        // not the customer's: the service-level triggers pass them by); announced on commit.
        const lines = await queryRows<{ id: number }>(
          tx,
          sql`with l as (
                insert into ticket_messages (ticket_id, message_body, user_id, admin, system_event, timestamp)
                values
                  (${sourceId}::uuid, ${MERGE_TEXT.sourceLine(target.ticket_no)}, ${source.user_id}::uuid, false, 'merged-into', clock_timestamp()),
                  (${targetId}::uuid, ${MERGE_TEXT.targetLine(source.ticket_no)}, ${source.user_id}::uuid, false, 'merged-from', clock_timestamp())
                returning id, ticket_id, user_id
              )
              select l.id, pg_notify(${EVENTS_CHANNEL}, json_build_object('type', 'message.created',
                'ticketId', l.ticket_id, 'userId', l.user_id, 'messageId', l.id)::text)
              from l order by l.id`,
        );
        // The source closes (its open wait ends by the trigger) and points at the target; the
        // target's last activity is the later of the two. Both pages hear of it.
        await tx.execute(
          sql`update support_tickets set open = false, closed_at = coalesce(closed_at, now()),
                merged_into_id = ${targetId}::uuid
              where id = ${sourceId}::uuid`,
        );
        await tx.execute(
          sql`update support_tickets set last_message = greatest(last_message,
                (select last_message from support_tickets where id = ${sourceId}::uuid), clock_timestamp())
              where id = ${targetId}::uuid`,
        );
        await announceReshaped(tx, source.user_id, [{ ticketId: sourceId, movedTo: targetId }, { ticketId: targetId }]);
        // The target takes the merged ticket's labels too (docs/decisions/141-labels.md); the undo takes
        // off those it did not have.
        const labelled = await addLabels(tx, sourceId, targetId);
        await tx.execute(
          sql`insert into ticket_merges (source_ticket_id, target_ticket_id, actor_id, before, moved_message_ids, moved_attachment_ids, line_ids, added_label_ids)
              values (${sourceId}::uuid, ${targetId}::uuid, ${actorId}::uuid,
                json_build_object('source', ${JSON.stringify(source.row)}::json, 'target', ${JSON.stringify(target.row)}::json,
                  'carriedWait', ${carried?.id ?? null}::bigint),
                ${pgArray(moved.map((m) => m.id))}::bigint[],
                ${pgArray(files.map((f) => f.id))}::uuid[],
                ${pgArray(lines.map((l) => l.id))}::bigint[],
                ${pgArray(labelled)}::uuid[])`,
        );
        return { kind: 'merged', sourceNo: source.ticket_no, targetNo: target.ticket_no, targetId };
      });
    },
  };
}

export type MergeRepository = ReturnType<typeof createMergeRepository>;
