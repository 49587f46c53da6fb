import { sql } from 'drizzle-orm';
import { iso } from '../../db/sql.ts';
import { waitingOn, type WaitingOn } from '../../../contracts/support.ts';
import type { DueTime, TicketDue } from '../../../contracts/support.schemas.ts';
import { type AttachmentRef, messageAttachmentsJson } from '../attachments/index.ts';

/**
 * The support tables' rows as the module hands them on (tickets, ratings, messages), how a raw SQL
 * row becomes one, and the column lists the queries select.
 */

export interface TicketRow {
  id: string;
  ticketNo: number;
  reason: string;
  open: boolean;
  creationDate: string;
  lastMessage: string;
  userId: string;
  /** Who the ticket waits for (contracts/support.ts waitingOn): from who wrote its newest message. */
  waitingOn: WaitingOn | null;
  closedAt: string | null;
  rating: RatingRow | null;
  /** A privacy request: a Deactivation ticket, or one an admin marked. */
  privacy: boolean;
  /** An admin marked its messages as needed for the record (they outlive the owner's erasure). */
  keepForRecord: boolean;
  /** The ticket this one carries on from, and those that carry on from it ('Still need help?'). */
  follows: TicketLinkRow | null;
  continuedIn: TicketLinkRow[];
  /** Its version (decision 140): a staff write names the one it was written against. */
  version: number;
}

export interface TicketLinkRow {
  id: string;
  ticketNo: number;
}

export interface RatingRow {
  good: boolean;
  comment: string | null;
  ratedAt: string;
}

export interface AdminTicketRow extends TicketRow {
  userEmail: string;
  userName: string | null;
  unanswered: boolean;
  assignee: { id: string; email: string } | null;
  /** When an admin first answered (not a note); null until then. */
  firstResponseAt: string | null;
  /** The open wait's next due time (contracts/support.ts TicketDue); null when nothing is due. */
  due: TicketDue | null;
  /** The open wait's due times, response first, then resolution; empty when nothing is due. */
  dueTimes: DueTime[];
  /** The first line of the customer's first message (contracts/support.ts firstLineOf). */
  firstLine: string;
  /** The team's labels on it, by name. */
  labels: Array<{ id: string; name: string }>;
  /** The delivery it is about, as staff gave it (docs/decisions/151-delivery-card.md). */
  deliveryReference: string | null;
}

export interface MessageRow {
  id: number;
  ticketId: string;
  messageBody: string;
  timestamp: string;
  admin: boolean;
  /** An admins-only note (never given to the owner). */
  internal: boolean;
  userId: string;
  authorEmail: string | null;
  /** Its files, in the order they were sent. */
  attachments: AttachmentRef[];
  /** Posted from a mail (modules/inbound): the whole mail can be opened. */
  byEmail: boolean;
  /** A line the system wrote (e.g. 'auto-closed'), not a person's message; null for people's messages. */
  systemEvent: string | null;
  /** The ticket's version this message made (decision 140). */
  ticketVersion: number;
}

export type RawTicket = {
  id: string;
  ticket_no: number;
  reason: string;
  open: boolean;
  creation_date: unknown;
  last_message: unknown;
  user_id: string;
  last_admin?: boolean | null;
  closed_at?: unknown;
  rating?: { good: boolean; comment: string | null; rated_at: string } | null;
  privacy?: boolean;
  keep_for_record?: boolean;
  follows?: { id: string; ticket_no: number } | null;
  continued_in?: { id: string; ticket_no: number }[] | null;
  version?: unknown;
};
const toLink = (link: { id: string; ticket_no: number }): TicketLinkRow => ({
  id: link.id,
  ticketNo: Number(link.ticket_no),
});
export const toTicket = (r: RawTicket): TicketRow => ({
  id: r.id,
  ticketNo: Number(r.ticket_no),
  reason: r.reason,
  open: r.open,
  creationDate: iso(r.creation_date),
  lastMessage: iso(r.last_message),
  userId: r.user_id,
  waitingOn: waitingOn(r.open, r.last_admin),
  closedAt: r.closed_at ? iso(r.closed_at) : null,
  rating: r.rating ? { good: r.rating.good, comment: r.rating.comment, ratedAt: iso(r.rating.rated_at) } : null,
  privacy: r.privacy === true,
  keepForRecord: r.keep_for_record === true,
  follows: r.follows ? toLink(r.follows) : null,
  continuedIn: (r.continued_in ?? []).map(toLink),
  version: Number(r.version ?? 0),
});

export type RawMessage = {
  id: unknown;
  ticket_id: string;
  message_body: string;
  timestamp: unknown;
  admin: boolean;
  internal?: boolean;
  user_id: string;
  author_email?: string | null;
  attachments?: AttachmentRef[] | null;
  inbound_mail_id?: unknown;
  system_event?: string | null;
  ticket_version?: unknown;
};
export const toMessage = (r: RawMessage): MessageRow => ({
  id: Number(r.id),
  ticketId: r.ticket_id,
  messageBody: r.message_body,
  timestamp: iso(r.timestamp),
  admin: r.admin,
  internal: r.internal === true,
  userId: r.user_id,
  authorEmail: r.author_email ?? null,
  attachments: r.attachments ?? [],
  byEmail: r.inbound_mail_id !== null && r.inbound_mail_id !== undefined,
  systemEvent: r.system_event ?? null,
  ticketVersion: Number(r.ticket_version ?? 0),
});

/**
 * A ticket's columns, with who wrote its newest message that the owner sees (notes do not count, nor
 * do the lines a merge or a split writes, which are nobody's: one index probe on ticket_messages_ticket_idx), the owner's rating, and its links: the ticket it
 * follows (a primary key probe) and those following it (always the same owner's, so a probe of
 * support_tickets_user_idx: follows_ticket_id has no index of its own).
 */
export const TICKET_COLUMNS = sql`t.id, t.ticket_no, t.reason, t.open, t.creation_date, t.last_message, t.user_id, t.closed_at, t.version,
  (t.reason = 'Deactivation' or t.privacy_request) as privacy, t.keep_for_record,
  (select m.admin from ticket_messages m where m.ticket_id = t.id and not m.internal and m.system_event is null
    order by m.id desc limit 1) as last_admin,
  (select json_build_object('good', r.good, 'comment', r.comment, 'rated_at', r.rated_at)
     from ticket_ratings r where r.ticket_id = t.id) as rating,
  (select json_build_object('id', p.id, 'ticket_no', p.ticket_no)
     from support_tickets p where p.id = t.follows_ticket_id) as follows,
  (select json_agg(json_build_object('id', f.id, 'ticket_no', f.ticket_no) order by f.ticket_no)
     from support_tickets f where f.user_id = t.user_id and f.follows_ticket_id = t.id) as continued_in`;
export const MESSAGE_COLUMNS = sql`m.id, m.ticket_id, m.message_body, m.timestamp, m.admin, m.internal, m.user_id, m.inbound_mail_id,
  m.system_event, m.ticket_version, ${messageAttachmentsJson} as attachments`;
