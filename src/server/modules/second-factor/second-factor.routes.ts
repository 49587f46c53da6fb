import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PasskeyOptionsRequestSchema } from '../../../contracts/auth.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import {
  FactorParamsSchema,
  FactorRemovedSchema,
  PasskeyRegisterRequestSchema,
  RecoveryCodesSchema,
  SecondFactorStatusSchema,
  TotpConfirmRequestSchema,
  TotpEnrolmentSchema,
  WebAuthnOptionsSchema,
} from '../../../contracts/second-factor.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { SecondFactorService } from './second-factor.service.ts';

/** WebAuthn options are plain JSON (the standard's shape), answered as they are. */
const json = (options: object) => options as Record<string, unknown>;

/**
 * docs/design.md §4: the admin's second factor. Enrolment is under /api/admin/second-factor and is
 * the one part of the admin API an admin may call before passing a second factor
 * (`secondFactorEnrolment`); a passkey sign-in asks /api/auth/passkey/options for its challenge.
 */
export async function secondFactorRoutes(
  app: FastifyInstance,
  options: { secondFactor: SecondFactorService; accounts: AccountsService },
) {
  const { secondFactor, accounts } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  // JSON only: a form or text/plain body (what another site can send without a preflight) gets 415 (CSRF-03).
  api.removeContentTypeParser('text/plain');
  const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 429: ErrorBodySchema };
  const enrolment = { access: 'admin', secondFactorEnrolment: true } as const;
  const tags = ['admin'];

  api.post('/api/auth/passkey/options', {
    config: { access: 'public' },
    schema: {
      tags: ['accounts'],
      summary: "An admin's passkey sign-in: checks the password, then answers a WebAuthn challenge",
      description:
        'The same password checks and throttling as /api/auth/login. The browser signs the challenge and sends the answer as `passkey` to /api/auth/login.',
      body: PasskeyOptionsRequestSchema,
      response: { 200: WebAuthnOptionsSchema, ...errors },
    },
    handler: async (request) => {
      const user = await accounts.checkPassword({ ...request.body, ip: request.ip });
      return { options: json(await secondFactor.passkeyLoginOptions(user)) };
    },
  });

  api.get('/api/admin/second-factor', {
    config: enrolment,
    schema: {
      tags,
      summary: "The admin's second factors, and whether this session passed one",
      response: { 200: SecondFactorStatusSchema, ...errors },
    },
    handler: async (request) => secondFactor.status(request.principal!),
  });

  api.post('/api/admin/second-factor/totp', {
    config: enrolment,
    schema: {
      tags,
      summary: 'Start setting up an authenticator app: its secret, as text and as a QR code',
      response: { 200: TotpEnrolmentSchema, ...errors },
    },
    handler: async (request) => secondFactor.beginTotp(request.principal!),
  });

  api.post('/api/admin/second-factor/totp/confirm', {
    config: enrolment,
    schema: {
      tags,
      summary: 'Confirm the authenticator app with one code; answers ten recovery codes, shown once',
      body: TotpConfirmRequestSchema,
      response: { 200: RecoveryCodesSchema, ...errors },
    },
    handler: async (request) => secondFactor.confirmTotp(request.principal!, { ...request.body, ip: request.ip }),
  });

  api.post('/api/admin/second-factor/passkey/options', {
    config: enrolment,
    schema: {
      tags,
      summary: 'Start registering a passkey: WebAuthn creation options',
      response: { 200: WebAuthnOptionsSchema, ...errors },
    },
    handler: async (request) => ({ options: json(await secondFactor.passkeyRegistrationOptions(request.principal!)) }),
  });

  api.post('/api/admin/second-factor/passkey', {
    config: enrolment,
    schema: {
      tags,
      summary: "Register the passkey with the browser's answer; answers ten recovery codes, shown once",
      body: PasskeyRegisterRequestSchema,
      response: { 200: RecoveryCodesSchema, ...errors },
    },
    handler: async (request) => secondFactor.registerPasskey(request.principal!, request.body),
  });

  // Managing one's factors needs a session that passed one (plain admin access, no enrolment pass).
  api.delete('/api/admin/second-factor/:factorId', {
    config: { access: 'admin' },
    schema: {
      tags,
      summary: 'Remove one of your second factors (never the last one)',
      params: FactorParamsSchema,
      response: { 200: FactorRemovedSchema, 404: ErrorBodySchema, ...errors },
    },
    handler: async (request) => secondFactor.removeFactor(request.principal!, request.params.factorId),
  });

  api.post('/api/admin/second-factor/recovery-codes', {
    config: { access: 'admin' },
    schema: {
      tags,
      summary: 'Ten new recovery codes, shown once; the old ones stop working',
      response: { 200: RecoveryCodesSchema, ...errors },
    },
    handler: async (request) => secondFactor.renewRecoveryCodes(request.principal!),
  });
}
