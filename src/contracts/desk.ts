/**
 * The support desk's tools (docs/product.md, support desk): notes, assignment, ratings, figures. The
 * words both sides' ticket pages show (the reply box, the thread, the rating) are in conversation.ts,
 * which the customer's page loads without these; DESK_TEXT and SAVED_REPLY_TEXT give them too.
 */

import { CONVERSATION_TEXT, RATING_COMMENT_MAX_LENGTH, SAVED_REPLY_PICKER_TEXT } from './conversation.ts';
import { TICKET_WORDS } from './ticket-words.ts';
import { fillTemplate } from './macros.ts';
import { reasonLabel } from './support.ts';

export { RATING_COMMENT_MAX_LENGTH } from './conversation.ts';

export const DESK_TEXT = {
  ...CONVERSATION_TEXT,
  /** Close, reopen, assign or merge against an older version: nothing done, the page shows it as it is now. */
  staleAction: 'This ticket changed since you last looked, so nothing was done. Check what changed, then try again.',
  /** What changed, line by line: a message since, and where the ticket stands now. */
  staleMessage: (who: string, words: string) => `${who}: “${words}”`,
  staleWho: { customer: 'The customer', team: 'The team', system: 'The system' },
  staleNow: (open: boolean, assignee: string | null) =>
    `It is now ${open ? 'open' : 'closed'} and ${assignee ? `assigned to ${assignee}` : 'not assigned'}.`,
  chooseRating: `Choose ${TICKET_WORDS.good} or ${TICKET_WORDS.bad}.`,
  rateOnlyClosed: 'You can rate a ticket once it is closed.',
  ratingLocked: 'This rating can no longer be changed.',
  commentTooLong: `Comments can be at most ${RATING_COMMENT_MAX_LENGTH} characters long`,
  assignToMe: 'Assign to me',
  unassign: 'Unassign',
  assignTo: 'Assign to',
  assignedTo: 'Assigned to',
  unassigned: TICKET_WORDS.unassigned,
  assigneeMissing: 'Choose an admin to assign this ticket to.',
  /** An agent's roles let them take tickets, not hand them to colleagues (src/contracts/roles.ts). */
  assignOthersRefused: 'Your roles let you assign tickets to yourself only.',
  firstResponse: 'First response',
  resolution: 'Resolution',
  notYet: 'not yet',
  alsoViewing: 'Also viewing this ticket:',
  /** On an inbox row: other staff with that ticket open. */
  viewing: 'Viewing:',
  typing: (emails: readonly string[]) => `${emails.join(', ')} ${emails.length === 1 ? 'is' : 'are'} typing…`,
  privacyRequest: 'Privacy request',
  privacyRequests: 'Privacy requests',
  answerBy: 'Answer by',
  answerByDate: (date: string) => `Answer by ${date}`,
  /** A privacy request past its answer-by date: late, as a due time is (one word for it). */
  overdue: TICKET_WORDS.late,
  markPrivacy: 'Mark as a privacy request',
  unmarkPrivacy: 'Not a privacy request',
  deactivationIsPrivacy: 'Account Deactivation tickets are always privacy requests.',
  noPrivacyRequests: 'There are no open privacy requests',
  noOverdue: 'No privacy request is late',
} as const;

/** "under a minute", "12 min", "3.5 h", "2.1 days": a duration the inbox shows (never "0 min"). */
export function formatMinutes(minutes: number | null): string {
  if (minutes === null) return '–';
  if (minutes < 1) return 'under a minute';
  if (Math.round(minutes) < 60) return `${Math.round(minutes)} min`;
  if (minutes < 48 * 60) return `${Math.round((minutes / 60) * 10) / 10} h`;
  return `${Math.round((minutes / 1440) * 10) / 10} days`;
}

/** "80 % good (4 of 5)"; "no ratings" when none. */
export function formatShare(good: number, rated: number): string {
  if (rated === 0) return 'no ratings';
  return `${Math.round((good / rated) * 100)} % good (${good} of ${rated})`;
}

// --- Saved replies ------------------------------------------------------------------------------

export const SAVED_REPLY_TITLE_MAX = 100;
export const SAVED_REPLY_BODY_MAX = 5000;

export const SAVED_REPLY_TEXT = {
  ...SAVED_REPLY_PICKER_TEXT,
  intro:
    'Answers the team reuses. In a ticket, pick one under the reply box or type / in it. {{ticket.number}}, {{ticket.reason}}, {{customer.name}} and {{customer.email}} are filled in for the ticket ({{customer.name}} is “there” when the customer gave no name, so “Kia ora {{customer.name}},” always reads well). {{ask:Your question}} asks the agent: the answer cannot be sent until they replace it.',
  titleLabel: 'Title',
  bodyLabel: 'Text',
  add: 'Add saved reply',
  save: 'Save',
  delete: 'Delete',
  empty: 'No saved replies yet.',
  titleRequired: 'Give the saved reply a title.',
  titleTooLong: `Titles can be at most ${SAVED_REPLY_TITLE_MAX} characters long`,
  bodyRequired: 'Write the text of the saved reply.',
  bodyTooLong: `Saved replies can be at most ${SAVED_REPLY_BODY_MAX} characters long`,
  titleTaken: 'A saved reply with this title already exists.',
  missing: 'This saved reply no longer exists.',
  added: (title: string) => `Added “${title}”.`,
  saved: (title: string) => `Saved “${title}”.`,
  deleted: (title: string) => `Deleted “${title}”.`,
} as const;

/**
 * A saved reply's text for one ticket: its variables filled in, its questions ({{ask:…}}) left for
 * the agent (contracts/macros.ts).
 */
export function expandSavedReply(
  body: string,
  ticket: { ticketNo: number; reason: string; userEmail: string; userName?: string | null | undefined },
): string {
  return fillTemplate(body, { ...ticket, reasonLabel: reasonLabel(ticket.reason) });
}

// --- Search -------------------------------------------------------------------------------------

/** In a snippet, each matching word sits between these two marks (rendered as <mark>). */
export const SNIPPET_MATCH_START = '\u0001';
export const SNIPPET_MATCH_END = '\u0002';

/** Splits a snippet into plain and matching parts, for rendering without any HTML from the server. */
export function snippetParts(snippet: string): Array<{ text: string; match: boolean }> {
  const parts: Array<{ text: string; match: boolean }> = [];
  for (const [i, piece] of snippet.split(SNIPPET_MATCH_START).entries()) {
    if (i === 0) {
      if (piece) parts.push({ text: piece, match: false });
      continue;
    }
    const [match = '', rest = ''] = piece.split(SNIPPET_MATCH_END);
    if (match) parts.push({ text: match, match: true });
    if (rest) parts.push({ text: rest, match: false });
  }
  return parts;
}
