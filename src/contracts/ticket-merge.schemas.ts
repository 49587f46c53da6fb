import { MERGE_MESSAGES } from './ticket-merge.ts';
import { z } from './zod.ts';

/** The schemas of ticket-merge.ts (its texts load on the console's ticket page without zod: decision 119). */

export const MergeTicketSchema = z.object({
  targetTicketId: z.uuid({ error: MERGE_MESSAGES.chooseTarget }),
  /** The merged ticket's version as the agent saw it (docs/decisions/140-stale-writes-stopped.md). */
  seenVersion: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});

/** The tickets a ticket may be merged into: its owner's others, not merged themselves, newest first. */
export const MergeTargetsSchema = z.object({
  tickets: z.array(
    z.object({
      id: z.string(),
      ticketNo: z.number().int(),
      reason: z.string(),
      open: z.boolean(),
      lastMessage: z.string(),
      /** The first line of the customer's first message in it (support.ts firstLineOf). */
      firstLine: z.string(),
    }),
  ),
});
export type MergeTarget = z.infer<typeof MergeTargetsSchema>['tickets'][number];

export const MergeResultSchema = z.object({
  targetTicketId: z.string(),
  targetTicketNo: z.number().int(),
  sourceTicketNo: z.number().int(),
});

/** The merges into a ticket that can still be undone (30 days), newest first. */
export const MergeListSchema = z.object({
  merges: z.array(
    z.object({
      id: z.number().int(),
      kind: z.enum(['merge', 'split']),
      sourceTicketId: z.string(),
      sourceTicketNo: z.number().int(),
      targetTicketId: z.string(),
      targetTicketNo: z.number().int(),
      at: z.string(),
    }),
  ),
});

/** A split: the customer's message it starts from, and the new ticket's reason. */
export const SplitTicketSchema = z.object({
  messageId: z.coerce
    .number({ error: MERGE_MESSAGES.chooseMessage })
    .int(MERGE_MESSAGES.chooseMessage)
    .positive(MERGE_MESSAGES.chooseMessage)
    .max(Number.MAX_SAFE_INTEGER, MERGE_MESSAGES.chooseMessage),
  reason: z.enum(['General', 'Incident', 'Deactivation']),
});
export const SplitResultSchema = z.object({
  newTicketId: z.string(),
  newTicketNo: z.number().int(),
  sourceTicketNo: z.number().int(),
});
export const MergeParamsSchema = z.object({ mergeId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
export const UndoResultSchema = z.object({
  sourceTicketId: z.string(),
  sourceTicketNo: z.number().int(),
  targetTicketId: z.string(),
  targetTicketNo: z.number().int(),
});
