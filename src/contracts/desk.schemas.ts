import { MACRO_TEXT, placeholdersIn, templateQuestions, unknownPlaceholders } from './macros.ts';
import { MACRO_ACTION_TEXT, MACRO_NOTE_MAX } from './macro-actions.ts';
import { MESSAGE_MAX_LENGTH } from './support.ts';
import { clientIdSchema } from './support.schemas.ts';
import { z } from './zod.ts';
import {
  DESK_TEXT,
  RATING_COMMENT_MAX_LENGTH,
  SAVED_REPLY_BODY_MAX,
  SAVED_REPLY_TEXT,
  SAVED_REPLY_TITLE_MAX,
} from './desk.ts';

/**
 * The zod schemas of desk.ts: what the API and the forms check, on the server and in a form
 * once it is used. The pages' texts and constants are in desk.ts, which needs no zod
 * (docs/decisions/119-schemas-stay-on-the-server.md).
 */
/** An admin marks a ticket a privacy request (or not); Deactivation tickets always are one. */
export const PrivacyBodySchema = z.object({ privacy: z.boolean({ error: 'privacy must be true or false' }) });

export const RatingBodySchema = z.object({
  good: z.boolean({ error: DESK_TEXT.chooseRating }),
  comment: z
    .string()
    .trim()
    .max(RATING_COMMENT_MAX_LENGTH, DESK_TEXT.commentTooLong)
    .optional()
    .transform((v) => (v ? v : null)),
});

/** 'me' or an admin's id; null unassigns. */
/** The ticket's version a staff write was written against (docs/decisions/140-stale-writes-stopped.md). */
export const SeenVersionSchema = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional();

export const AssignBodySchema = z.object({
  assignee: z.union([z.literal('me'), z.uuid({ error: DESK_TEXT.assigneeMissing })]).nullable(),
  seenVersion: SeenVersionSchema,
});
/** Close and reopen: the version they were written against, when the caller names one. */
export const SeenVersionQuerySchema = z.object({ seenVersion: SeenVersionSchema });

export const AgentSchema = z.object({ id: z.uuid(), email: z.string() });
export const AgentListSchema = z.object({ agents: z.array(AgentSchema) });
export type Agent = z.infer<typeof AgentSchema>;

export const DeskFiguresSchema = z.object({
  firstResponseMedianMinutes: z.number().nullable(),
  resolutionMedianMinutes: z.number().nullable(),
  good7: z.number().int(),
  rated7: z.number().int(),
  good30: z.number().int(),
  rated30: z.number().int(),
});
export type DeskFigures = z.infer<typeof DeskFiguresSchema>;

/**
 * A new console's first steps (the checklist on /admin): each true once done. Read from what is
 * there, so a step done any way (the page, the API, the command line) is ticked.
 */
export const FirstStepsSchema = z.object({
  /** The business hours were saved at least once (not the defaults a new database starts with). */
  businessHours: z.boolean(),
  /** More than one admin account is active: someone else can answer too. */
  teammate: z.boolean(),
  /** At least one saved reply exists. */
  savedReply: z.boolean(),
  /** A ticket has had an answer from the team: the whole round was tried. */
  testTicket: z.boolean(),
});
export type FirstSteps = z.infer<typeof FirstStepsSchema>;

/** What a macro does besides its reply (contracts/macro-actions.ts): each left out leaves that as it is. */
export const MacroActionsSchema = z.object({
  status: z.enum(['close', 'reopen']).optional(),
  assignee: z.union([z.literal('me'), z.literal('nobody'), z.uuid()]).optional(),
  labelIds: z
    .array(z.uuid({ error: MACRO_ACTION_TEXT.labelMissing }))
    .max(20)
    .optional(),
  note: z
    .string()
    .trim()
    .max(MACRO_NOTE_MAX, MACRO_ACTION_TEXT.noteTooLong)
    .superRefine((note, context) => {
      const unknown = unknownPlaceholders(note)[0];
      if (unknown) context.addIssue({ code: 'custom', message: MACRO_TEXT.unknown(unknown) });
      else if (templateQuestions(note).length > 0)
        context.addIssue({ code: 'custom', message: MACRO_ACTION_TEXT.noteAsks });
    })
    .optional(),
});

export const SavedReplySchema = z.object({
  id: z.uuid(),
  title: z.string(),
  body: z.string(),
  actions: MacroActionsSchema,
  updatedAt: z.string(),
});
export type SavedReply = z.infer<typeof SavedReplySchema>;
export const SavedReplyListSchema = z.object({ savedReplies: z.array(SavedReplySchema) });

export const SavedReplyBodySchema = z.object({
  title: z
    .string({ error: SAVED_REPLY_TEXT.titleRequired })
    .trim()
    .min(1, SAVED_REPLY_TEXT.titleRequired)
    .max(SAVED_REPLY_TITLE_MAX, SAVED_REPLY_TEXT.titleTooLong),
  body: z
    .string({ error: SAVED_REPLY_TEXT.bodyRequired })
    .trim()
    .min(1, SAVED_REPLY_TEXT.bodyRequired)
    .max(SAVED_REPLY_BODY_MAX, SAVED_REPLY_TEXT.bodyTooLong)
    .superRefine((body, context) => {
      const unknown = unknownPlaceholders(body)[0];
      if (unknown) context.addIssue({ code: 'custom', message: MACRO_TEXT.unknown(unknown) });
    }),
  actions: MacroActionsSchema.optional(),
});
export const SavedReplyParamsSchema = z.object({ savedReplyId: z.string().max(64) });

export const SearchQuerySchema = z.object({
  q: z.string({ error: 'Type what to search for.' }).trim().min(1, 'Type what to search for.').max(200),
});

/** The rating form's fields as they are posted: Good or Bad (required), and a comment. */
export const RatingFormSchema = z.object({
  good: z.enum(['true', 'false'], { error: DESK_TEXT.chooseRating }).transform((value) => value === 'true'),
  comment: z.string().max(RATING_COMMENT_MAX_LENGTH, DESK_TEXT.commentTooLong).optional(),
});

/**
 * A macro applied to one ticket: its reply as the agent finished it (empty: none; nothing of its
 * placeholders may be left), then its actions, as one change against the version the agent saw.
 */
export const MacroApplySchema = z
  .object({
    savedReplyId: z.uuid({ error: SAVED_REPLY_TEXT.missing }),
    messageBody: z
      .string()
      .trim()
      .max(MESSAGE_MAX_LENGTH, `Messages can be at most ${MESSAGE_MAX_LENGTH} characters long`)
      .default(''),
    clientId: clientIdSchema,
    seenVersion: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .superRefine((value, context) => {
    const left = placeholdersIn(value.messageBody)[0];
    if (left) context.addIssue({ code: 'custom', path: ['messageBody'], message: MACRO_TEXT.unfilled(left) });
  });
export type MacroApply = z.infer<typeof MacroApplySchema>;
