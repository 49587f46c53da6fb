import { PasskeyOptionsRequestSchema } from '../auth.schemas.ts';
import { endpoint } from '../endpoint.ts';
import {
  FactorParamsSchema,
  FactorRemovedSchema,
  PasskeyRegisterRequestSchema,
  RecoveryCodesSchema,
  SecondFactorStatusSchema,
  TotpConfirmRequestSchema,
  TotpEnrolmentSchema,
  WebAuthnOptionsSchema,
} from '../second-factor.schemas.ts';

/**
 * docs/design.md §4: the admin's second factor. Enrolment is under /api/admin/second-factor and is
 * the one part of the admin API an admin may call before passing a second factor
 * (`secondFactorEnrolment`); a passkey sign-in asks /api/auth/passkey/options for its challenge.
 */
const ERRORS = [400, 401, 403, 429] as const;

export const secondFactorApi = {
  passkeySignInOptions: endpoint({
    method: 'POST',
    path: '/api/auth/passkey/options',
    access: 'public',
    tags: ['accounts'],
    summary: "An admin's passkey sign-in: checks the password, then answers a WebAuthn challenge",
    description:
      'The same password checks and throttling as /api/auth/login. The browser signs the challenge and sends the answer as `passkey` to /api/auth/login.',
    body: PasskeyOptionsRequestSchema,
    answers: { 200: WebAuthnOptionsSchema },
    errors: ERRORS,
  }),
  status: endpoint({
    method: 'GET',
    path: '/api/admin/second-factor',
    access: 'console',
    secondFactorEnrolment: true,
    tags: ['admin'],
    summary: "The admin's second factors, and whether this session passed one",
    answers: { 200: SecondFactorStatusSchema },
    errors: ERRORS,
  }),
  beginTotp: endpoint({
    method: 'POST',
    path: '/api/admin/second-factor/totp',
    access: 'console',
    secondFactorEnrolment: true,
    tags: ['admin'],
    summary: 'Start setting up an authenticator app: its secret, as text and as a QR code',
    answers: { 200: TotpEnrolmentSchema },
    errors: ERRORS,
  }),
  confirmTotp: endpoint({
    method: 'POST',
    path: '/api/admin/second-factor/totp/confirm',
    access: 'console',
    secondFactorEnrolment: true,
    tags: ['admin'],
    summary: 'Confirm the authenticator app with one code; answers ten recovery codes, shown once',
    body: TotpConfirmRequestSchema,
    answers: { 200: RecoveryCodesSchema },
    errors: ERRORS,
  }),
  passkeyRegistrationOptions: endpoint({
    method: 'POST',
    path: '/api/admin/second-factor/passkey/options',
    access: 'console',
    secondFactorEnrolment: true,
    tags: ['admin'],
    summary: 'Start registering a passkey: WebAuthn creation options',
    answers: { 200: WebAuthnOptionsSchema },
    errors: ERRORS,
  }),
  registerPasskey: endpoint({
    method: 'POST',
    path: '/api/admin/second-factor/passkey',
    access: 'console',
    secondFactorEnrolment: true,
    tags: ['admin'],
    summary: "Register the passkey with the browser's answer; answers ten recovery codes, shown once",
    body: PasskeyRegisterRequestSchema,
    answers: { 200: RecoveryCodesSchema },
    errors: ERRORS,
  }),
  // Managing one's factors needs a session that passed one (plain admin access, no enrolment pass).
  removeFactor: endpoint({
    method: 'DELETE',
    path: '/api/admin/second-factor/:factorId',
    access: 'console',
    tags: ['admin'],
    summary: 'Remove one of your second factors (never the last one)',
    params: FactorParamsSchema,
    answers: { 200: FactorRemovedSchema },
    errors: [...ERRORS, 404],
  }),
  renewRecoveryCodes: endpoint({
    method: 'POST',
    path: '/api/admin/second-factor/recovery-codes',
    access: 'console',
    tags: ['admin'],
    summary: 'Ten new recovery codes, shown once; the old ones stop working',
    answers: { 200: RecoveryCodesSchema },
    errors: ERRORS,
  }),
} as const;
