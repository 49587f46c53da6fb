import { TICKET_WORDS } from './ticket-words.ts';

/**
 * The words of a ticket's conversation as both sides' ticket pages show it: the reply box (with the
 * console's stale-write notice, internal notes and saved-reply picker, drawn only there), the
 * thread, and the customer's rating. Apart from desk.ts, the console's tools, so the customer's
 * ticket page does not load those; desk.ts gives these too, in DESK_TEXT and SAVED_REPLY_TEXT (and inbound.ts, in INBOUND_TEXT).
 */

export const RATING_COMMENT_MAX_LENGTH = 1000;

export const CONVERSATION_TEXT = {
  /** A staff write against an older version of the ticket (docs/decisions/140-stale-writes-stopped.md). */
  stale:
    'This ticket changed while you were writing. Nothing was sent: read what changed, then send it anyway, edit it or discard it.',
  sendAnyway: 'Send anyway',
  editReply: 'Edit',
  discardReply: 'Discard',
  rateTitle: 'How did we do?',
  good: TICKET_WORDS.good,
  bad: TICKET_WORDS.bad,
  ratingComment: 'Anything you would like to add? (optional)',
  sendRating: 'Send rating',
  changeRating: 'Change rating',
  thanks: 'Thank you for your feedback.',
  ratedGood: `You rated this ${TICKET_WORDS.good}.`,
  ratedBad: `You rated this ${TICKET_WORDS.bad}.`,
  /** Shown until the window closes. */
  changeableUntil: (date: string) => `You can change it until ${date}.`,
  internalNote: 'Internal note',
  notePlaceholder: 'Write an internal note (only admins see it)',
  addNote: 'Add note',
} as const;

/** The reply box's picker of the console's saved replies. */
export const SAVED_REPLY_PICKER_TEXT = {
  title: 'Saved replies',
  pick: 'Insert a saved reply',
  insert: 'Insert',
  noMatch: 'No saved reply matches.',
} as const;

/** A message that came by mail (reply by email, docs/decisions/105-reply-by-email.md), in the thread and on its own page. */
export const MAILED_TEXT = {
  byEmail: 'by email',
  showWholeMail: 'Show the whole mail',
  /** The line a mailed reply's forwarded message starts with (the server writes it, the page folds what follows). */
  forwardedFrom: 'Forwarded message from',
  /** In place of the sender when a forwarded message's header names none. */
  forwardedFromSomeone: 'someone',
  wholeMailTitle: 'The whole mail',
} as const;
