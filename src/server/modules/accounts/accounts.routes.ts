import type { FastifyInstance } from 'fastify';
import { authApi as api } from '../../../contracts/api/accounts.ts';
import { secondFactorApi } from '../../../contracts/api/second-factor.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import { readSessionToken } from '../../plugins/sessions.ts';
import type { AccountsService } from './accounts.service.ts';
import { sessionDevice } from './accounts.device.ts';
import { refusalError, type SignInService } from './sign-in.service.ts';

/** docs/design.md §4: /api/auth/*, each as declared in contracts/api/accounts.ts. Thin: call the service, answer a DTO. */
export async function accountsRoutes(
  app: FastifyInstance,
  options: { accounts: AccountsService; signIn: SignInService; cookieName: string },
) {
  const { accounts, signIn, cookieName } = options;
  // JSON only: a form or text/plain body (what another site can send without a preflight) gets 415 (CSRF-03).
  app.removeContentTypeParser('text/plain');

  route(app, api.login, async (request, reply) => {
    const { email, password, session, otp, passkey } = request.body;
    const result = await signIn.signIn({
      email,
      password,
      otp,
      passkey,
      ip: request.ip,
      presentedToken: readSessionToken(request, cookieName),
      device: sessionDevice(request.headers['user-agent'], request.ip),
    });
    if (result.outcome !== 'signed-in') {
      // An unverified user's earlier session has just been ended: the browser forgets it too.
      // (A wrong password leaves the earlier session as it was.)
      if (result.outcome === 'unverified' && result.presentedSessionEnded) reply.clearSessionCookie();
      throw refusalError(result);
    }
    if (session === 'token') {
      return {
        user: result.user,
        session: { token: result.session.token, expiresAt: result.session.expiresAt.toISOString() },
      };
    }
    reply.setSessionCookie(result.session.token);
    return { user: result.user };
  });

  // An admin's passkey sign-in asks for its challenge here, after the same password step.
  route(app, secondFactorApi.passkeySignInOptions, async (request) => {
    const result = await signIn.passkeyChallenge({ ...request.body, ip: request.ip });
    if (result.outcome !== 'challenge') throw refusalError(result);
    return { options: result.options as Record<string, unknown> };
  });

  route(app, api.logout, async (request, reply) => {
    await signIn.signOut(readSessionToken(request, cookieName));
    reply.clearSessionCookie();
    return { message: 'You have been signed out.' };
  });

  route(app, api.session, async (request) => ({ user: await accounts.getUser(principalOf(request).userId) }));

  route(app, api.signup, async (request, reply) => {
    const message = await accounts.signUp({ ...request.body, ip: request.ip });
    return reply.status(202).send({ message });
  });

  route(app, api.verifyEmail, async (request) => ({
    message: await accounts.verifyEmail({ token: request.body.token, ip: request.ip }),
  }));

  route(app, api.resendVerification, async (request, reply) => {
    const message = await accounts.resendVerification({ email: request.body.email, ip: request.ip });
    return reply.status(202).send({ message });
  });

  route(app, api.forgotPassword, async (request, reply) => {
    const message = await accounts.forgotPassword({ email: request.body.email, ip: request.ip });
    return reply.status(202).send({ message });
  });

  route(app, api.resetPassword, async (request, reply) => {
    const message = await accounts.resetPassword({ ...request.body, ip: request.ip });
    reply.clearSessionCookie();
    return { message };
  });

  route(app, api.changePassword, async (request) => ({
    message: await accounts.changePassword({ ...request.body, principal: principalOf(request), ip: request.ip }),
  }));
}
