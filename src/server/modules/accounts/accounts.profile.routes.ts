import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AccountProfileSchema,
  AccountSessionsSchema,
  ChangeEmailRequestSchema,
  ConfirmEmailChangeRequestSchema,
  RevokeOthersResponseSchema,
  SessionParamsSchema,
} from '../../../contracts/account.ts';
import { MessageResponseSchema } from '../../../contracts/auth.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import type { AccountProfileService } from './accounts.profile.service.ts';

/** The account page's API (docs/product.md §2.13): /api/account, its sessions, and the email change. Thin. */
export async function accountProfileRoutes(app: FastifyInstance, options: { profile: AccountProfileService }) {
  const { profile } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  // JSON only: a form or text/plain body (what another site can send without a preflight) gets 415 (CSRF-03).
  api.removeContentTypeParser('text/plain');
  const errors = {
    400: ErrorBodySchema,
    401: ErrorBodySchema,
    403: ErrorBodySchema,
    404: ErrorBodySchema,
    409: ErrorBodySchema,
    429: ErrorBodySchema,
  };
  const tags = ['account'];

  api.get('/api/account', {
    config: { access: 'user' },
    schema: {
      tags,
      summary: 'The signed-in account: email, verified, member since, an email change waiting for its link',
      response: { 200: AccountProfileSchema, ...errors },
    },
    handler: async (request) => profile.profile(request.principal!),
  });

  api.get('/api/account/sessions', {
    config: { access: 'user' },
    schema: {
      tags,
      summary: "This account's sessions: browser and system, network prefix, started, last seen; `current` is this one",
      response: { 200: AccountSessionsSchema, ...errors },
    },
    handler: async (request) => ({ sessions: await profile.listSessions(request.principal!) }),
  });

  api.delete('/api/account/sessions/:sessionId', {
    config: { access: 'user' },
    schema: {
      tags,
      summary: 'Sign out one other session (its live streams end at once)',
      description: 'The id is the one the list gives. The session in use answers 400: end it with /api/auth/logout.',
      params: SessionParamsSchema,
      response: { 200: MessageResponseSchema, ...errors },
    },
    handler: async (request) => ({ message: await profile.endSession(request.principal!, request.params.sessionId) }),
  });

  api.post('/api/account/sessions/revoke-others', {
    config: { access: 'user' },
    schema: {
      tags,
      summary: 'Sign out every session but this one',
      response: { 200: RevokeOthersResponseSchema, ...errors },
    },
    handler: async (request) => profile.endOtherSessions(request.principal!),
  });

  api.post('/api/account/email', {
    config: { access: 'user' },
    schema: {
      tags,
      summary: 'Change the email address: mails a confirmation link to the new address and a notice to the old one',
      description:
        'Needs the current password. Answers 202 with the same message whether or not the new address already has an account; the account keeps its address until the link is followed.',
      body: ChangeEmailRequestSchema,
      response: { 202: MessageResponseSchema, ...errors },
    },
    handler: async (request, reply) => {
      const message = await profile.requestEmailChange({
        principal: request.principal!,
        ...request.body,
        ip: request.ip,
      });
      return reply.status(202).send({ message });
    },
  });

  api.post('/api/auth/confirm-email-change', {
    config: { access: 'public' },
    schema: {
      tags: ['accounts'],
      summary: 'Use an email-change link: the account moves to the new address',
      description: 'Answers 409 when another account has taken the address meanwhile.',
      body: ConfirmEmailChangeRequestSchema,
      response: { 200: MessageResponseSchema, ...errors },
    },
    handler: async (request) => ({
      message: await profile.confirmEmailChange({ token: request.body.token, ip: request.ip }),
    }),
  });
}
