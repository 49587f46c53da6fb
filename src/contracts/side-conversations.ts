/**
 * Side conversations (docs/decisions/138-side-conversations.md): the team writes by mail, from a
 * ticket, to someone other than its customer. Staff only: the customer's pages never import this.
 */
export const SIDE_STATES = ['waiting', 'answered', 'closed'] as const;
export type SideState = (typeof SIDE_STATES)[number];

export const SIDE_STATE_LABELS: Record<SideState, string> = {
  waiting: 'Waiting on them',
  answered: 'Answered',
  closed: 'Closed',
};

/**
 * How long a side conversation's subject and one of its messages may be, and what its first mail may
 * carry of the ticket: up to 5 of its files, 15 MB in all (about 20 MB once encoded for mail, inside
 * the 25 MB most mail servers take).
 */
export const SIDE_LIMITS = {
  subject: 200,
  body: 10_000,
  includedMessages: 20,
  includedFiles: 5,
  includedBytes: 15 * 1_048_576,
} as const;

export const SIDE_TEXT = {
  title: 'Side conversations',
  none: 'No side conversations yet.',
  hint: 'Write by mail to someone other than the customer (a partner’s contact, a traveller). The customer never sees these.',
  start: 'Start a side conversation',
  to: 'To (email address)',
  subject: 'Subject',
  message: 'Message',
  include: 'Include these messages of the ticket',
  includeFiles: 'Attach these files of the ticket',
  tooManyFiles: `Attach at most ${SIDE_LIMITS.includedFiles} files of the ticket.`,
  filesTooLarge: `Those files come to more than ${SIDE_LIMITS.includedBytes / 1_048_576} MB: attach fewer, so their mail server takes the mail.`,
  fileMissing: 'One of those files is no longer on the ticket.',
  /** Before the files a message carried. */
  files: 'Files:',
  send: 'Start it and mail them',
  reply: 'Reply',
  replyLabel: (counterpart: string) => `Reply to ${counterpart}`,
  close: 'Close the conversation',
  fromThem: 'Them',
  started: 'Side conversation started; the mail is on its way.',
  sent: 'Sent; the mail is on its way.',
  closed: 'Closed. Their reply address no longer works.',
  closedNote: 'This conversation is closed.',
  notFound: 'This side conversation could not be found.',
  isClosed: 'This side conversation is closed.',
  badAddress: 'Enter an email address.',
  subjectRequired: 'Enter a subject.',
  messageRequired: 'Enter a message.',
  ownAddress: 'Write to the customer in the ticket’s reply box, not in a side conversation.',
  /** The inbox's filter: open tickets with a side conversation waiting on its counterpart. */
  filter: 'Waiting on a third party',
  included: 'From the ticket:',
} as const;
