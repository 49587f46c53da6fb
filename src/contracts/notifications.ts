/**
 * Notification mails a person can switch on and off, the outbox as admins see it, and the words of
 * the pages about them (docs/decisions/090-mail-outbox.md).
 */
export const NOTIFICATION_SETTINGS = [
  {
    key: 'ticketReplies',
    kind: 'ticket-replies',
    label: 'Replies to my support tickets',
    hint: 'A mail when our team answers and you have not seen the answer on the ticket’s page.',
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

export const MAIL_TEXT = {
  notFound: 'That mail does not exist.',
  notFailed: 'Only a failed mail can be sent again.',
  retried: 'The mail is queued again.',
  failedOnHome: (n: number) => (n === 1 ? '1 mail could not be delivered.' : `${n} mails could not be delivered.`),
} as const;
