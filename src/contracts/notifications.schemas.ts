import { z } from './zod.ts';
import { MAIL_STATES } from './notifications.ts';

/**
 * The zod schemas of notifications.ts: what the API and the forms check, on the server and in a form
 * once it is used. The pages' texts and constants are in notifications.ts, which needs no zod
 * (docs/decisions/119-schemas-stay-on-the-server.md).
 */
export const NotificationPreferencesSchema = z.object({
  ticketReplies: z.boolean(),
  ticketClosed: z.boolean(),
  /** Present for admins only. */
  team: z.boolean().optional(),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferencesSchema>;

export const NotificationPreferencesUpdateSchema = z
  .object({ ticketReplies: z.boolean().optional(), ticketClosed: z.boolean().optional(), team: z.boolean().optional() })
  .strict();

export const AdminMailSchema = z.object({
  id: z.number().int(),
  messageId: z.string(),
  kind: z.string(),
  recipient: z.string(),
  subject: z.string(),
  state: z.enum(MAIL_STATES),
  attempts: z.number().int(),
  nextAttemptAt: z.string(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  /** A delivery report came back: 'hard 5.1.1' (the address takes no mail) or 'soft 4.2.2'. */
  bounce: z.string().nullable(),
});
export type AdminMail = z.infer<typeof AdminMailSchema>;

export const AdminMailListQuerySchema = z
  .object({
    state: z.enum(MAIL_STATES).optional(),
    q: z.string().max(200).optional(),
  })
  .strict();

export const AdminMailCountsSchema = z.object({
  queued: z.number().int(),
  sending: z.number().int(),
  retrying: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  oldestQueuedAt: z.string().nullable(),
});

export const AdminMailListSchema = z.object({ mails: z.array(AdminMailSchema), counts: AdminMailCountsSchema });
export const AdminMailParamsSchema = z.object({
  mailId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
export const AdminMailResultSchema = z.object({ mail: AdminMailSchema });
