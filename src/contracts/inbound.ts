/**
 * Mail that comes in (reply by email, docs/decisions/105-reply-by-email.md): the states and reasons
 * the admin Mail page's Incoming view shows, in the words it shows them.
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
  // Ignored.
  automatic: 'An automatic mail (auto-reply, vacation notice or list mail)',
  'delivery-report': 'A delivery report',
  replayed: 'Another mail already came with this Message-ID',
  'closed-ticket': 'The ticket is closed; the sender was told to open a new one',
  'unknown-sender': 'Not a reply and not from an account; the sender was told how to reach us',
  'no-words': 'No new words and no files',
  unreadable: 'The mail could not be read',
} as const;
export type InboundReason = keyof typeof INBOUND_REASONS;

export const INBOUND_TEXT = {
  notFound: 'This mail could not be found.',
  notHeld: 'Only a held mail can be posted or discarded.',
  noTicket: 'This mail is from nobody with an account here, so it cannot be posted as anyone.',
  nothingToPost: 'This mail has no new words and no files to post.',
  notAParty: 'The sender is neither the ticket’s owner nor on the team, so it cannot be posted as theirs.',
  posted: 'Posted to the ticket.',
  discarded: 'Discarded.',
  byEmail: 'by email',
  showWholeMail: 'Show the whole mail',
  wholeMailTitle: 'The whole mail',
} as const;
