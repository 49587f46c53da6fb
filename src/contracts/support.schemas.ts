import { LabelSchema } from './labels.schemas.ts';
import { AttachmentSchema } from './attachments.schemas.ts';
import { ErrorBodySchema } from './errors.ts';
import { MACRO_TEXT, placeholdersIn } from './macros.ts';
import { incidentCheck, IncidentFieldsShape, readIncident } from './claims.schemas.ts';
import { z } from './zod.ts';
import { MESSAGE_MAX_LENGTH, SEEN_IDS_MAX, SUPPORT_TEXT, TICKET_REASON_VALUES } from './support.ts';

/**
 * The zod schemas of support.ts: what the API and the forms check, on the server and in a form
 * once it is used. The pages' texts and constants are in support.ts, which needs no zod
 * (docs/decisions/119-schemas-stay-on-the-server.md).
 */
const messageBody = z
  .string({ error: SUPPORT_TEXT.fieldRequired })
  .trim()
  .min(1, SUPPORT_TEXT.fieldRequired)
  .max(MESSAGE_MAX_LENGTH, `Messages can be at most ${MESSAGE_MAX_LENGTH} characters long`);

export const TicketReasonSchema = z.enum(TICKET_REASON_VALUES, { error: SUPPORT_TEXT.fieldRequired });

/** The callable protocol (docs/design.md §4): POST /api/functions/createSupportTicket { data: {...} }. */
/** Chosen by the client for each ticket or message it sends, so a retried send is stored once. */
export const clientIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'clientId must be 8 to 64 letters, digits, - or _')
  .optional();

/** A missing (or empty) reason is Field Required; any other value is not one of ours and says which are. */
const createReasonSchema = z.enum(TICKET_REASON_VALUES, {
  error: (issue) =>
    issue.input === undefined || issue.input === null || issue.input === ''
      ? SUPPORT_TEXT.fieldRequired
      : SUPPORT_TEXT.reasonInvalid,
});

/** The closed ticket a new one carries on from ('Still need help?'); one of the caller's own, else left unlinked. */
const followsSchema = z.uuid({ error: 'follows must be a ticket id' }).optional();

const CreateTicketFields = z.object({
  reason: createReasonSchema,
  message: messageBody,
  clientId: clientIdSchema,
  follows: followsSchema,
  // An Incident Report about a delivery opens a claim (claims.schemas.ts): what happened, which
  // delivery, what the item is worth and when it was delivered. Optional: an Incident Report
  // without them is a ticket as before.
  ...IncidentFieldsShape,
});
/** A new ticket, and the claim its incident's fields open (`incident`, or null). */
export const CreateTicketSchema = CreateTicketFields.check(incidentCheck).transform((values) => ({
  ...values,
  incident: readIncident(values),
}));
export const CreateTicketCallSchema = z.object({ data: CreateTicketSchema });
export const CreateTicketResultSchema = z.object({
  result: z.object({ ticketId: z.uuid(), ticketNo: z.number().int() }),
});
/**
 * A callable's error (Firebase callable protocol): the app's error body, plus `details.fields` keyed
 * by the fields of `data` (`reason`, `message`), which the Firebase SDK hands over as `error.details`.
 */
export const CallableErrorBodySchema = z.object({
  error: ErrorBodySchema.shape.error.extend({
    details: z.object({ fields: z.record(z.string(), z.string()) }).optional(),
  }),
});

/** The owner's answer to 'How did we do?' on a closed ticket; it may be changed until `changeableUntil`. */
export const RatingSchema = z.object({
  good: z.boolean(),
  comment: z.string().nullable(),
  ratedAt: z.string(),
  changeableUntil: z.string(),
});
export type Rating = z.infer<typeof RatingSchema>;

/** Another ticket of the same owner, as a link: its id and number. */
export const TicketLinkSchema = z.object({ id: z.uuid(), ticketNo: z.number().int() });
export type TicketLink = z.infer<typeof TicketLinkSchema>;

export const TicketSchema = z.object({
  id: z.uuid(),
  ticketNo: z.number().int(),
  reason: TicketReasonSchema,
  open: z.boolean(),
  creationDate: z.string(),
  lastMessage: z.string(),
  /** Open tickets: 'us' (the user wrote last) or 'you' (we did); null once closed. */
  waitingOn: z.enum(['us', 'you']).nullable(),
  rating: RatingSchema.nullable(),
  /** The closed ticket this one carries on from ('Still need help?'), and the tickets that carry on from this one. */
  follows: TicketLinkSchema.nullable(),
  continuedIn: z.array(TicketLinkSchema),
});
export type Ticket = z.infer<typeof TicketSchema>;
export const TicketListSchema = z.object({ tickets: z.array(TicketSchema) });

export const MessageSchema = z.object({
  /** Also the live event id: streams resume after it. */
  id: z.number().int(),
  messageBody: z.string(),
  timestamp: z.string(),
  admin: z.boolean(),
  /** Written by the caller (labelled "Me"). */
  mine: z.boolean(),
  /** Its files (photos and PDFs), in the order they were sent; a message may be only files. */
  attachments: z.array(AttachmentSchema),
  /** Posted from a mail (reply by email): shown with a "by email" mark and a way to the whole mail. */
  byEmail: z.literal(true).optional(),
  /**
   * A line the system wrote into the thread, not a person's message (its kind: 'auto-closed'):
   * shown to both sides as a note across the thread, with no author. Absent on people's messages.
   */
  systemEvent: z.string().optional(),
});
export type Message = z.infer<typeof MessageSchema>;

export const MessageListSchema = z.object({ messages: z.array(MessageSchema) });
export const TicketWithMessagesSchema = z.object({ ticket: TicketSchema, messages: z.array(MessageSchema) });

export const ReplySchema = z.object({
  messageBody: messageBody,
  clientId: clientIdSchema,
});
export const ReplyResultSchema = z.object({ message: MessageSchema });
/** A reply sent as a form with files (multipart): the text may be empty when files come with it. */
export const ReplyFormSchema = z.object({
  messageBody: z
    .string()
    .trim()
    .max(MESSAGE_MAX_LENGTH, `Messages can be at most ${MESSAGE_MAX_LENGTH} characters long`)
    .default(''),
  clientId: z.preprocess((v) => (v === '' ? undefined : v), clientIdSchema),
});
/**
 * The ticket's version a staff write was written against (docs/decisions/140-stale-writes-stopped.md):
 * when the ticket has changed since, the write is stopped (412). Left out, nothing is checked.
 */
const seenVersion = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
);
/**
 * An answer the customer reads keeps no placeholder of a saved reply ({{ask:…}} or a variable):
 * the agent replaces it first (docs/decisions/144-placeholders-never-sent.md).
 */
const noPlaceholderLeft = (value: { messageBody: string }, context: z.RefinementCtx) => {
  const left = placeholdersIn(value.messageBody)[0];
  if (left) context.addIssue({ code: 'custom', path: ['messageBody'], message: MACRO_TEXT.unfilled(left) });
};
/** The team's note: a reply, with the version it was written against. */
export const StaffNoteSchema = ReplySchema.extend({ seenVersion });
/** The team's answer: as a note, and nothing left of a saved reply's placeholders. */
export const StaffReplySchema = StaffNoteSchema.superRefine(noPlaceholderLeft);
/** The team's answer sent as a form with files. */
export const StaffReplyFormSchema = ReplyFormSchema.extend({ seenVersion }).superRefine(noPlaceholderLeft);

/** A new ticket sent as a form with files (multipart); its message is required as in JSON. */
export const CreateTicketFormSchema = CreateTicketFields.extend({
  clientId: z.preprocess((v) => (v === '' ? undefined : v), clientIdSchema),
  follows: z.preprocess((v) => (v === '' ? undefined : v), followsSchema),
})
  .check(incidentCheck)
  .transform((values) => ({ ...values, incident: readIncident(values) }));

export const TicketListQuerySchema = z.object({
  open: z
    .enum(['true', 'false'], { error: 'open must be true or false' })
    .default('true')
    .transform((v) => v === 'true'),
});
export const TicketParamsSchema = z.object({ ticketId: z.string().max(64) });

/**
 * What the owner's ticket page reports it showed: the ids of the answers that were in front of the
 * reader (the page visible and focused, or the answer scrolled into view while visible), every one
 * since the page opened, so the server can tell that no answer in between went unseen.
 */
export const SeenBodySchema = z.object({
  messageIds: z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).min(1).max(SEEN_IDS_MAX),
});
/** A console page's presence beat: whether its agent is typing an answer or note now. */
export const PresenceBeatSchema = z.object({ typing: z.boolean() });
/** Who else is on a ticket, by email: with it open, and typing. */
export const TicketPresenceSchema = z.object({
  viewers: z.array(z.string()),
  typing: z.array(z.string()),
});
export type TicketPresence = z.infer<typeof TicketPresenceSchema>;
/** The newest answer up to which the owner has seen every answer; later ones are still mailed. */
export const SeenResultSchema = z.object({ seenUpTo: z.number().int().min(0) });

/** A waiting ticket's next due time (the names of contracts/service-levels.ts TARGET_KINDS). */
export const TicketDueSchema = z.object({
  at: z.string(),
  target: z.enum(['firstResponse', 'nextResponse', 'resolution']),
  warned: z.enum(['soon', 'missed']).nullable(),
});
export type TicketDue = z.infer<typeof TicketDueSchema>;
/** One of a waiting ticket's due times, by its target: its answer (first or next) and its resolution. */
export const DueTimeSchema = z.object({
  target: z.enum(['firstResponse', 'nextResponse', 'resolution']),
  at: z.string(),
});
export type DueTime = z.infer<typeof DueTimeSchema>;

/** Admin view: every user's tickets, with who asked and whether we have answered. */
export const AdminTicketSchema = TicketSchema.extend({
  /**
   * What the team has seen of it (docs/decisions/140-stale-writes-stopped.md): a staff write sends
   * the version it was written against as `seenVersion`, and one written against an older version
   * is stopped (412) with what changed.
   */
  version: z.number(),
  /** The team's labels on it, by name (docs/decisions/141-labels.md). */
  labels: z.array(LabelSchema),
  /** The owner's address; 'Deleted user' once their account has been erased. */
  userEmail: z.string(),
  /** The name the owner gave, if any (saved replies' {{user.name}}); null once erased. */
  userName: z.string().nullable(),
  /** An admin marked its messages as needed for the record: erasing the owner keeps them (docs/product.md §2.14). */
  keepForRecord: z.boolean(),
  /** The newest message is the user's: it is waiting for us. */
  unanswered: z.boolean(),
  /** The admin handling it, if any. */
  assignee: z.object({ id: z.uuid(), email: z.string() }).nullable(),
  /** When an admin first answered (notes do not count), and when it was closed. */
  firstResponseAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  /**
   * A request under the Privacy Act (every Deactivation ticket, and any an admin marks): the New
   * Zealand date (YYYY-MM-DD) it must be answered by, 20 working days after it arrived; null otherwise.
   */
  privacyDue: z.string().nullable(),
  /** Open, and its due date has passed. */
  overdue: z.boolean(),
  /**
   * While it waits on the team (service levels, contracts/service-levels.ts): the earlier of its
   * response and resolution due times, which target that is, and the warning already sent about it
   * ('soon' before it, 'missed' after); null when nothing is due (waiting on the customer, closed).
   */
  due: TicketDueSchema.nullable(),
  /** The same wait's due times, each by its target: the answer first, then the resolution; empty when none. */
  dueTimes: z.array(DueTimeSchema),
  /** The first line of the customer's first message, shortened for a list (contracts/support.ts firstLineOf). */
  firstLine: z.string(),
  /** The delivery it is about, as staff gave it (docs/decisions/151-delivery-card.md); null when none. */
  deliveryReference: z.string().nullable(),
});
export type AdminTicket = z.infer<typeof AdminTicketSchema>;
/** `now`: the server's clock when it read the list, so a page words due times as the server would. */
export const AdminTicketListSchema = z.object({ tickets: z.array(AdminTicketSchema), now: z.string() });
export const AdminTicketListQuerySchema = TicketListQuerySchema.extend({
  q: z.string().trim().max(200).optional(),
  /** Open tickets waiting for us (the user wrote last) or for the user. */
  waiting: z.enum(['us', 'you'], { error: 'waiting must be us or you' }).optional(),
  /** Assigned to the caller, or to nobody. */
  assigned: z.enum(['me', 'none'], { error: 'assigned must be me or none' }).optional(),
  /** Open privacy requests only, soonest due first ('overdue': only those past their date). */
  privacy: z.enum(['due', 'overdue'], { error: 'privacy must be due or overdue' }).optional(),
  /** 'due': soonest due first, tickets with nothing due last (then newest last message first, as 'recent'). */
  sort: z.enum(['recent', 'due'], { error: 'sort must be recent or due' }).optional(),
  /** Due time passed ('late'), or still to come before the end of today in New Zealand ('today'). */
  due: z.enum(['late', 'today'], { error: 'due must be late or today' }).optional(),
  /** 'waiting': tickets with a side conversation waiting on its third party (decision 138). */
  thirdParty: z.enum(['waiting'], { error: 'thirdParty must be waiting' }).optional(),
  /** Only tickets with this label (docs/decisions/141-labels.md). */
  label: z.uuid({ error: 'label must be a label’s id' }).optional(),
});
/** Admins also see internal notes, marked `internal` (the owner's API never has them). */
/** The inbox's search: tickets best first, each with the best-matching words (contracts/desk.ts snippetParts). */
export const AdminSearchResultSchema = z.object({
  results: z.array(z.object({ ticket: AdminTicketSchema, snippet: z.string().nullable() })),
});
export type AdminSearchResult = z.infer<typeof AdminSearchResultSchema>['results'][number];

/**
 * Admins also see who wrote each message (`authorEmail`: answers, notes, mail alike); `mine` is
 * relative to the admin reading, decided by id on the server. The owner's MessageSchema has no
 * author: they read every answer as from 'Admin'.
 */
export const AdminMessageSchema = MessageSchema.extend({
  authorEmail: z.string().nullable(),
  internal: z.boolean(),
  /** The ticket's version this message made: what changed since a version is the messages above it. */
  ticketVersion: z.number(),
});
export const AdminTicketWithMessagesSchema = z.object({
  ticket: AdminTicketSchema,
  messages: z.array(AdminMessageSchema),
  /** The server's clock when it read the ticket (its due time is worded from it). */
  now: z.string(),
});
