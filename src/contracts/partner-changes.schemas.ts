import { storableInJson } from './json-text.ts';
import { CHANGE_NOTE_MAX, CHANGE_REASONS, CHANGEABLE_FIELDS, CHANGES_MESSAGES } from './partner-changes.ts';
import { z } from './zod.ts';

/**
 * The zod schemas of partner-changes.ts: a request for changes as the API takes it and the
 * console's form checks it once used, and as it is stored. The words and constants are in
 * partner-changes.ts, which needs no zod (docs/decisions/119-schemas-stay-on-the-server.md).
 */

/** The admin's request, as the API takes it (and the console's form sends it). */
export const RequestChangesSchema = z
  .object({
    reasons: z
      .array(z.enum(CHANGE_REASONS, { error: CHANGES_MESSAGES.reasonRequired }), {
        error: CHANGES_MESSAGES.reasonRequired,
      })
      .min(1, CHANGES_MESSAGES.reasonRequired),
    fields: z.array(z.enum(CHANGEABLE_FIELDS)).default([]),
    note: z
      .string()
      .trim()
      .max(CHANGE_NOTE_MAX, CHANGES_MESSAGES.noteTooLong)
      .optional()
      // Stored in a jsonb column, which refuses what a text column keeps (contracts/json-text.ts).
      .transform((value) => (value ? storableInJson(value) : null)),
  })
  .superRefine((value, ctx) => {
    if (!value.reasons.includes('other')) return;
    if (!value.note) ctx.addIssue({ code: 'custom', path: ['note'], message: CHANGES_MESSAGES.noteRequired });
    if (value.fields.length === 0)
      ctx.addIssue({ code: 'custom', path: ['fields'], message: CHANGES_MESSAGES.fieldsRequired });
  });
export type RequestChanges = z.infer<typeof RequestChangesSchema>;
export type RequestChangesInput = z.input<typeof RequestChangesSchema>;

/** The request as stored and shown: the reasons, every field they open, and the note. */
export const RequestedChangesSchema = z.object({
  reasons: z.array(z.enum(CHANGE_REASONS)),
  fields: z.array(z.enum(CHANGEABLE_FIELDS)),
  note: z.string().nullable(),
});
export type RequestedChanges = z.infer<typeof RequestedChangesSchema>;

/** What an applicant's send did: the changes went back to review, or a renewal's licence waits for an admin. */
export const SentChangesSchema = z.object({ sent: z.enum(['changes', 'renewal']) });
