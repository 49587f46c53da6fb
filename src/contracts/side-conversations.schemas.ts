import { SIDE_LIMITS, SIDE_STATES, SIDE_TEXT } from './side-conversations.ts';
import { z } from './zod.ts';

export const SideParamsSchema = z.object({ sideId: z.string().max(64) });
export const SideMailParamsSchema = SideParamsSchema.extend({ messageId: z.coerce.number().int().min(1) });

export const StartSideBodySchema = z.object({
  to: z
    .string()
    .trim()
    .toLowerCase()
    .max(320)
    .pipe(z.email({ error: SIDE_TEXT.badAddress })),
  subject: z.string().trim().min(1, { error: SIDE_TEXT.subjectRequired }).max(SIDE_LIMITS.subject),
  messageBody: z.string().trim().min(1, { error: SIDE_TEXT.messageRequired }).max(SIDE_LIMITS.body),
  /** Messages of the ticket quoted below the words (never internal notes). */
  includeMessageIds: z.array(z.number().int().min(1)).max(SIDE_LIMITS.includedMessages).optional(),
  /** Files of the ticket's messages, attached to the mail. */
  includeAttachmentIds: z.array(z.uuid()).max(SIDE_LIMITS.includedFiles, { error: SIDE_TEXT.tooManyFiles }).optional(),
});
export type StartSideBody = z.infer<typeof StartSideBodySchema>;

export const SideReplyBodySchema = z.object({
  messageBody: z.string().trim().min(1, { error: SIDE_TEXT.messageRequired }).max(SIDE_LIMITS.body),
});

export const SideMessageSchema = z.object({
  id: z.number(),
  direction: z.enum(['out', 'in']),
  /** The staff member who wrote an outgoing message; null for theirs. */
  authorEmail: z.string().nullable(),
  body: z.string(),
  /** A reply that came by mail: its whole mail can be opened. */
  byEmail: z.boolean(),
  /** The received mail it came in (its files download from `GET /api/admin/mail/incoming/:inboundId/files/:index`). */
  inboundId: z.number().nullable(),
  /**
   * The files it carried: an outgoing message's, of the ticket (by name); a reply's, each to be
   * downloaded by its `index` among the mail's files.
   */
  files: z.array(z.object({ name: z.string(), size: z.number(), index: z.number().optional() })),
  createdAt: z.string(),
});

export const SideConversationSchema = z.object({
  id: z.string(),
  ticketId: z.string(),
  counterpart: z.string(),
  subject: z.string(),
  state: z.enum(SIDE_STATES),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  messages: z.array(SideMessageSchema),
});
export type SideConversation = z.infer<typeof SideConversationSchema>;

export const SideListSchema = z.object({ conversations: z.array(SideConversationSchema) });
export const SideResultSchema = z.object({ conversation: SideConversationSchema });

export const SideWholeMailSchema = z.object({
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  date: z.string().nullable(),
  text: z.string(),
  attachments: z.array(z.object({ name: z.string(), size: z.number() })),
});
