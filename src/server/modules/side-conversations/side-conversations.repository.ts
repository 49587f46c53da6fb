import { type SQL, sql } from 'drizzle-orm';
import type { AppDatabase } from '../../db/connection.ts';
import { queryRows } from '../../db/sql.ts';
import { announceAfterCommit } from '../../realtime/event-bus.ts';

/**
 * The side conversations' statements. A ticket's conversations are read with those of every ticket
 * merged into it (its chain of merges, followed down `merged_into_id`): a conversation stays bound to
 * the ticket it was started on, so a merge shows it on the target and an undo takes it back with no
 * statement of its own.
 */
export interface SideRow {
  id: string;
  ticket_id: string;
  counterpart: string;
  subject: string;
  state: 'waiting' | 'answered' | 'closed';
  created_by_email: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A file a side message carried (`index`: its place among a reply's mail's files). */
export interface SideFile {
  name: string;
  size: number;
  index?: number;
}

export interface SideMessageRow {
  id: number | string;
  conversation_id: string;
  direction: 'out' | 'in';
  author_email: string | null;
  body: string;
  inbound_mail_id: number | string | null;
  files: SideFile[] | null;
  created_at: Date | string;
}

export interface SideOfToken {
  id: string;
  ticketId: string;
  counterpart: string;
  state: 'waiting' | 'answered' | 'closed';
}

/** The ticket and every ticket merged into it, at any depth. */
const chainOf = (ticketId: string): SQL =>
  sql`(with recursive chain(id) as (
         select ${ticketId}::uuid
         union select t.id from support_tickets t join chain c on t.merged_into_id = c.id)
       select id from chain)`;

const CONVERSATION = sql`c.id, c.ticket_id, c.counterpart, c.subject, c.state, u.email as created_by_email, c.created_at, c.updated_at`;

export function createSideRepository(db: AppDatabase) {
  return {
    /** The ticket a conversation may be started on: its number, its customer's address, where its merges end. */
    async findTicket(ticketId: string) {
      const [row] = await queryRows<{
        id: string;
        ticket_no: number;
        owner_email: string;
        merged_into_id: string | null;
      }>(
        db,
        sql`select t.id, t.ticket_no, u.email as owner_email, t.merged_into_id
            from support_tickets t join users u on u.id = t.user_id where t.id = ${ticketId}::uuid`,
      );
      return row ? { ...row, ticket_no: Number(row.ticket_no) } : null;
    },

    async listForTicket(ticketId: string): Promise<{ conversations: SideRow[]; messages: SideMessageRow[] }> {
      const conversations = await queryRows<SideRow>(
        db,
        sql`select ${CONVERSATION} from side_conversations c left join users u on u.id = c.created_by
            where c.ticket_id in ${chainOf(ticketId)} order by c.created_at, c.id`,
      );
      if (conversations.length === 0) return { conversations, messages: [] };
      const ids = `{${conversations.map((c) => c.id).join(',')}}`;
      const messages = await queryRows<SideMessageRow>(
        db,
        sql`select m.id, m.conversation_id, m.direction, u.email as author_email, m.body, m.inbound_mail_id, m.files,
              m.created_at
            from side_conversation_messages m left join users u on u.id = m.author_id
            where m.conversation_id = any(${ids}::uuid[]) order by m.id`,
      );
      return { conversations, messages };
    },

    async findConversation(id: string): Promise<SideRow | null> {
      const [row] = await queryRows<SideRow>(
        db,
        sql`select ${CONVERSATION} from side_conversations c left join users u on u.id = c.created_by where c.id = ${id}::uuid`,
      );
      return row ?? null;
    },

    /** A reply address's side conversation, by the token's hash (the inbound receiver and worker ask). */
    async findByTokenHash(tokenHash: string): Promise<SideOfToken | null> {
      const [row] = await queryRows<{
        id: string;
        ticket_id: string;
        counterpart: string;
        state: SideOfToken['state'];
      }>(
        db,
        sql`select c.id, c.ticket_id, c.counterpart, c.state from side_conversation_tokens k
            join side_conversations c on c.id = k.conversation_id where k.token_hash = ${tokenHash}`,
      );
      return row ? { id: row.id, ticketId: row.ticket_id, counterpart: row.counterpart, state: row.state } : null;
    },

    /** Messages of the ticket (its chain) quoted in a new conversation: the customer's and the team's answers, never notes. */
    async quotable(ticketId: string, ids: number[]) {
      if (ids.length === 0) return [];
      return queryRows<{ id: number; admin: boolean; message_body: string; timestamp: Date | string }>(
        db,
        sql`select id, admin, message_body, timestamp from ticket_messages
            where id = any(${`{${ids.join(',')}}`}::bigint[]) and ticket_id in ${chainOf(ticketId)}
              and not internal and system_event is null
            order by id`,
      );
    },

    /** Files of the ticket's messages (its chain), attached to a new conversation's mail. */
    async attachable(ticketId: string, ids: string[]) {
      if (ids.length === 0) return [];
      return queryRows<{ id: string; name: string; kind: string; size: number; storage_key: string }>(
        db,
        sql`select id, name, kind, size, storage_key from ticket_attachments
            where id = any(${`{${ids.join(',')}}`}::uuid[]) and message_id is not null
              and ticket_id in ${chainOf(ticketId)}
            order by created_at, id`,
      );
    },

    async agentName(userId: string): Promise<string | null> {
      const [row] = await queryRows<{ name: string | null }>(
        db,
        sql`select name from users where id = ${userId}::uuid`,
      );
      return row?.name ?? null;
    },

    async insertConversation(input: {
      ticketId: string;
      counterpart: string;
      subject: string;
      createdBy: string;
    }): Promise<string> {
      const [row] = await queryRows<{ id: string }>(
        db,
        sql`insert into side_conversations (ticket_id, counterpart, subject, created_by)
            values (${input.ticketId}::uuid, ${input.counterpart}, ${input.subject}, ${input.createdBy}::uuid)
            returning id`,
      );
      return row!.id;
    },

    async insertToken(conversationId: string, tokenHash: string): Promise<void> {
      await db.execute(
        sql`insert into side_conversation_tokens (token_hash, conversation_id) values (${tokenHash}, ${conversationId}::uuid)`,
      );
    },

    /**
     * An outgoing message, in a conversation that is not closed (checked by the statement itself, so
     * a close that commits first wins); the conversation waits on them again. Null when closed.
     */
    async insertOutgoing(input: {
      conversationId: string;
      authorId: string;
      body: string;
      files: SideFile[];
    }): Promise<number | null> {
      const [row] = await queryRows<{ id: number | string }>(
        db,
        sql`with open as (
              update side_conversations set state = 'waiting', updated_at = now()
              where id = ${input.conversationId}::uuid and state <> 'closed' returning id)
            insert into side_conversation_messages (conversation_id, direction, author_id, body, files)
            select id, 'out', ${input.authorId}::uuid, ${input.body}, ${JSON.stringify(input.files)}::jsonb
            from open returning id`,
      );
      return row ? Number(row.id) : null;
    },

    async setMailMessageId(messageId: number, mailMessageId: string): Promise<void> {
      await db.execute(
        sql`update side_conversation_messages set mail_message_id = ${mailMessageId} where id = ${messageId}`,
      );
    },

    async close(id: string): Promise<boolean> {
      const rows = await queryRows<{ id: string }>(
        db,
        sql`update side_conversations set state = 'closed', closed_at = now(), updated_at = now()
            where id = ${id}::uuid and state <> 'closed' returning id`,
      );
      return rows.length > 0;
    },

    /**
     * Posts a reply by mail, and marks the received mail posted, in one statement (as a reply to a
     * ticket is): the mail must still be in the state this try expects (`processing` for the worker,
     * `held` for an admin's Post), so two tries never both post; a second try of the same mail finds
     * the message its first one posted (the unique index on `inbound_mail_id`). The conversation
     * moves to 'answered' unless it was closed since.
     */
    async postFromMail(input: {
      conversationId: string;
      ticketId: string;
      inboundId: number;
      body: string;
      files: SideFile[];
      expect: 'processing' | 'held';
      details: Record<string, unknown>;
      decidedBy: string | null;
    }): Promise<{ messageId: number } | null> {
      const [row] = await queryRows<{ id: number | string }>(
        db,
        sql`with mail as (
              update inbound_mail set state = 'posted', reason = null, ticket_id = ${input.ticketId}::uuid,
                side_conversation_id = ${input.conversationId}::uuid, details = ${JSON.stringify(input.details)}::jsonb,
                lease_until = null, last_error = null, decided_at = now(), decided_by = ${input.decidedBy}::uuid
              where id = ${input.inboundId} and state = ${input.expect} returning id),
            message as (
              insert into side_conversation_messages (conversation_id, direction, body, inbound_mail_id, files)
              select ${input.conversationId}::uuid, 'in', ${input.body}, id, ${JSON.stringify(input.files)}::jsonb from mail
              on conflict (inbound_mail_id) do nothing returning id),
            answered as (
              update side_conversations set state = 'answered', updated_at = now()
              where id = ${input.conversationId}::uuid and state <> 'closed' and exists (select 1 from message)
              returning id)
            select m.id from message m`,
      );
      return row ? { messageId: Number(row.id) } : null;
    },

    /** The message an earlier try of this mail posted. */
    async findPostedFrom(inboundId: number): Promise<number | null> {
      const [row] = await queryRows<{ id: number | string }>(
        db,
        sql`select id from side_conversation_messages where inbound_mail_id = ${inboundId}`,
      );
      return row ? Number(row.id) : null;
    },

    async findRawOfMessage(conversationId: string, messageId: number): Promise<Buffer | null> {
      const [row] = await queryRows<{ raw: unknown }>(
        db,
        sql`select i.raw from side_conversation_messages m join inbound_mail i on i.id = m.inbound_mail_id
            where m.id = ${messageId} and m.conversation_id = ${conversationId}::uuid and i.raw is not null`,
      );
      if (!row) return null;
      return Buffer.isBuffer(row.raw) ? row.raw : Buffer.from(row.raw as Uint8Array);
    },

    /**
     * Tells the team's pages open on the ticket (the end of its merges) that its side conversations
     * changed, once the change has committed (an event is only a nudge: a lost one costs a reload,
     * and a NOTIFY inside the durable write would make commits queue for the disk one at a time,
     * event-bus.ts). No customer's stream hears it.
     */
    async announce(ticketId: string): Promise<void> {
      const [row] = await queryRows<{ id: string }>(
        db,
        sql`with recursive up(id, next, depth) as (
              select id, merged_into_id, 0 from support_tickets where id = ${ticketId}::uuid
              union all select t.id, t.merged_into_id, up.depth + 1 from support_tickets t join up on t.id = up.next
              where up.depth < 100)
            select id from up where next is null limit 1`,
      );
      await announceAfterCommit(db, { type: 'side.changed', ticketId: row?.id ?? ticketId, userId: '' });
    },
  };
}
