import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ChangePasswordRequestSchema,
  EmailRequestSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  MessageResponseSchema,
  ResetPasswordRequestSchema,
  SessionResponseSchema,
  SignupRequestSchema,
  VerifyEmailRequestSchema,
} from '../../../contracts/auth.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import { AppError } from '../../errors.ts';
import { readSessionToken } from '../../plugins/sessions.ts';
import type { AccountsService } from './accounts.service.ts';
import { hashToken } from '../../security/tokens.ts';
import { sessionDevice } from './accounts.device.ts';

/** docs/design.md §4: /api/auth/*. Thin: parse, call the service, answer a DTO. */
export async function accountsRoutes(app: FastifyInstance, options: { accounts: AccountsService; cookieName: string }) {
  const { accounts, cookieName } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  // JSON only: a form or text/plain body (what another site can send without a preflight) gets 415 (CSRF-03).
  api.removeContentTypeParser('text/plain');

  const presentedTokenHash = (request: FastifyRequest) => {
    const token = readSessionToken(request, cookieName);
    return token ? hashToken(token) : undefined;
  };
  const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 429: ErrorBodySchema };
  const tags = ['accounts'];

  api.post('/api/auth/login', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'Sign in with email and password',
      description:
        'Sets the session cookie (`session: "cookie"`, the default) or returns a token for `Authorization: Bearer` (`session: "token"`, API clients). ' +
        'Unknown email and wrong password answer the same 401; an unverified email answers 403 and signs out; too many failures answer 429 with Retry-After. ' +
        'An admin with a second factor also sends `otp` (the authenticator code or a recovery code) or `passkey`; without it, after a right password, the answer is 401 with `fields.otp` saying a code is needed.',
      body: LoginRequestSchema,
      response: { 200: LoginResponseSchema, ...errors },
    },
    handler: async (request, reply) => {
      const { email, password, session, otp, passkey } = request.body;
      const previousTokenHash = presentedTokenHash(request);
      try {
        const signedIn = await accounts.login({
          email,
          password,
          otp,
          passkey,
          ip: request.ip,
          previousTokenHash,
          device: sessionDevice(request.headers['user-agent'], request.ip),
        });
        if (session === 'token') {
          return {
            user: signedIn.user,
            session: { token: signedIn.token, expiresAt: signedIn.expiresAt.toISOString() },
          };
        }
        reply.setSessionCookie(signedIn.token);
        return { user: signedIn.user };
      } catch (error) {
        // An unverified user's earlier session has just been ended: the browser forgets it too.
        // (A wrong password leaves the earlier session as it was.)
        if (previousTokenHash && error instanceof AppError && error.code === 'PERMISSION_DENIED')
          reply.clearSessionCookie();
        throw error;
      }
    },
  });

  api.post('/api/auth/logout', {
    config: { access: 'public' },
    schema: { tags, summary: 'Sign out: ends this session', response: { 200: MessageResponseSchema } },
    handler: async (request, reply) => {
      const tokenHash = presentedTokenHash(request);
      if (tokenHash) await accounts.logout(tokenHash);
      reply.clearSessionCookie();
      return { message: 'You have been signed out.' };
    },
  });

  api.get('/api/auth/session', {
    config: { access: 'user' },
    schema: { tags, summary: 'Who is signed in', response: { 200: SessionResponseSchema, 401: ErrorBodySchema } },
    handler: async (request) => ({ user: await accounts.getUser(request.principal!.userId) }),
  });

  api.post('/api/auth/signup', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'Create an account; a verification link is mailed',
      description: 'Answers 202 with the same message whether or not the email already has an account.',
      body: SignupRequestSchema,
      response: { 202: MessageResponseSchema, ...errors },
    },
    handler: async (request, reply) => {
      const message = await accounts.signUp({ ...request.body, ip: request.ip });
      return reply.status(202).send({ message });
    },
  });

  api.post('/api/auth/verify-email', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'Use a verification link',
      body: VerifyEmailRequestSchema,
      response: { 200: MessageResponseSchema, ...errors },
    },
    handler: async (request) => ({
      message: await accounts.verifyEmail({ token: request.body.token, ip: request.ip }),
    }),
  });

  api.post('/api/auth/resend-verification', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'Mail a new verification link',
      body: EmailRequestSchema,
      response: { 202: MessageResponseSchema, ...errors },
    },
    handler: async (request, reply) => {
      const message = await accounts.resendVerification({ email: request.body.email, ip: request.ip });
      return reply.status(202).send({ message });
    },
  });

  api.post('/api/auth/forgot-password', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'Mail a password-reset link',
      body: EmailRequestSchema,
      response: { 202: MessageResponseSchema, ...errors },
    },
    handler: async (request, reply) => {
      const message = await accounts.forgotPassword({ email: request.body.email, ip: request.ip });
      return reply.status(202).send({ message });
    },
  });

  api.post('/api/auth/reset-password', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'Choose a new password with a reset link; ends every session',
      body: ResetPasswordRequestSchema,
      response: { 200: MessageResponseSchema, ...errors },
    },
    handler: async (request, reply) => {
      const message = await accounts.resetPassword({ ...request.body, ip: request.ip });
      reply.clearSessionCookie();
      return { message };
    },
  });

  api.post('/api/auth/change-password', {
    config: { access: 'user' },
    schema: {
      tags,
      summary: 'Change the password; ends every other session',
      body: ChangePasswordRequestSchema,
      response: { 200: MessageResponseSchema, ...errors },
    },
    handler: async (request) => ({
      message: await accounts.changePassword({ ...request.body, principal: request.principal!, ip: request.ip }),
    }),
  });
}
