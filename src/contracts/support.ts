/** Support tickets and messages (docs/product.md §2–§5, §7–§9). Every user-facing string lives here. */

export const TICKET_REASONS = [
  { value: 'General', label: 'General Enquiry' },
  { value: 'Incident', label: 'Incident Report' },
  { value: 'Deactivation', label: 'Account Deactivation' },
] as const;
export const TICKET_REASON_VALUES = ['General', 'Incident', 'Deactivation'] as const;

export function reasonLabel(reason: string): string {
  return TICKET_REASONS.find((r) => r.value === reason)?.label ?? reason;
}

/** The longest first line a list of tickets shows (the inbox, the merge and split pickers). */
export const FIRST_LINE_MAX_LENGTH = 80;

/**
 * What a list shows of a message: its first line with any text, spaces collapsed; one longer than
 * `max` characters is cut at the last word that fits (mid-word only when a single word is that
 * long) and ends with '…'. '' for a message of files only.
 */
export function firstLineOf(text: string, max = FIRST_LINE_MAX_LENGTH): string {
  const line =
    text
      .split(/\r?\n|\r/)
      .map((l) => l.replace(/\s+/g, ' ').trim())
      .find((l) => l !== '') ?? '';
  const chars = [...line];
  if (chars.length <= max) return line;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  const kept = space >= max / 2 ? cut.slice(0, space) : cut;
  return `${kept.replace(/[\s,.;:–—-]+$/, '')}…`;
}

/** A generous bound: the spec gives only a 10-character hint, but an unbounded body is an abuse vector. */
export const MESSAGE_MAX_LENGTH = 5000;
export const MESSAGE_HINT_LENGTH = 10;

export const SUPPORT_TEXT = {
  listTitle: 'Support Tickets List',
  newTicket: 'New Ticket',
  openTickets: 'Open Tickets',
  closedTickets: 'Closed Tickets',
  noOpen: 'You do not have any open tickets',
  noClosed: 'You do not have any closed tickets',
  columns: ['Ticket Number', 'Reason', 'Date of Submission', 'Last Message'] as const,
  createTitle: 'Contact us',
  messageHint: 'must be at least 10 characters',
  fieldRequired: 'Field Required',
  /** Not in the spec (its form offers only these three): what a caller sending another value is told. */
  reasonInvalid: 'Choose a reason: General, Incident or Deactivation.',
  ticketTitle: 'Support Ticket',
  loading: 'Loading...',
  ticketMissing: 'Ticket does not exist',
  myTickets: 'My Tickets',
  replyRejected: 'You can no longer send a message in this ticket. Please create a new ticket!',
  /** Not in the spec (its Send is disabled while the box is empty): what a form sent empty without JavaScript is told. */
  replyEmpty: 'Write your message first: an empty message is not sent.',
  replyFailed: 'Your message was not sent. Please try again.',
  replyNotSent: 'Your message was not sent:',
  newTicketWithMessage: 'Start a new ticket with this message',
  createFailed: (message: string) => `An error occured: ${message}`,
  tooManyTickets: 'You have opened a lot of tickets recently. Please wait a while before opening another one.',
  tooManyStreams: 'Too many live connections are open for this session. Close some tabs and try again.',
  /** Two-sided status of an open ticket, as its owner reads it: who is to write next ("us" is Bagspace). */
  waitingForUs: 'Waiting for us',
  waitingForYou: 'Waiting for you',
  /** The same status in the console, where "you" would be the admin reading it: 'us' is the team. */
  waitingOnUs: 'Waiting on us',
  waitingOnCustomer: 'Waiting on customer',
  statusColumn: 'Status',
  /** A closed ticket's way on: a new ticket that follows it (both show the link). */
  stillNeedHelp: 'Still need help?',
  followsTicket: 'Follows',
  continuedInTicket: 'Continued in',
  linkedTicket: (ticketNo: number) => `ticket #${ticketNo}`,
} as const;

/** Who an open ticket waits for: 'us' when the user wrote last, 'you' when we did; closed tickets wait for nobody. */
export type WaitingOn = 'us' | 'you';
export function waitingOn(open: boolean, lastMessageByAdmin: boolean | null | undefined): WaitingOn | null {
  if (!open) return null;
  return lastMessageByAdmin ? 'you' : 'us';
}
/** Who reads the status: the ticket's owner on their own pages, or staff in the console. */
export type WaitingReader = 'customer' | 'staff';
export function waitingLabel(waiting: WaitingOn, to: WaitingReader = 'customer'): string {
  if (to === 'staff') return waiting === 'us' ? SUPPORT_TEXT.waitingOnUs : SUPPORT_TEXT.waitingOnCustomer;
  return waiting === 'us' ? SUPPORT_TEXT.waitingForUs : SUPPORT_TEXT.waitingForYou;
}

/** The lines the system writes into a thread (ticket_messages.system_event), stored with the words they had then. */
export const SYSTEM_LINE_TEXT = {
  autoClosed: (days: number) =>
    `Closed automatically: no reply for ${days} working ${days === 1 ? 'day' : 'days'}. If you still need help, open a new ticket.`,
} as const;
/** Live events (Server-Sent Events): names and payloads. */
/** `ended`: the server closes the stream because its viewer may no longer see it (signed out, disabled, role gone). */
/** `viewers`: to admins on a ticket, the other admins who have it open and those of them typing (TicketPresence). */
export const LIVE_EVENTS = {
  tickets: 'tickets',
  message: 'message',
  ticket: 'ticket',
  ended: 'ended',
  viewers: 'viewers',
  /** The ticket's whole thread, replacing what the page shows (messages moved in or out). */
  thread: 'thread',
  /** The ticket lives on in another (merged into it, or a split taken back): its id. */
  moved: 'moved',
  /** The ticket's side conversations changed (team's streams only): the page reads them again. */
  side: 'side',
  /**
   * To admin inboxes: who else has tickets open and who is typing on them, as { tickets: { [id]:
   * TicketPresence (support.schemas.ts) }, whole } (whole: every ticket anyone is on, sent when the stream opens).
   */
  presence: 'presence',
} as const;

/** The most answer ids one "seen" report names: the page keeps the newest this many. */
export const SEEN_IDS_MAX = 200;
