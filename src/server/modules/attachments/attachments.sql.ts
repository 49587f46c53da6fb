import { type SQL, sql } from 'drizzle-orm';
import type { AttachmentKind } from '../../../contracts/attachments.ts';

/**
 * The attachments module's SQL that the support module's message statements include, so that a
 * message and its files commit in one statement (docs/decisions/095-chat-attachments.md). The
 * table stays this module's: the support module composes these fragments, never writes its own.
 */

/** A file on a message, as the message carries it (this module serves it). */
export interface AttachmentRef {
  id: string;
  kind: AttachmentKind;
  name: string;
  size: number;
  width: number | null;
  height: number | null;
  /** Whether it has a thumbnail (photos do). */
  thumbnail: boolean;
}

/** A message's files as a JSON array of AttachmentRef, in the order they were sent, from rows `a`. */
const asJson = (rows: SQL) => sql`coalesce((select json_agg(json_build_object(
    'id', a.id, 'kind', a.kind, 'name', a.name, 'size', a.size, 'width', a.width, 'height', a.height,
    'thumbnail', a.thumbnail_key is not null) order by a.created_at, a.id) from ${rows}), '[]'::json)`;

/** The files of message `m` (one index probe on ticket_attachments_message_idx). */
export const messageAttachmentsJson = sql`${asJson(sql`ticket_attachments a where a.message_id = m.id`)}`;

/** The files a CTE made by `claimPendingAttachments` claimed. */
export const claimedAttachmentsJson = asJson(sql`a`);

/**
 * A CTE `a` that gives message `m` (a CTE of the enclosing statement, with `id` and `ticket_id`) the
 * pending files its author sent with it. Ids that are not that author's pending files are ignored.
 */
export const claimPendingAttachments = (ids: string[], authorId: string) => sql`a as (
  update ticket_attachments set ticket_id = m.ticket_id, message_id = m.id from m
  where ticket_attachments.id in (select value::uuid from json_array_elements_text(${JSON.stringify(ids)}::json))
    and ticket_attachments.message_id is null and ticket_attachments.user_id = ${authorId}
  returning ticket_attachments.*
)`;
