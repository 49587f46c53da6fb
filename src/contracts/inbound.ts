import { z } from './zod.ts';

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

export const InboundListQuerySchema = z.object({ state: z.enum(INBOUND_VIEW_STATES).optional() });
export const InboundParamsSchema = z.object({
  inboundId: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 53),
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
