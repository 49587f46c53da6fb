import { type SQL, sql } from 'drizzle-orm';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { iso, isUuid, likePattern, pgArray, queryRows } from '../../db/sql.ts';
import { announceAfterCommit, EVENTS_CHANNEL } from '../../realtime/event-bus.ts';
import type { WaitingOn } from '../../../contracts/support.ts';
import type { DueTime, TicketDue } from '../../../contracts/support.schemas.ts';
import { firstLineOf } from '../../../contracts/support.ts';
import { claimedAttachmentsJson, claimPendingAttachments } from '../attachments/index.ts';
import type { IncidentInput } from '../../../contracts/claims.schemas.ts';
import {
  type AdminTicketRow,
  MESSAGE_COLUMNS,
  type MessageRow,
  type RawMessage,
  type RawTicket,
  TICKET_COLUMNS,
  type TicketRow,
  toMessage,
  toTicket,
} from './support.rows.ts';

/**
 * Tickets and messages. Rules that concurrency could break live in single statements:
 * - a reply is inserted only through `UPDATE … WHERE open` on its ticket, so a close and a reply
 *   cannot interleave, and replies to one ticket are serialised on its row lock: message ids (the
 *   live event ids) therefore rise in commit order within a ticket, which makes resuming after an
 *   id loss-free;
 * - every change notifies listeners in the same statement, so the event fires exactly on commit;
 * - every change that someone is to be told of by mail records a notification event in the same
 *   statement (modules/notifications turns it into mail): no committed answer goes untold;
 *   a message post, the hot path, notifies by a statement of its own right after its commit
 *   (notifyAfterCommitSql, docs/performance.md).
 */

type RawAdminTicket = RawTicket & {
  user_email: string;
  user_name: string | null;
  assignee_id: string | null;
  assignee_email: string | null;
  first_response_at: unknown;
  wait_phase: string | null;
  response_due: unknown;
  resolution_due: unknown;
  due_at: unknown;
  warned: string | null;
  first_body: string | null;
  labels: Array<{ id: string; name: string }> | null;
  delivery_reference: string | null;
};

/** The open wait's due times, each labelled: its response (first or next, by its phase), then its resolution. */
function dueTimesOf(r: { wait_phase: string | null; response_due: unknown; resolution_due: unknown }): DueTime[] {
  const times: DueTime[] = [];
  if (r.response_due)
    times.push({ target: r.wait_phase === 'first' ? 'firstResponse' : 'nextResponse', at: iso(r.response_due) });
  if (r.resolution_due) times.push({ target: 'resolution', at: iso(r.resolution_due) });
  return times;
}

/**
 * The open wait's next due time: the earlier of its response (first or next, by its phase) and
 * resolution due times, and the strongest warning sent about that target.
 */
function dueOf(r: {
  wait_phase: string | null;
  response_due: unknown;
  resolution_due: unknown;
  due_at: unknown;
  warned: string | null;
}): TicketDue | null {
  if (!r.due_at) return null;
  const at = iso(r.due_at);
  const response = r.response_due ? iso(r.response_due) === at : false;
  return {
    at,
    target: response ? (r.wait_phase === 'first' ? 'firstResponse' : 'nextResponse') : 'resolution',
    warned: r.warned === 'missed' || r.warned === 'soon' ? r.warned : null,
  };
}

/** How far a chain of merges is followed (a merged ticket's target merged again, and so on). */
const MAX_HOPS = 10;

/** How long the owner may change a rating after giving it. */
export const RATING_CHANGEABLE_DAYS = 7;

export function createSupportRepository(db: AppDatabase, options: { notifyDelaySeconds?: number } = {}) {
  /** How long an answer's mail waits for the user to see it live (NOTIFY_DELAY_SECONDS). */
  const notifyDelaySeconds = options.notifyDelaySeconds ?? 60;

  /**
   * The change setOpen and setOpenAll make (see setOpen for the owner's mail), for a set of tickets
   * whose rows the caller has locked: each ticket's notices are its own (`w`, `r` and `b` go by
   * ticket).
   */
  const setOpenOf = (on: AppDatabase, ticketIds: readonly string[], open: boolean) =>
    queryRows<RawTicket>(
      on,
      sql`
      with t as (
        update support_tickets set open = ${open}, closed_at = case when ${open} then null else now() end
        where id = any(${pgArray(ticketIds)}::uuid[]) and open <> ${open}
        returning id, ticket_no, reason, open, creation_date, last_message, user_id, closed_at, version
      ), w as (
        delete from notification_events using t
        where notification_events.ticket_id = t.id
          and notification_events.kind = case when t.open then 'ticket-closed' else 'ticket-reopened' end
        returning notification_events.ticket_id, notification_events.message_id
      ), r as (
        delete from notification_events using t
        where not t.open and not exists (select 1 from w where w.ticket_id = t.id)
          and notification_events.ticket_id = t.id and notification_events.kind = 'ticket-reply'
        returning notification_events.ticket_id, notification_events.message_id
      ), e as (
        insert into notification_events (kind, ticket_id, message_id, due_at)
        select case when t.open then 'ticket-reopened' else 'ticket-closed' end, t.id,
               (select min(r.message_id) from r where r.ticket_id = t.id),
               now() + make_interval(secs => ${notifyDelaySeconds})
        from t where not exists (select 1 from w where w.ticket_id = t.id)
      ), b as (
        insert into notification_events (kind, ticket_id, message_id, due_at)
        select 'ticket-reply', t.id, w.message_id, now() + make_interval(secs => ${notifyDelaySeconds})
        from t join w on w.ticket_id = t.id where t.open and w.message_id is not null
        on conflict (ticket_id) where kind = 'ticket-reply'
        do update set message_id = least(notification_events.message_id, excluded.message_id)
      )
      select t.*, pg_notify(${EVENTS_CHANNEL}, json_build_object('type', 'ticket.updated', 'ticketId', t.id, 'userId', t.user_id)::text)
      from t`,
    );
  return {
    /**
     * Creates a ticket with its first message in one statement. With a `clientId` the user already
     * used, nothing is stored and null is returned (the caller answers with that earlier ticket).
     */
    async createTicket(
      userId: string,
      reason: string,
      message: string,
      clientId: string | null = null,
      attachmentIds: string[] = [],
      /** Opened by a received mail (modules/inbound): that row is marked posted in this same statement. */
      inboundMailId: number | null = null,
      /**
       * `follows`: the ticket this one carries on from ('Still need help?'), linked only when it is
       * this user's own (checked in the same statement); any other id is left out.
       */
      links: {
        follows?: string | null;
        deliveryReference?: string | null;
        /** The claim an Incident Report opens, in the same statement (docs/decisions/152-incident-claims.md). */
        claim?: (IncidentInput & { at: Date }) | null;
      } = {},
    ): Promise<{ ticketId: string; ticketNo: number; messageId: number } | null> {
      const follows = links.follows ?? null;
      const deliveryReference = links.deliveryReference ?? null;
      const claim = links.claim ?? null;
      // Its window ends the given number of working days after the delivery; the team decides
      // within its own number of working days of the claim, counted from the app's clock `at`
      // (the database's calendar: 0033_claims.sql).
      const claimInsert = claim
        ? sql`, c as (
            insert into incident_claims (ticket_id, kind, delivery_reference, item_value_cents, delivered_on,
              window_ends_on, created_at, state_since, due_at)
            select t.id, ${claim.kind}, ${claim.deliveryReference}, ${claim.itemValueCents}::integer,
              ${claim.deliveredOn}::date, claim_working_date(${claim.deliveredOn}::date, claim_period('claimWindowDays')),
              ${claim.at.toISOString()}::timestamptz, ${claim.at.toISOString()}::timestamptz,
              claim_working_days(${claim.at.toISOString()}::timestamptz, claim_period('decisionDays'))
            from t
          )`
        : sql``;
      const [row] = await queryRows<{ id: string; ticket_no: number; message_id: unknown }>(
        db,
        sql`
        with t as (
          insert into support_tickets (user_id, reason, client_id, follows_ticket_id, delivery_reference)
          values (${userId}, ${reason}, ${clientId}::text,
            (select p.id from support_tickets p where p.id = ${follows}::uuid and p.user_id = ${userId}::uuid),
            ${deliveryReference}::text)
          on conflict (user_id, client_id) where client_id is not null do nothing
          returning id, ticket_no, user_id, creation_date, follows_ticket_id
        ), m as (
          insert into ticket_messages (ticket_id, message_body, user_id, admin, timestamp, inbound_mail_id)
          select t.id, ${message}, t.user_id, false, t.creation_date, ${inboundMailId}::bigint from t
          returning id, ticket_id
        ), i as (
          update inbound_mail set state = 'posted', reason = null, ticket_id = m.ticket_id, posted_message_id = m.id,
            user_id = ${userId}, lease_until = null, last_error = null, decided_at = now()
          from m where inbound_mail.id = ${inboundMailId}::bigint
        ), e as (
          insert into notification_events (kind, ticket_id, message_id) select 'team-new-ticket', t.id, m.id from t, m
        )${attachmentIds.length > 0 ? sql`, ${claimPendingAttachments(attachmentIds, userId)}` : sql``}${claimInsert}
        select t.id, t.ticket_no, m.id as message_id,
          pg_notify(${EVENTS_CHANNEL}, json_build_object('type', 'ticket.created', 'ticketId', t.id, 'userId', t.user_id)::text),
          -- The ticket it follows now shows 'Continued in': pages watching it are told.
          case when t.follows_ticket_id is not null then pg_notify(${EVENTS_CHANNEL},
            json_build_object('type', 'ticket.updated', 'ticketId', t.follows_ticket_id, 'userId', t.user_id)::text) end
        from t, m`,
      );
      return row ? { ticketId: row.id, ticketNo: Number(row.ticket_no), messageId: Number(row.message_id) } : null;
    },

    /** How many of these pending files of this user are photos (a damaged item's claim needs one). */
    async countPendingPhotos(ids: string[], userId: string): Promise<number> {
      if (ids.length === 0) return 0;
      const [row] = await queryRows<{ photos: number }>(
        db,
        sql`select count(*)::int as photos from ticket_attachments
            where id in (select value::uuid from json_array_elements_text(${JSON.stringify(ids)}::json))
              and user_id = ${userId} and message_id is null and kind in ('jpg', 'png', 'webp')`,
      );
      return Number(row?.photos ?? 0);
    },

    /** The newest open ticket of this user that carries on from `closedTicketId` ('Still need help?' or a mailed reply). */
    async findOpenFollowUp(
      closedTicketId: string,
      userId: string,
    ): Promise<{ ticketId: string; ticketNo: number } | null> {
      const [row] = await queryRows<{ id: string; ticket_no: number }>(
        db,
        sql`select id, ticket_no from support_tickets
            where user_id = ${userId} and follows_ticket_id = ${closedTicketId} and open
            order by ticket_no desc limit 1`,
      );
      return row ? { ticketId: row.id, ticketNo: Number(row.ticket_no) } : null;
    },

    /** The ticket a user created with this clientId, if any. */
    async findTicketByClientId(
      userId: string,
      clientId: string,
    ): Promise<{ ticketId: string; ticketNo: number } | null> {
      const [row] = await queryRows<{ id: string; ticket_no: number }>(
        db,
        sql`select id, ticket_no from support_tickets where user_id = ${userId} and client_id = ${clientId}`,
      );
      return row ? { ticketId: row.id, ticketNo: Number(row.ticket_no) } : null;
    },

    async listTicketsOfUser(userId: string, open: boolean): Promise<TicketRow[]> {
      const rows = await queryRows<RawTicket>(
        db,
        sql`select ${TICKET_COLUMNS} from support_tickets t
            where t.user_id = ${userId} and t.open = ${open}
            order by t.last_message desc, t.ticket_no desc limit 500`,
      );
      return rows.map(toTicket);
    },

    /** One ticket; with `ownerId`, only if that user owns it (ownership is part of the query). */
    async findTicket(ticketId: string, ownerId: string | null): Promise<TicketRow | null> {
      const [row] = await queryRows<RawTicket>(
        db,
        sql`select ${TICKET_COLUMNS} from support_tickets t
            where t.id = ${ticketId} and (${ownerId}::uuid is null or t.user_id = ${ownerId}::uuid)`,
      );
      return row ? toTicket(row) : null;
    },

    async findAdminTicket(ticketId: string): Promise<AdminTicketRow | null> {
      const [row] = await this.listAdminTickets({ ticketId });
      return row ?? null;
    },

    async listAdminTickets(filter: {
      open?: boolean;
      search?: string;
      ticketId?: string;
      /** Only these tickets (the search's hits). */
      ticketIds?: string[];
      waiting?: WaitingOn;
      /** Assigned to this admin, or ('none') to nobody. */
      assignee?: string;
      /** Open privacy requests only, oldest (soonest due) first. */
      privacy?: boolean;
      /** Soonest due first, tickets with nothing due after them (then newest last message first). */
      sortDue?: boolean;
      /** Only tickets due in (after, by]: late is (none, now], due today (now, the end of the New Zealand day]. */
      due?: { after: Date | null; by: Date };
      /** Only tickets with a side conversation waiting on its third party (its own, or a ticket's merged into it). */
      thirdParty?: boolean;
      /** Only tickets with this label. */
      label?: string;
    }): Promise<AdminTicketRow[]> {
      const privacy = filter.privacy === true;
      const search = filter.search?.replace(/^#/, '').trim() || null;
      // Waiting for us: the newest message is not ours; for you: it is (open tickets only).
      const lastAdmin = filter.waiting ? filter.waiting === 'you' : null;
      const assignee = filter.assignee ?? null;
      const ids = filter.ticketIds ? `{${filter.ticketIds.filter((id) => isUuid(id)).join(',')}}` : null;
      // Written out only when asked, so the planner sees plain ranges on ticket_waits_due_idx and
      // incident_claims_due_idx. A claim is due by its own due time while it waits on the team or on
      // the traveller the team chases; a decided claim's is the sender's appeal window (claims-due
      // module). One semi-join of both ranges: an OR of the open wait's range and the claim's took
      // the inbox on 33,333 open tickets (2 % late) from 16-20 ms to 27-75 ms (it can use neither
      // index); this stays within a millisecond or two of the waits alone, on PGlite too.
      const dueIn = (column: SQL, range: { after: Date | null; by: Date }) =>
        sql`${column} <= ${range.by.toISOString()}::timestamptz${
          range.after ? sql` and ${column} > ${range.after.toISOString()}::timestamptz` : sql``
        }`;
      const due = filter.due
        ? sql`t.id in (select d.ticket_id from ticket_waits d where d.ended_at is null and ${dueIn(sql`d.due_at`, filter.due)}
            union all select c.ticket_id from incident_claims c
            where c.state in ('submitted', 'with-traveller', 'appealed') and ${dueIn(sql`c.due_at`, filter.due)})`
        : sql`true`;
      const where = sql`(${filter.open ?? null}::boolean is null or t.open = ${filter.open ?? null}::boolean)
              and (${assignee}::text is null
                   or (${assignee}::text = 'none' and t.assigned_to is null)
                   or t.assigned_to::text = ${assignee}::text)
              and (${filter.ticketId ?? null}::uuid is null or t.id = ${filter.ticketId ?? null}::uuid)
              and (${ids}::uuid[] is null or t.id = any(${ids}::uuid[]))
              and (${search}::text is null
                   or t.ticket_no::text = ${search}::text
                   or u.email ilike ${search ? likePattern(search) : null}::text)
              and ${due}
              and ${
                filter.label
                  ? sql`exists (select 1 from ticket_labels tl where tl.ticket_id = t.id and tl.label_id = ${filter.label}::uuid)`
                  : sql`true`
              }
              and ${
                filter.thirdParty
                  ? sql`t.id in (with recursive up(id) as (
                        select ticket_id from side_conversations where state = 'waiting'
                        union select s.merged_into_id from support_tickets s join up on s.id = up.id
                        where s.merged_into_id is not null)
                      select id from up)`
                  : sql`true`
              }`;
      // The first response is a subquery per row, but PostgreSQL runs it only for the rows the top-N
      // sort keeps (an expensive output column is computed after Sort and Limit): EXPLAIN ANALYZE of a
      // query of this shape on 33,334 open tickets and 300,000 messages shows its SubPlan with
      // loops=200, 9 ms in all. So are the warnings sent about the open wait's due time. The open
      // wait is one probe of ticket_waits_open_uq per ticket.
      const list = (from: SQL, only: SQL, order: SQL, limit: number) =>
        queryRows<RawAdminTicket>(
          db,
          sql`select t.*,
                (select s.moment from service_level_alerts s
                  where s.wait_id = t.wait_id
                    and s.target = case when t.due_at = t.response_due then 'response' else 'resolution' end
                  order by s.moment = 'missed' desc limit 1) as warned
              from (
              select ${TICKET_COLUMNS}, u.email as user_email, u.name as user_name, t.assigned_to as assignee_id, a.email as assignee_email,
                t.delivery_reference,
                (select min(m.timestamp) from ticket_messages m
                  where m.ticket_id = t.id and m.admin and not m.internal) as first_response_at,
                -- What the customer first wrote (its start is enough for a line; the index's order).
                (select left(m.message_body, 1000) from ticket_messages m
                  where m.ticket_id = t.id and not m.admin and not m.internal and m.system_event is null
                  order by m.id limit 1) as first_body,
                (select json_agg(json_build_object('id', l.id, 'name', l.name) order by lower(l.name), l.id)
                  from ticket_labels tl join labels l on l.id = tl.label_id where tl.ticket_id = t.id) as labels,
                w.id as wait_id, w.phase as wait_phase, w.response_due, w.resolution_due, w.due_at
              from ${from}
              join users u on u.id = t.user_id
              left join users a on a.id = t.assigned_to
              where ${where} and ${only}
              ) t
              where (${lastAdmin}::boolean is null or (t.open and coalesce(t.last_admin, false) = ${lastAdmin}::boolean))
                and (not ${privacy}::boolean or (t.open and t.privacy))
              order by ${order} limit ${limit}`,
        );
      const byMessage = sql`t.last_message desc, t.ticket_no desc`;
      let rows: RawAdminTicket[];
      if (filter.sortDue && !privacy) {
        // Soonest due first, read in the order of the partial index ticket_waits_due_idx (open waits
        // only) and stopped at 200; then, only if that leaves room, the tickets with nothing due, as
        // the list orders them by default. On 33,333 open tickets (26,666 waiting on us) and 300,000
        // messages, one query sorting every open ticket by a joined due time took 36 ms (a hash join
        // and a sort of them all); this one takes 3 ms, as the newest-first list does. The order is
        // the due time alone, as the index gives it: with the last message and number as tie-breaks
        // PostgreSQL sorted every open wait's row before keeping 200 (the bench's 100,000 tickets,
        // 2,000 open: 15.3 ms against the newest-first list's 7.3; by due time alone 6.4 ms). Tickets
        // due at the same instant (opened while the team was closed) come in the index's order.
        rows = await list(
          sql`ticket_waits w join support_tickets t on t.id = w.ticket_id`,
          sql`w.ended_at is null and w.due_at is not null`,
          sql`t.due_at`,
          200,
        );
        // With a due filter, these are the tickets due only by their claim.
        if (rows.length < 200) {
          const nothingDue = await list(
            sql`support_tickets t left join ticket_waits w on w.ticket_id = t.id and w.ended_at is null`,
            sql`not exists (select 1 from ticket_waits d where d.ticket_id = t.id and d.ended_at is null and d.due_at is not null)`,
            byMessage,
            200 - rows.length,
          );
          // A ticket answered between the two reads could be in both: it is listed once.
          const listed = new Set(rows.map((r) => r.id));
          rows = [...rows, ...nothingDue.filter((r) => !listed.has(r.id))];
        }
      } else {
        rows = await list(
          sql`support_tickets t left join ticket_waits w on w.ticket_id = t.id and w.ended_at is null`,
          sql`true`,
          sql`case when ${privacy}::boolean then t.creation_date end asc, ${byMessage}`,
          200,
        );
      }
      return rows.map((r) => ({
        ...toTicket(r),
        userEmail: r.user_email,
        userName: r.user_name,
        unanswered: r.last_admin === false,
        assignee: r.assignee_id && r.assignee_email ? { id: r.assignee_id, email: r.assignee_email } : null,
        firstResponseAt: r.first_response_at ? iso(r.first_response_at) : null,
        due: dueOf(r),
        dueTimes: dueTimesOf(r),
        firstLine: firstLineOf(r.first_body ?? ''),
        labels: r.labels ?? [],
        deliveryReference: r.delivery_reference ?? null,
      }));
    },

    /**
     * Messages of a ticket after an id, oldest first. Ownership is checked by the caller first.
     * Internal notes only with `notes: true` (admins' reads and the live feed, which filters per viewer).
     */
    async listMessages(ticketId: string, afterId: number, options: { notes: boolean }): Promise<MessageRow[]> {
      const rows = await queryRows<RawMessage>(
        db,
        sql`select ${MESSAGE_COLUMNS}, u.email as author_email
            from ticket_messages m left join users u on u.id = m.user_id
            where m.ticket_id = ${ticketId} and m.id > ${afterId} and (${options.notes}::boolean or not m.internal)
            order by m.id limit 1000`,
      );
      return rows.map(toMessage);
    },

    /** The newest message id of each of these tickets (tickets without messages are left out). */
    async latestMessageIds(ticketIds: string[]): Promise<Map<string, number>> {
      const ids = ticketIds.filter((id) => isUuid(id));
      if (ids.length === 0) return new Map();
      const rows = await queryRows<{ ticket_id: string; id: unknown }>(
        db,
        sql`select ticket_id, max(id) as id from ticket_messages
            where ticket_id = any(${`{${ids.join(',')}}`}::uuid[]) group by ticket_id`,
      );
      return new Map(rows.map((r) => [r.ticket_id, Number(r.id)]));
    },

    /** The message this author sent with this clientId (someone else's, a note say, is never answered). */
    async findMessageByClientId(ticketId: string, clientId: string, authorId: string): Promise<MessageRow | null> {
      const [row] = await queryRows<RawMessage>(
        db,
        sql`select ${MESSAGE_COLUMNS}, u.email as author_email
            from ticket_messages m left join users u on u.id = m.user_id
            where m.ticket_id = ${ticketId} and m.client_id = ${clientId} and m.user_id = ${authorId}`,
      );
      return row ? toMessage(row) : null;
    },

    /**
     * Stores a message only if the ticket is open (and, for a user, owned by them), in one
     * statement. Returns null when nothing was stored: closed, not found, or a retried clientId.
     */
    async insertMessage(input: {
      ticketId: string;
      authorId: string;
      ownerId: string | null;
      admin: boolean;
      body: string;
      clientId: string | null;
      /** Pending attachments of the author (modules/attachments) that this message carries. */
      attachmentIds?: string[];
      /** Posted from a received mail (modules/inbound): that row is marked posted in this same statement. */
      inboundMailId?: number;
      /** A staff write's version (decision 140): nothing is stored unless the ticket is still at it. */
      seenVersion?: number;
    }): Promise<MessageRow | null> {
      const ids = input.attachmentIds ?? [];
      const inbound = input.inboundMailId ?? null;
      const [row] = await queryRows<RawMessage & { owner_id: string }>(
        db,
        sql`
        with t as (
          update support_tickets set last_message = clock_timestamp()
          where id = ${input.ticketId} and open
            and (${input.ownerId}::uuid is null or user_id = ${input.ownerId}::uuid)
            and (${input.seenVersion ?? null}::bigint is null or version = ${input.seenVersion ?? null}::bigint)
            and (${input.clientId}::text is null or not exists (
              select 1 from ticket_messages where ticket_id = ${input.ticketId} and client_id = ${input.clientId}::text))
            -- A mail is posted once, and not after an admin discarded it.
            and (${inbound}::bigint is null or exists (
              select 1 from inbound_mail where id = ${inbound}::bigint and state in ('processing', 'held')))
          returning id, user_id, last_message
        ), m as (
          -- The message time is the ticket's new last-message time, taken after the row lock.
          insert into ticket_messages (ticket_id, message_body, user_id, admin, client_id, timestamp, inbound_mail_id)
          select t.id, ${input.body}, ${input.authorId}, ${input.admin}, ${input.clientId}::text, t.last_message, ${inbound}::bigint from t
          on conflict (ticket_id, client_id) where client_id is not null do nothing
          returning id, ticket_id, message_body, timestamp, admin, internal, user_id, inbound_mail_id, ticket_version
        ), i as (
          update inbound_mail set state = 'posted', reason = null, ticket_id = m.ticket_id, posted_message_id = m.id,
            lease_until = null, last_error = null, decided_at = now()
          from m where inbound_mail.id = m.inbound_mail_id
        ), e as (
          -- An answer waits for the user to see it live; answers within the wait join the pending one.
          -- DO UPDATE, not DO NOTHING: it waits for a worker that is composing the pending notice
          -- right now (holding its row), and once that notice is gone it inserts a new one. With DO
          -- NOTHING an answer committed mid-compose joined a notice that had already read its answers,
          -- and went untold (found by the PostgreSQL kill -9 loop: 6 of 2,049).
          insert into notification_events (kind, ticket_id, message_id, due_at)
          select case when m.admin then 'ticket-reply' else 'team-user-reply' end, m.ticket_id, m.id,
                 case when m.admin then now() + make_interval(secs => ${notifyDelaySeconds}) else now() end
          from m
          on conflict (ticket_id) where kind = 'ticket-reply'
          do update set message_id = least(notification_events.message_id, excluded.message_id)
        )${ids.length > 0 ? sql`, ${claimPendingAttachments(ids, input.authorId)}` : sql``}
        select m.*, (select email from users where id = m.user_id) as author_email, t.user_id as owner_id,
          ${ids.length > 0 ? claimedAttachmentsJson : sql`'[]'::json`} as attachments
        from m join t on t.id = m.ticket_id`,
      );
      if (!row) return null;
      const message = toMessage(row);
      await announceAfterCommit(db, {
        type: 'message.created',
        ticketId: message.ticketId,
        userId: row.owner_id,
        messageId: message.id,
      });
      return message;
    },

    /**
     * The owner's page saw these answers (modules/notifications mails only the ones after the
     * ticket's `owner_seen_message_id`). The mark moves to the newest reported answer up to which
     * every answer after the old mark was reported too: an answer that never came into view keeps
     * the mark before it, so it and everything after it are still mailed. Ids that are not this
     * ticket's answers (a note, another ticket's message, nothing) move nothing. Ownership is part
     * of the statement: null when the ticket is not the owner's (or not there).
     */
    async markOwnerSeen(ticketId: string, ownerId: string, messageIds: number[]): Promise<number | null> {
      const ids = sql`${`{${messageIds.join(',')}}`}::bigint[]`;
      const [row] = await queryRows<{ seen: string | number }>(
        db,
        sql`
        with t as (
          select id, owner_seen_message_id as mark from support_tickets
          where id = ${ticketId} and user_id = ${ownerId} for no key update
        ), answers as (
          select m.id, m.id = any(${ids}) as reported from ticket_messages m, t
          where m.ticket_id = t.id and m.admin and not m.internal and m.id > t.mark
        ), upto as (
          select coalesce(max(a.id), 0) as id from answers a
          where a.reported and not exists (select 1 from answers b where b.id < a.id and not b.reported)
        ), u as (
          update support_tickets s set owner_seen_message_id = upto.id
          from t, upto where s.id = t.id and upto.id > t.mark
          returning s.owner_seen_message_id as seen
        )
        select coalesce((select seen from u), t.mark) as seen from t`,
      );
      return row ? Number(row.seen) : null;
    },

    /**
     * A line the system writes into an open ticket's thread (`systemEvent`, e.g. 'auto-closed'):
     * stored under the ticket's owner but nobody's message (not an answer, not the customer's; the
     * service-level triggers and the mail pass it by), after the ticket's row lock like a reply, so
     * ids still rise in commit order. Its live announcement fires on commit. Null when the ticket is
     * not open (or not there).
     */
    async insertSystemLine(ticketId: string, systemEvent: string, body: string): Promise<MessageRow | null> {
      const [row] = await queryRows<RawMessage>(
        db,
        sql`
        with t as (
          select id, user_id from support_tickets where id = ${ticketId} and open for no key update
        ), m as (
          insert into ticket_messages (ticket_id, message_body, user_id, admin, system_event, timestamp)
          select t.id, ${body}, t.user_id, false, ${systemEvent}, clock_timestamp() from t
          returning id, ticket_id, message_body, timestamp, admin, internal, user_id, inbound_mail_id, system_event, ticket_version
        )
        select m.*, null as author_email, '[]'::json as attachments,
          pg_notify(${EVENTS_CHANNEL}, json_build_object('type', 'message.created', 'ticketId', m.ticket_id,
            'userId', m.user_id, 'messageId', m.id)::text)
        from m`,
      );
      return row ? toMessage(row) : null;
    },

    /** The ticket that an address means now: the end of its chain of merges (itself when never merged). */
    async resolveMerged(ticketId: string): Promise<string> {
      if (!isUuid(ticketId)) return ticketId;
      const [row] = await queryRows<{ id: string }>(
        db,
        sql`with recursive chain (id, merged_into_id, hops) as (
              select id, merged_into_id, 0 from support_tickets where id = ${ticketId}::uuid
              union all
              select t.id, t.merged_into_id, c.hops + 1 from support_tickets t
              join chain c on t.id = c.merged_into_id where c.hops < ${MAX_HOPS}
            )
            select id from chain order by hops desc limit 1`,
      );
      return row?.id ?? ticketId;
    },

    /**
     * The owner's rating of a closed ticket: the first one, or a change within 7 days of it.
     * Raw SQL: ownership, "closed" and the 7-day window are checked in the same statement as the
     * write, so a reopen or a late change cannot slip in between. Returns false when refused.
     */
    async rate(ticketId: string, ownerId: string, good: boolean, comment: string | null): Promise<boolean> {
      const rows = await queryRows<{ ticket_id: string }>(
        db,
        sql`
        with r as (
          insert into ticket_ratings (ticket_id, good, comment)
          select t.id, ${good}, ${comment}::text from support_tickets t
          where t.id = ${ticketId} and t.user_id = ${ownerId} and not t.open
          on conflict (ticket_id) do update set good = excluded.good, comment = excluded.comment, updated_at = now()
          where ticket_ratings.rated_at > now() - make_interval(days => ${RATING_CHANGEABLE_DAYS})
          returning ticket_id
        )
        select r.ticket_id, pg_notify(${EVENTS_CHANNEL}, json_build_object('type', 'ticket.updated', 'ticketId', r.ticket_id, 'userId', ${ownerId}::text)::text)
        from r`,
      );
      return rows.length > 0;
    },

    /**
     * Opens or closes a ticket; notifies only when the state changed. The owner's mail about it
     * ('ticket-closed' or 'ticket-reopened') waits as long as an answer's does, and the opposite
     * change within that wait withdraws it rather than adding its own: a close undone at once tells
     * nothing, and close, reopen, close tells one close.
     * - A close takes the pending answer notice with it (the `r` delete): the closed mail quotes the
     *   answers the owner has not seen, so an answer sent with the close is never told only as
     *   "was closed", and the two make one mail. The close's notice keeps where those answers
     *   start (`message_id`); a reopen that withdraws it gives them back as an answer notice (`b`),
     *   so undoing the close never undoes the answer. Like the withdrawal, the `r` delete waits for
     *   a worker composing that answer notice right now; once it is gone, mailed, the close takes
     *   nothing.
     * - The withdrawal is a DELETE in the change's own statement: it waits for a worker composing
     *   that very notice right now (holding its row), and once that notice is gone, mailed, it
     *   withdraws nothing and this change is told in turn.
     * - The ticket's row is locked first, by a statement of its own (NO KEY UPDATE, as the change
     *   itself takes, so the worker's inserts that reference the ticket are not held up): the
     *   change's statement then starts after a concurrent change has committed, and sees the ticket
     *   and the notice that one left. Alone, its snapshot would predate that change: a reopen racing
     *   a close would find the ticket still open and do nothing.
     */
    async setOpen(ticketId: string, open: boolean, seenVersion?: number): Promise<TicketRow | 'stale' | null> {
      const changed = await inTransaction(db, async (tx) => {
        const [locked] = await queryRows<{ version: unknown }>(
          tx,
          sql`select version from support_tickets where id = ${ticketId} for no key update`,
        );
        // A staff write against a version the ticket has moved on from (decision 140): nothing changes.
        if (locked && seenVersion !== undefined && Number(locked.version) !== seenVersion) return 'stale' as const;
        const [row] = await setOpenOf(tx, [ticketId], open);
        return row;
      });
      if (changed === 'stale') return changed;
      return changed ? toTicket(changed) : this.findTicket(ticketId, null);
    },

    /**
     * Opens or closes each of `ticketIds` that is not so yet, in one statement (a bulk action on the
     * inbox: docs/decisions/143-bulk-actions.md): what setOpen does to one ticket, the owner's mail
     * included. The caller's transaction has locked the tickets' rows first, as setOpen does. The
     * tickets changed, with their new version.
     */
    async setOpenAll(ticketIds: readonly string[], open: boolean): Promise<RawTicket[]> {
      return ticketIds.length === 0 ? [] : setOpenOf(db, ticketIds, open);
    },
  };
}

export type SupportRepository = ReturnType<typeof createSupportRepository>;
