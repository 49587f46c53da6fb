import { z } from './zod.ts';

/**
 * Admins' second factor (docs/product.md §2.15, docs/decisions/096-admin-second-factor.md): an
 * authenticator app (TOTP) or a passkey, and ten one-time recovery codes. The schemas and every
 * user-facing message of enrolment and of the sign-in step.
 */

export const RECOVERY_CODE_COUNT = 10;
/** A TOTP code is 6 digits; a recovery code 16 hex characters in groups of four (xxxx-xxxx-xxxx-xxxx). */
export const OTP_MAX_LENGTH = 64;
export const FACTOR_LABEL_MAX_LENGTH = 60;

export const SECOND_FACTOR_MESSAGES = {
  // The sign-in step: what an admin with a second factor is told when the password alone was sent.
  otpRequired: 'Enter the 6-digit code from your authenticator app (or a recovery code) to sign in.',
  otpWrong: 'That code is incorrect or has already been used. Enter the current code from your app.',
  otpInvalid: 'Enter the 6-digit code from your app, or a recovery code.',
  passkeyFailed: 'Your passkey could not be checked. Please try again, or use a code.',
  passkeyNone: 'This account has no passkey. Enter the code from your authenticator app instead.',
  // A form sent without JavaScript keeps no password: the code step holds it for five minutes.
  passwordAccepted: (email: string) => `Password accepted for ${email}.`,
  signInExpired: 'Your sign-in has expired. Please enter your password again.',
  notYou: 'Sign in with another account',
  tooManyCodes: (minutes: number) =>
    `Too many wrong codes. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`,
  // The console before enrolment.
  enrolRequired: 'Set up a second factor to open the console.',
  signInAgain: 'This account already has a second factor: sign out and sign in again with it to open the console.',
  codeRequired: 'Enter the 6-digit code your app shows.',
  codeWrong: 'That code is not right. Check the time on your phone and enter the current code.',
  enrolmentExpired: 'This set-up has expired. Start again to get a new QR code.',
  passkeyRegisterFailed: 'The passkey could not be registered. Please try again.',
  challengeExpired: 'This passkey request has expired. Please try again.',
  enrolled: 'Your second factor is set up.',
  // The console's Sign-in security page.
  removed: (label: string) => `Removed ${label}. Signing in asks for one of the others from now on.`,
  lastFactor: 'This is your only second factor. Add another one before you remove it.',
  factorNotFound: 'This second factor is not on your account (it may have been removed already).',
  codesRenewed: 'Here are your new recovery codes. The old ones no longer work.',
} as const;

/** A code typed by a person: spaces and dashes are ignored; checked as TOTP (6 digits) or a recovery code. */
export const OtpSchema = z
  .string({ error: SECOND_FACTOR_MESSAGES.otpInvalid })
  .max(OTP_MAX_LENGTH, SECOND_FACTOR_MESSAGES.otpInvalid)
  .transform((v) => v.replace(/[\s-]/g, '').toLowerCase())
  .refine((v) => /^\d{6}$/.test(v) || /^[0-9a-f]{16}$/.test(v), SECOND_FACTOR_MESSAGES.otpInvalid);

export const TotpCodeSchema = z
  .string({ error: SECOND_FACTOR_MESSAGES.codeRequired })
  .transform((v) => v.replace(/\s/g, ''))
  .refine((v) => v.length > 0, SECOND_FACTOR_MESSAGES.codeRequired)
  .refine((v) => /^\d{6}$/.test(v), SECOND_FACTOR_MESSAGES.codeRequired);

const base64url = z
  .string()
  .max(20_000)
  .regex(/^[A-Za-z0-9_-]*$/, 'Not base64url');

/** A WebAuthn assertion as @simplewebauthn/browser's startAuthentication returns it. */
export const PasskeyAssertionSchema = z.object({
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});

export type PasskeyAssertion = z.infer<typeof PasskeyAssertionSchema>;

/** A WebAuthn attestation as startRegistration returns it. */
export const PasskeyAttestationSchema = z.object({
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    authenticatorData: base64url.optional(),
    transports: z.array(z.string().max(40)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url.optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});

const LabelSchema = z.string().trim().max(FACTOR_LABEL_MAX_LENGTH, `At most ${FACTOR_LABEL_MAX_LENGTH} characters`);

export const TotpConfirmRequestSchema = z.object({
  factorId: z.uuid({ error: SECOND_FACTOR_MESSAGES.enrolmentExpired }),
  code: TotpCodeSchema,
  label: LabelSchema.optional(),
});

export const PasskeyRegisterRequestSchema = z.object({
  response: PasskeyAttestationSchema,
  label: LabelSchema.optional(),
});

export const TotpEnrolmentSchema = z.object({
  factorId: z.uuid(),
  /** Base32, shown as text for typing into an app. */
  secret: z.string(),
  /** The otpauth:// address the QR code holds. */
  uri: z.string(),
  /** The QR code as an SVG document (rendered inline by the page; no script, no external image). */
  qrSvg: z.string(),
});
export type TotpEnrolment = z.infer<typeof TotpEnrolmentSchema>;

export const RecoveryCodesSchema = z.object({
  message: z.string(),
  /** Shown once; only their hashes are kept. */
  recoveryCodes: z.array(z.string()),
});
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;

export const SecondFactorStatusSchema = z.object({
  /** This session passed the second factor (the console is open to it). */
  passed: z.boolean(),
  factors: z.array(
    z.object({
      id: z.uuid(),
      kind: z.enum(['totp', 'passkey']),
      label: z.string(),
      createdAt: z.iso.datetime(),
      lastUsedAt: z.iso.datetime().nullable(),
    }),
  ),
  recoveryCodesLeft: z.number().int(),
});
export type SecondFactorStatus = z.infer<typeof SecondFactorStatusSchema>;

export const FactorRemovedSchema = z.object({ message: z.string() });
/** An id that is no uuid is no factor of anyone's: the same 404 as an unknown one. */
export const FactorParamsSchema = z.object({ factorId: z.string().max(100) });

/** WebAuthn options are passed to the browser library as they are (their shape is the standard's). */
export const WebAuthnOptionsSchema = z.object({ options: z.record(z.string(), z.unknown()) });
