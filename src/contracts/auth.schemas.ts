import { OtpSchema, PasskeyAssertionSchema } from './second-factor.schemas.ts';
import { ACCOUNT_MESSAGES, ACCOUNT_NAME_MAX } from './account.ts';
import { z } from './zod.ts';
import { AUTH_MESSAGES, EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './auth.ts';

/**
 * The zod schemas of auth.ts: what the API and the forms check, on the server and in a form
 * once it is used. The pages' texts and constants are in auth.ts, which needs no zod
 * (docs/decisions/119-schemas-stay-on-the-server.md).
 */
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

/**
 * A person's name as they give it: trimmed, at most ACCOUNT_NAME_MAX characters, no control
 * characters (it goes into mail greetings and a From header). Empty means no name.
 */
export const AccountNameSchema = z
  .string()
  .trim()
  .max(ACCOUNT_NAME_MAX, ACCOUNT_MESSAGES.nameTooLong)
  .regex(/^[^\p{Cc}\u2028\u2029]*$/u, ACCOUNT_MESSAGES.nameControl);

export const SignupRequestSchema = z.object({
  email: EmailSchema,
  password: NewPasswordSchema,
  /** Optional: an empty name is no name. */
  name: AccountNameSchema.optional(),
});

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
