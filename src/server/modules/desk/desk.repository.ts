import { holdsPermission } from '../../db/staff.ts';
import { asc, eq, sql } from 'drizzle-orm';
import { supportTickets, users } from '../../db/schema.ts';
import { type AppDatabase } from '../../db/connection.ts';
import { pgArray, queryRows } from '../../db/sql.ts';
import type { FirstSteps } from '../../../contracts/desk.schemas.ts';
import { announceAfterCommit, EVENTS_CHANNEL } from '../../realtime/event-bus.ts';
import { type MessageRow, type RawMessage, toMessage } from '../support/index.ts';

/**
 * The desk's tools over tickets: notes, assignment, the privacy and keep-for-record marks, and the inbox's figures
 * (first response and resolution medians, share of good ratings). Each change that others watch
 * announces itself in its own statement, so the event fires exactly on commit.
 */

export interface DeskFigures {
  /** Median minutes from a ticket's creation to the first answer (not a note), tickets created in 7 days. */
  firstResponseMedianMinutes: number | null;
  /** Median minutes from creation to close, tickets closed in 7 days. */
  resolutionMedianMinutes: number | null;
  good7: number;
  rated7: number;
  good30: number;
  rated30: number;
}

export function createDeskRepository(db: AppDatabase) {
  return {
    /**
     * Stores an admins-only note on a ticket, open or closed. Raw SQL: one statement, so a retried
     * clientId is stored once. A note moves neither the ticket's last-message time nor its status,
     * and records no notification: the owner is never told of it.
     */
    async insertNote(input: {
      ticketId: string;
      authorId: string;
      body: string;
      clientId: string | null;
      /** Stored only while the ticket is still at this version (decision 140); checked under its row lock. */
      seenVersion?: number;
    }): Promise<MessageRow | null> {
      const seen = input.seenVersion ?? null;
      const [row] = await queryRows<RawMessage & { owner_id: string }>(
        db,
        sql`
        with m as (
          insert into ticket_messages (ticket_id, message_body, user_id, admin, internal, client_id, timestamp)
          select t.id, ${input.body}, ${input.authorId}, true, true, ${input.clientId}::text, clock_timestamp()
          from support_tickets t
          where t.id = ${input.ticketId} and (${seen}::bigint is null or t.version = ${seen}::bigint)
          for no key update of t
          on conflict (ticket_id, client_id) where client_id is not null do nothing
          returning id, ticket_id, message_body, timestamp, admin, internal, user_id, ticket_version
        )
        select m.*, (select email from users where id = m.user_id) as author_email from m`,
      );
      if (!row) return null;
      const message = toMessage(row);
      // Announced like a message, with no owner: admins' streams only; no user's list is refreshed.
      await announceAfterCommit(db, {
        type: 'message.created',
        ticketId: message.ticketId,
        userId: '',
        messageId: message.id,
      });
      return message;
    },

    /**
     * Assigns a ticket to an admin (or to nobody). Raw SQL: the assignee must be an admin at that
     * moment, checked in the same statement, and the change is announced on commit. Returns
     * false when the ticket does not exist or the assignee is not an admin.
     */
    async assign(ticketId: string, assigneeId: string | null, seenVersion?: number): Promise<boolean | 'stale'> {
      const seen = seenVersion ?? null;
      const rows = await queryRows<{ id: string }>(
        db,
        sql`
        with t as (
          update support_tickets set assigned_to = ${assigneeId}::uuid
          where id = ${ticketId}
            and (${seen}::bigint is null or version = ${seen}::bigint)
            and (${assigneeId}::uuid is null or ${holdsPermission(sql`${assigneeId}::uuid`, 'tickets.write')})
          returning id, user_id
        )
        select t.id, pg_notify(${EVENTS_CHANNEL}, json_build_object('type', 'ticket.updated', 'ticketId', t.id, 'userId', '')::text)
        from t`,
      );
      if (rows.length > 0) return true;
      // Not assigned: the ticket moved on since the version the caller saw (decision 140), or no such admin.
      if (seen === null) return false;
      const [now] = await queryRows<{ version: unknown }>(
        db,
        sql`select version from support_tickets where id = ${ticketId}`,
      );
      return now && Number(now.version) !== seen ? 'stale' : false;
    },

    /**
     * Assigns each of `ticketIds` not assigned so yet to `assigneeId` (an active admin) or nobody,
     * in one statement (a bulk action; the caller's transaction locked the rows and checked their
     * versions). The tickets changed, with their new version; none when the assignee is no active admin.
     */
    async assignAll(
      ticketIds: readonly string[],
      assigneeId: string | null,
    ): Promise<Array<{ id: string; version: number }>> {
      if (ticketIds.length === 0) return [];
      const rows = await queryRows<{ id: string; version: unknown }>(
        db,
        sql`
        with t as (
          update support_tickets set assigned_to = ${assigneeId}::uuid
          where id = any(${pgArray(ticketIds)}::uuid[]) and assigned_to is distinct from ${assigneeId}::uuid
            and (${assigneeId}::uuid is null or ${holdsPermission(sql`${assigneeId}::uuid`, 'tickets.write')})
          returning id, version
        )
        select t.id, t.version, pg_notify(${EVENTS_CHANNEL}, json_build_object('type', 'ticket.updated', 'ticketId', t.id, 'userId', '')::text)
        from t`,
      );
      return rows.map((row) => ({ id: row.id, version: Number(row.version) }));
    },

    /** Marks a ticket's messages as needed for the record (or not); announced after commit. False when there is no such ticket. */
    async setKeepForRecord(ticketId: string, keep: boolean): Promise<boolean> {
      const rows = await db
        .update(supportTickets)
        .set({ keepForRecord: keep })
        .where(eq(supportTickets.id, ticketId))
        .returning({ id: supportTickets.id });
      if (rows.length > 0) await announceAfterCommit(db, { type: 'ticket.updated', ticketId, userId: '' });
      return rows.length > 0;
    },

    /** Marks a ticket a privacy request (or not); announced on commit. False when there is no such ticket. */
    async setPrivacyRequest(ticketId: string, privacy: boolean): Promise<boolean> {
      const rows = await queryRows<{ id: string }>(
        db,
        sql`
        with t as (
          update support_tickets set privacy_request = ${privacy} where id = ${ticketId} returning id
        )
        select t.id, pg_notify(${EVENTS_CHANNEL}, json_build_object('type', 'ticket.updated', 'ticketId', t.id, 'userId', '')::text)
        from t`,
      );
      return rows.length > 0;
    },

    /**
     * Gives a ticket its delivery reference (null: none). Raw SQL: a change is a new version of the
     * ticket, as a change of its reason is (decision 140; migration 0024's trigger does not watch
     * this column, so the statement takes the next version itself), and is announced on commit.
     * Returns the reference it had, 'same' when it already had this one (nothing changed), or null
     * when there is no such ticket.
     */
    async setDeliveryReference(
      ticketId: string,
      reference: string | null,
    ): Promise<{ before: string | null } | 'same' | null> {
      const rows = await queryRows<{ before: string | null }>(
        db,
        sql`
        with old as (
          select id, delivery_reference from support_tickets where id = ${ticketId} for no key update
        ), t as (
          update support_tickets s
          set delivery_reference = ${reference}::text, version = nextval('ticket_version_seq')
          from old
          where s.id = old.id and old.delivery_reference is distinct from ${reference}::text
          returning s.id, old.delivery_reference as before
        )
        select t.before, pg_notify(${EVENTS_CHANNEL}, json_build_object('type', 'ticket.updated', 'ticketId', t.id, 'userId', '')::text)
        from t`,
      );
      const [row] = rows;
      if (row) return { before: row.before };
      const [exists] = await queryRows<{ id: string }>(db, sql`select id from support_tickets where id = ${ticketId}`);
      return exists ? 'same' : null;
    },

    /** Staff who may be assigned tickets: enabled, holding a role that changes tickets (read from the accounts module's tables, never written). */
    async listAgents(): Promise<Array<{ id: string; email: string }>> {
      return db
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(holdsPermission(sql`${users.id}`, 'tickets.write'))
        .orderBy(asc(users.email));
    },

    /** The inbox's figures. Raw SQL: medians (percentile_cont) over intervals. */
    async figures(): Promise<DeskFigures> {
      const [row] = await queryRows<{
        first_response: number | null;
        resolution: number | null;
        good7: unknown;
        rated7: unknown;
        good30: unknown;
        rated30: unknown;
      }>(
        db,
        sql`
        select
          (select percentile_cont(0.5) within group (order by extract(epoch from f.first_at - t.creation_date) / 60)
             from support_tickets t
             cross join lateral (select min(m.timestamp) as first_at from ticket_messages m
                                 where m.ticket_id = t.id and m.admin and not m.internal) f
             where t.creation_date > now() - interval '7 days' and f.first_at is not null) as first_response,
          (select percentile_cont(0.5) within group (order by extract(epoch from t.closed_at - t.creation_date) / 60)
             from support_tickets t
             where not t.open and t.closed_at > now() - interval '7 days') as resolution,
          (select count(*) filter (where good) from ticket_ratings where updated_at > now() - interval '7 days') as good7,
          (select count(*) from ticket_ratings where updated_at > now() - interval '7 days') as rated7,
          (select count(*) filter (where good) from ticket_ratings where updated_at > now() - interval '30 days') as good30,
          (select count(*) from ticket_ratings where updated_at > now() - interval '30 days') as rated30`,
      );
      const minutes = (value: number | null) => (value === null ? null : Math.round(Number(value) * 10) / 10);
      return {
        firstResponseMedianMinutes: minutes(row?.first_response ?? null),
        resolutionMedianMinutes: minutes(row?.resolution ?? null),
        good7: Number(row?.good7 ?? 0),
        rated7: Number(row?.rated7 ?? 0),
        good30: Number(row?.good30 ?? 0),
        rated30: Number(row?.rated30 ?? 0),
      };
    },

    /**
     * A new console's first steps, each read from what is there (other modules' tables, read and
     * never written): the business calendar saved by someone, a second active admin, a saved reply,
     * a public answer from the team on any ticket.
     */
    async firstSteps(): Promise<FirstSteps> {
      const [row] = await queryRows<{ hours: boolean; teammate: boolean; saved: boolean; answered: boolean }>(
        db,
        sql`
        select
          exists (select 1 from business_calendar where updated_by is not null) as hours,
          (select count(*) from users u where ${holdsPermission(sql`u.id`, 'tickets.write')}) > 1 as teammate,
          exists (select 1 from saved_replies) as saved,
          exists (select 1 from ticket_messages
                  where admin and not internal and system_event is null) as answered`,
      );
      return {
        businessHours: Boolean(row?.hours),
        teammate: Boolean(row?.teammate),
        savedReply: Boolean(row?.saved),
        testTicket: Boolean(row?.answered),
      };
    },
  };
}

export type DeskRepository = ReturnType<typeof createDeskRepository>;
