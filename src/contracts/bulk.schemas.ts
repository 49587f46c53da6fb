import { BULK_ACTIONS, BULK_MAX_TICKETS, BULK_OUTCOMES, BULK_TEXT } from './bulk.ts';
import { z } from './zod.ts';

/** The schemas of bulk.ts (its texts load in the inbox without zod: decision 119). */

const TicketRef = z.object({ id: z.uuid(), version: z.number().int().nonnegative() });

export const BulkBodySchema = z.object({
  action: z.enum(BULK_ACTIONS, { error: BULK_TEXT.actionMissing }),
  tickets: z.array(TicketRef).min(1, BULK_TEXT.noneTicked).max(BULK_MAX_TICKETS, BULK_TEXT.tooMany),
  /** assign: 'me', an admin's id, or null for nobody. */
  assignee: z.union([z.literal('me'), z.uuid(), z.null()]).optional(),
  /** label: the label to add. */
  labelId: z.uuid({ error: BULK_TEXT.labelMissing }).optional(),
  /** macro: the saved reply whose actions (never its reply) are applied to each ticket. */
  savedReplyId: z.uuid({ error: BULK_TEXT.macroMissing }).optional(),
});
export type BulkBody = z.infer<typeof BulkBodySchema>;

export const BulkResultSchema = z.object({
  bulkId: z.string().nullable(),
  action: z.enum(BULK_ACTIONS),
  results: z.array(
    z.object({ ticketId: z.string(), ticketNo: z.number().int().nullable(), outcome: z.enum(BULK_OUTCOMES) }),
  ),
  /** Until when Undo takes it back (ISO); null when nothing was done. */
  undoUntil: z.string().nullable(),
});
export type BulkResult = z.infer<typeof BulkResultSchema>;

export const BulkParamsSchema = z.object({ bulkId: z.string().max(64) });
export const BulkUndoResultSchema = z.object({
  results: z.array(z.object({ ticketId: z.string(), ticketNo: z.number().int(), outcome: z.enum(BULK_OUTCOMES) })),
});
export type BulkUndoResult = z.infer<typeof BulkUndoResultSchema>;
