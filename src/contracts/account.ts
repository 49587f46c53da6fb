import { EmailSchema, PASSWORD_MAX_LENGTH, TokenSchema } from './auth.ts';
import { z } from './zod.ts';

/**
 * The account page (/account, docs/product.md §2.13): the profile, the sessions list and the email
 * change, with every user-facing message of them (house style, habit 2).
 */

/** An email-change link lives a day, like a verification link. */
export const CHANGE_EMAIL_TOKEN_HOURS = 24;

export const ACCOUNT_MESSAGES = {
  title: 'Your account',
  currentPasswordRequired: 'Current password is required',
  currentPasswordWrong: 'The current password is incorrect.',
  // Wrong passwords here count with failed sign-ins (the same budget), so the wait is the same.
  tooManyPasswordTries: (retryAfterSeconds: number) => {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    return `Too many wrong passwords. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`;
  },
  sameEmail: 'This is already your email address.',
  // The same answer whether or not the new address already has an account (decision 042).
  emailChangeRequested:
    'Check the inbox of your new address: we have sent it a link to confirm the change. Until then, you sign in with your current address.',
  emailChanged: 'Your email address has been changed. Sign in with the new address from now on.',
  emailTaken:
    'This address now belongs to another account, so your email address was not changed. Please choose another one.',
  sessionNotFound: 'This session has already ended.',
  sessionIsCurrent: 'This is the session you are using now: use Sign Out to end it.',
  sessionEnded: 'That device has been signed out.',
  otherSessionsEnded: (count: number) =>
    count === 0
      ? 'There were no other sessions to sign out.'
      : `Signed out everywhere else (${count === 1 ? '1 session' : `${count} sessions`}).`,
} as const;

export const AccountProfileSchema = z.object({
  email: z.string(),
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
