import { PASSWORD_MAX_LENGTH } from './auth.ts';
import { AccountNameSchema, EmailSchema, TokenSchema } from './auth.schemas.ts';
import { z } from './zod.ts';
import { ACCOUNT_MESSAGES } from './account.ts';

/**
 * The zod schemas of account.ts: what the API and the forms check, on the server and in a form
 * once it is used. The pages' texts and constants are in account.ts, which needs no zod
 * (docs/decisions/119-schemas-stay-on-the-server.md).
 */
export const SetAccountNameRequestSchema = z.object({ name: AccountNameSchema });
export const SetAccountNameResponseSchema = z.object({ message: z.string(), name: z.string().nullable() });

/** A staff member's console keyboard: single-key shortcuts on or off (docs/decisions/146-console-keyboard.md). */
export const KeyboardSettingSchema = z.object({ keyboardShortcuts: z.boolean() });

export const AccountProfileSchema = z.object({
  email: z.string(),
  /** The name the person gave, if any. */
  name: z.string().nullable(),
  emailVerified: z.boolean(),
  role: z.enum(['user', 'admin']),
  memberSince: z.iso.datetime(),
  /** The address an email change waits to confirm (its link is unused and unexpired), if any. */
  pendingEmail: z.string().nullable(),
});
export type AccountProfile = z.infer<typeof AccountProfileSchema>;

/** An opaque id: derived from the session's key by a one-way hash, never the key itself. */
export const SessionIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/, ACCOUNT_MESSAGES.sessionNotFound);

export const AccountSessionSchema = z.object({
  id: z.string(),
  /** e.g. "Firefox 128 on Windows 10"; "Unknown browser" when the User-Agent says nothing useful. */
  device: z.string(),
  /** The network it signed in from, coarsely: an IPv4 /24 or IPv6 /48 prefix; null when unknown. */
  place: z.string().nullable(),
  createdAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof AccountSessionSchema>;

export const AccountSessionsSchema = z.object({ sessions: z.array(AccountSessionSchema) });

export const SessionParamsSchema = z.object({ sessionId: SessionIdSchema });

export const RevokeOthersResponseSchema = z.object({ message: z.string(), ended: z.number().int() });

export const ChangeEmailRequestSchema = z.object({
  newEmail: EmailSchema,
  currentPassword: z
    .string({ error: ACCOUNT_MESSAGES.currentPasswordRequired })
    .min(1, ACCOUNT_MESSAGES.currentPasswordRequired)
    .max(PASSWORD_MAX_LENGTH * 4, ACCOUNT_MESSAGES.currentPasswordWrong),
});

export const ConfirmEmailChangeRequestSchema = z.object({ token: TokenSchema });
