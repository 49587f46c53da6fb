import { MAILED_TEXT } from './conversation.ts';

/**
 * Mail that comes in (reply by email, docs/decisions/105-reply-by-email.md): the states and reasons
 * the admin Mail page's Incoming view shows, in the words it shows them. What a ticket's thread says
 * of a message that came by mail is in conversation.ts (MAILED_TEXT, given in INBOUND_TEXT too).
 */
export const INBOUND_VIEW_STATES = ['received', 'posted', 'held', 'ignored', 'discarded'] as const;
export type InboundViewState = (typeof INBOUND_VIEW_STATES)[number];

export const INBOUND_STATE_LABELS: Record<InboundViewState, string> = {
  received: 'Received',
  posted: 'Posted',
  held: 'Held',
  ignored: 'Ignored',
  discarded: 'Discarded',
};

/** Why a mail was held (an admin decides) or ignored (nothing to do). */
export const INBOUND_REASONS = {
  // Held: it may be real, but we cannot tell it is from the person it would post as.
  'sender-mismatch': 'From an address the reply address was not sent to',
  'not-authenticated': 'The sender’s domain did not vouch for it (DMARC failed or missing)',
  'not-a-party': 'The sender is neither the ticket’s owner nor on the team',
  'other-ticket': 'Its reply address and its thread name different tickets',
  // The Incoming view adds how many tries and why (undecidedText).
  undecided: 'Could not be decided',
  // Ignored.
  automatic: 'An automatic mail (auto-reply, vacation notice or list mail)',
  'delivery-report': 'A delivery report',
  replayed: 'Another mail already came with this Message-ID',
  'closed-ticket': 'The ticket is closed and the sender is not its owner; they were told so',
  'unknown-sender': 'Not a reply and not from an account; the sender was told how to reach us',
  'no-words': 'No new words and no files',
  unreadable: 'The mail could not be read',
} as const;
export type InboundReason = keyof typeof INBOUND_REASONS;

/**
 * Why a held mail could not be decided, after its bounded tries (INBOUND_MAX_ATTEMPTS,
 * docs/decisions/131-every-inbound-mail-decided.md).
 */
export const INBOUND_UNDECIDED_WHY = {
  'sender-check': 'the sender’s domain could not be checked (its DNS did not answer)',
  'worker-stopped': 'its last try never finished (the server stopped or lost its database)',
  error: 'deciding it failed each time (the server log has the details)',
} as const;
export type UndecidedWhy = keyof typeof INBOUND_UNDECIDED_WHY;

/** The Incoming view's words for a mail held as undecided: "Could not be decided after 10 tries: …". */
export function undecidedText(tries: number, why: string | undefined): string {
  const words = INBOUND_UNDECIDED_WHY[why as UndecidedWhy] ?? INBOUND_UNDECIDED_WHY.error;
  return `${INBOUND_REASONS.undecided} after ${tries} ${tries === 1 ? 'try' : 'tries'}: ${words}`;
}

/**
 * A mailed reply to a closed ticket from its owner opens a follow-up ticket linked to it
 * (docs/decisions/132-mailed-reply-to-closed-ticket.md): what the customer and the assignee read.
 */
export const INBOUND_FOLLOW_UP_TEXT = {
  customerSubject: (ticketNo: number) => `Your reply opened ticket #${ticketNo}`,
  customerParagraphs: (ticketNo: number, closedNo: number) => [
    `Ticket #${closedNo} was already closed, so your reply opened a new ticket, #${ticketNo}. It is linked to closed ticket #${closedNo}, so our team sees the whole story.`,
    `More replies to ticket #${closedNo} go to ticket #${ticketNo} while it is open.`,
  ],
  customerAction: 'Open the new ticket',
  teamSubject: (ticketNo: number, closedNo: number) => `Follow-up #${ticketNo} to closed ticket #${closedNo}`,
  teamParagraph: (email: string, ticketNo: number, closedNo: number) =>
    `${email} replied by mail to closed ticket #${closedNo}, which is assigned to you. Their reply opened ticket #${ticketNo}:`,
  teamAction: 'Answer in the console',
  teamUnassigned: 'The new ticket is not assigned to anyone yet.',
  teamNote: (closedNo: number, unsubscribeUrl: string) =>
    `You get this mail because closed ticket #${closedNo} is assigned to you. To stop team mail, open ${unsubscribeUrl}.`,
} as const;

export const INBOUND_TEXT = {
  ...MAILED_TEXT,
  notFound: 'This mail could not be found.',
  fileNotFound: 'This file could not be found in the mail.',
  notHeld: 'Only a held mail can be posted or discarded.',
  noTicket: 'This mail is from nobody with an account here, so it cannot be posted as anyone.',
  nothingToPost: 'This mail has no new words and no files to post.',
  notAParty: 'The sender is neither the ticket’s owner nor on the team, so it cannot be posted as theirs.',
  posted: 'Posted to the ticket.',
  discarded: 'Discarded.',
  /** The Incoming view's link that opens a held mail, and what the opened mail offers. */
  read: 'Read',
  heldMailTitle: 'Held mail',
  showHeaders: 'Show headers',
  filesInMail: 'Files in the mail',
  noFiles: 'No files.',
  noText: '(no text)',
  closeMail: 'Close the mail',
  /** Files of a held mail are not checked or cleaned as a posted mail's are: they only download. */
  filesNote: 'Files download as they came; they were not checked. Open them only if you trust them.',
} as const;

/** What the console's ticket page says when mail that would belong to it waits for an admin: "1 held mail", "2 held mails". */
export const heldMailsText = (count: number) => `${count} held ${count === 1 ? 'mail' : 'mails'}`;

/** Where the Incoming view shows one mail opened (with its state filter, Held). */
export const heldMailPage = (inboundId: number) => `/admin/mail/incoming?state=held&mail=${inboundId}`;
