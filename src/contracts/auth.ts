import { OtpSchema, PasskeyAssertionSchema } from './second-factor.ts';
import { z } from './zod.ts';

/**
 * Accounts: one schema per input, shared by the forms and the API, and every user-facing message
 * of sign-in, sign-up, verification and password reset (house style, habit 2).
 */

export const PASSWORD_MIN_LENGTH = 8;
/** Long passphrases are welcome; the cap only bounds the cost of hashing (AUTH-02). */
export const PASSWORD_MAX_LENGTH = 1024;
export const EMAIL_MAX_LENGTH = 254;

/** Verification links live a day; reset links an hour (a reset link is a key to the account). */
export const VERIFY_EMAIL_TOKEN_HOURS = 24;
export const RESET_PASSWORD_TOKEN_HOURS = 1;

export const AUTH_MESSAGES = {
  // docs/product.md §6, §8: exactly this text when an unverified user tries to sign in.
  unverified: 'The email associated with this account has not been verified!',
  // One message for an unknown email and a wrong password: no account enumeration (AUTH-04).
  invalidCredentials: 'The email or password is incorrect.',
  signInRequired: 'Please sign in to continue.',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email format',
  passwordRequired: 'Password is required',
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  passwordTooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
  passwordTooCommon: 'This password is too common. Please choose one that is harder to guess.',
  passwordIsEmail: 'Your password must not be your email address.',
  passwordsDiffer: 'The passwords do not match',
  currentPasswordRequired: 'Current password is required',
  currentPasswordWrong: 'The current password is incorrect.',
  newPasswordSameAsOld: 'Choose a password different from the current one.',
  tokenInvalid: 'This link is invalid, has expired or has already been used. Please ask for a new one.',
  // Enumeration-safe answers: the same words whether or not an account exists.
  signupAccepted: 'Check your inbox: we have sent a link to confirm your email address.',
  verificationSent:
    'If this account still needs to be verified, a new verification link is on its way. Check your inbox.',
  resetRequested: 'If an account exists for this email, we have sent a link to reset its password. Check your inbox.',
  emailVerified: 'Your email address is verified. You can now sign in.',
  passwordReset: 'Your password has been reset. Please sign in with your new password.',
  passwordChanged: 'Your password has been changed. You have been signed out everywhere else.',
  signedOut: 'You have been signed out.',
  tooManyMailRequests: 'Too many requests for this email address. Please wait a while and try again.',
  tooManyRequests: 'Too many requests from your network. Please wait a while and try again.',
} as const;

/** Readable text for a throttled sign-in; the wait comes from the 429's Retry-After. */
export function tooManySignInsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many failed sign-in attempts. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`;
}

/** Emails are compared trimmed and lower-cased (users.email is stored that way). */
export const EmailSchema = z
  .string({ error: AUTH_MESSAGES.emailRequired })
  .trim()
  .min(1, AUTH_MESSAGES.emailRequired)
  .max(EMAIL_MAX_LENGTH, AUTH_MESSAGES.emailInvalid)
  .pipe(z.email({ error: AUTH_MESSAGES.emailInvalid }))
  .transform((v) => v.toLowerCase());

/** Counted in Unicode code points, so an emoji is one character; never trimmed or truncated. */
const codePoints = (v: string) => Array.from(v).length;

/** A password being chosen (sign-up, reset, change): the length rules. Common passwords are refused by the server. */
export const NewPasswordSchema = z
  .string({ error: AUTH_MESSAGES.passwordRequired })
  .min(1, AUTH_MESSAGES.passwordRequired)
  .refine((v) => codePoints(v) >= PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordTooShort)
  .refine((v) => codePoints(v) <= PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordTooLong);

/** A password being presented (sign-in): any non-empty value up to the cap. */
export const PasswordSchema = z
  .string({ error: AUTH_MESSAGES.passwordRequired })
  .min(1, AUTH_MESSAGES.passwordRequired)
  .max(PASSWORD_MAX_LENGTH * 4, AUTH_MESSAGES.passwordTooLong);

export const LoginRequestSchema = z.object({
  email: EmailSchema,
  password: PasswordSchema,
  /**
   * How the client keeps its session: the website holds it in an HttpOnly cookie (the token never
   * reaches page scripts); an API client (the mobile app) asks for the token in the body and sends
   * it as `Authorization: Bearer`.
   */
  session: z.enum(['cookie', 'token']).default('cookie'),
  /** An admin's second factor (docs/product.md §2.15): the authenticator app's code or a recovery code… */
  otp: OtpSchema.optional(),
  /** …or a passkey's answer to the challenge of POST /api/auth/passkey/options. */
  passkey: PasskeyAssertionSchema.optional(),
});

/** POST /api/auth/passkey/options: the password is checked first, then a challenge for the account's passkeys. */
export const PasskeyOptionsRequestSchema = z.object({ email: EmailSchema, password: PasswordSchema });

export const UserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  role: z.enum(['user', 'admin']),
  emailVerified: z.boolean(),
});
export type User = z.infer<typeof UserSchema>;

export const LoginResponseSchema = z.object({
  user: UserSchema,
  /** Only when `session: "token"` was asked for. */
  session: z.object({ token: z.string(), expiresAt: z.iso.datetime() }).optional(),
});

export const SessionResponseSchema = z.object({ user: UserSchema });

export const MessageResponseSchema = z.object({ message: z.string() });

export const SignupRequestSchema = z.object({ email: EmailSchema, password: NewPasswordSchema });

/** The sign-up form: the API body plus a confirmation checked in the browser. */
export const SignupFormSchema = SignupRequestSchema.extend({ confirmPassword: z.string() }).refine(
  (v) => v.password === v.confirmPassword,
  { path: ['confirmPassword'], message: AUTH_MESSAGES.passwordsDiffer },
);

export const TokenSchema = z
  .string({ error: AUTH_MESSAGES.tokenInvalid })
  .regex(/^[A-Za-z0-9_-]{43}$/, AUTH_MESSAGES.tokenInvalid);

export const VerifyEmailRequestSchema = z.object({ token: TokenSchema });
export const EmailRequestSchema = z.object({ email: EmailSchema });

export const ResetPasswordRequestSchema = z.object({ token: TokenSchema, password: NewPasswordSchema });
export const ResetPasswordFormSchema = z
  .object({ password: NewPasswordSchema, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: AUTH_MESSAGES.passwordsDiffer,
  });

export const ChangePasswordRequestSchema = z.object({
  currentPassword: z
    .string({ error: AUTH_MESSAGES.currentPasswordRequired })
    .min(1, AUTH_MESSAGES.currentPasswordRequired),
  newPassword: NewPasswordSchema,
});
export const ChangePasswordFormSchema = ChangePasswordRequestSchema.extend({ confirmPassword: z.string() }).refine(
  (v) => v.newPassword === v.confirmPassword,
  { path: ['confirmPassword'], message: AUTH_MESSAGES.passwordsDiffer },
);
