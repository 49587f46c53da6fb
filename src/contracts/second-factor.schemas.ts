import { z } from './zod.ts';
import { FACTOR_LABEL_MAX_LENGTH, OTP_MAX_LENGTH, SECOND_FACTOR_MESSAGES } from './second-factor.ts';

/**
 * The zod schemas of second-factor.ts: what the API and the forms check, on the server and in a form
 * once it is used. The pages' texts and constants are in second-factor.ts, which needs no zod
 * (docs/decisions/119-schemas-stay-on-the-server.md).
 */
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

/** The console's form confirming an authenticator app: its one field, checked in the browser and in the action alike. */
export const TotpConfirmFormSchema = z.object({ code: TotpCodeSchema });

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
