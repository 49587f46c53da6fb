import { z } from './zod.ts';
import { INBOUND_VIEW_STATES } from './inbound.ts';

/**
 * The zod schemas of inbound.ts: what the API and the forms check, on the server and in a form
 * once it is used. The pages' texts and constants are in inbound.ts, which needs no zod
 * (docs/decisions/119-schemas-stay-on-the-server.md).
 */
export const InboundMailSchema = z.object({
  id: z.number(),
  receivedAt: z.string(),
  via: z.enum(['smtp', 'imap']),
  from: z.string().nullable(),
  subject: z.string().nullable(),
  state: z.enum(INBOUND_VIEW_STATES),
  reason: z.string().nullable(),
  reasonText: z.string().nullable(),
  ticketId: z.string().nullable(),
  ticketNo: z.number().nullable(),
  size: z.number(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
});
export type InboundMail = z.infer<typeof InboundMailSchema>;

export const InboundListSchema = z.object({
  mails: z.array(InboundMailSchema),
  counts: z.record(z.enum(INBOUND_VIEW_STATES), z.number()),
});

export const InboundListQuerySchema = z.object({
  state: z.enum(INBOUND_VIEW_STATES).optional(),
  /** Only the mail that belongs (or would belong) to this ticket: the console's ticket page counts its held mail. */
  ticketId: z.uuid().optional(),
});
export const InboundParamsSchema = z.object({
  inboundId: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 53),
});
/**
 * One mail as the Incoming view opens it: what the list shows, its To and Date, its words as text
 * (an HTML-only mail's converted, never its markup), its header section as received, and its files
 * (downloads only, by their place in the mail).
 */
export const InboundMailReadSchema = InboundMailSchema.extend({
  to: z.string(),
  date: z.string().nullable(),
  text: z.string(),
  headers: z.string(),
  attachments: z.array(
    z.object({ index: z.number(), name: z.string(), size: z.number(), contentType: z.string(), url: z.string() }),
  ),
});
export type InboundMailRead = z.infer<typeof InboundMailReadSchema>;
export const InboundFileParamsSchema = InboundParamsSchema.extend({
  fileIndex: z.coerce.number().int().min(0).max(999),
});
export const InboundPostResultSchema = z.object({ ticketId: z.string() });
export const WholeMailParamsSchema = z.object({
  ticketId: z.string().max(64),
  messageId: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 53),
});
export const WholeMailSchema = z.object({
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  date: z.string().nullable(),
  text: z.string(),
  attachments: z.array(z.object({ name: z.string(), size: z.number() })),
});
export type WholeMail = z.infer<typeof WholeMailSchema>;
export const InboundDiscardResultSchema = z.object({ discarded: z.literal(true) });
