import { z } from './zod.ts';

/**
 * Notification mails a person can switch on and off, the outbox as admins see it, and the words of
 * the pages about them (docs/decisions/090-mail-outbox.md).
 */
export const NOTIFICATION_SETTINGS = [
  {
    key: 'ticketReplies',
    kind: 'ticket-replies',
    label: 'Replies to my support tickets',
    hint: 'A mail when our team answers and you are not on the ticket’s page.',
    adminOnly: false,
  },
  {
    key: 'ticketClosed',
    kind: 'ticket-closed',
    label: 'When my ticket is closed',
    hint: 'A mail when our team closes or reopens one of your tickets, and before an answered ticket closes by itself.',
    adminOnly: false,
  },
  {
    key: 'team',
    kind: 'team',
    label: 'Support team mail',
    hint: 'A mail on each new ticket, on each reply from a user to a ticket assigned to you or to nobody, and when such a ticket is nearly due or late.',
    adminOnly: true,
  },
] as const;

export type NotificationKey = (typeof NOTIFICATION_SETTINGS)[number]['key'];

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

export const NOTIFICATION_TEXT = {
  title: 'Email notifications',
  lead: 'Choose which mails we send you. Mails about your account itself (verification, password reset, password changes) always arrive.',
  saved: 'Your email settings are saved.',
  teamOnlyForAdmins: 'Only admins can receive support team mail.',
  unsubscribeTitle: 'Unsubscribe',
  unsubscribeAsk: (what: string, email: string) => `Stop sending “${what}” mail to ${email}?`,
  unsubscribeButton: 'Unsubscribe',
  unsubscribed: (what: string, email: string) => `Done: we will no longer send “${what}” mail to ${email}.`,
  unsubscribeInvalid:
    'This unsubscribe link is not valid. Sign in and open Email notifications to choose which mails you get.',
  manageLink: 'Choose which mails you get',
} as const;

export const MAIL_STATES = ['queued', 'sending', 'retrying', 'sent', 'failed'] as const;
export type MailStateName = (typeof MAIL_STATES)[number];

export const MAIL_STATE_LABELS: Record<MailStateName, string> = {
  queued: 'Queued',
  sending: 'Sending',
  retrying: 'Retrying',
  sent: 'Sent',
  failed: 'Failed',
};

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

export const MAIL_TEXT = {
  notFound: 'That mail does not exist.',
  notFailed: 'Only a failed mail can be sent again.',
  retried: 'The mail is queued again.',
  failedOnHome: (n: number) => (n === 1 ? '1 mail could not be delivered.' : `${n} mails could not be delivered.`),
} as const;
