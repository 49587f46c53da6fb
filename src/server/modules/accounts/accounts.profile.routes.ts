import type { FastifyInstance } from 'fastify';
import { accountApi, authApi } from '../../../contracts/api/accounts.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import type { AccountProfileService } from './accounts.profile.service.ts';

/** The account page's API (docs/product.md §2.13): /api/account, its sessions, and the email change. Thin. */
export async function accountProfileRoutes(app: FastifyInstance, options: { profile: AccountProfileService }) {
  const { profile } = options;
  // JSON only: a form or text/plain body (what another site can send without a preflight) gets 415 (CSRF-03).
  app.removeContentTypeParser('text/plain');

  route(app, accountApi.profile, async (request) => profile.profile(principalOf(request)));

  route(app, accountApi.setName, async (request) => profile.setName(principalOf(request), request.body.name));

  route(app, accountApi.keyboard, async (request) => profile.keyboard(principalOf(request)));

  route(app, accountApi.setKeyboard, async (request) =>
    profile.setKeyboard(principalOf(request), request.body.keyboardShortcuts),
  );

  route(app, accountApi.sessions, async (request) => ({ sessions: await profile.listSessions(principalOf(request)) }));

  route(app, accountApi.endSession, async (request) => ({
    message: await profile.endSession(principalOf(request), request.params.sessionId),
  }));

  route(app, accountApi.endOtherSessions, async (request) => profile.endOtherSessions(principalOf(request)));

  route(app, accountApi.changeEmail, async (request, reply) => {
    const message = await profile.requestEmailChange({
      principal: principalOf(request),
      ...request.body,
      ip: request.ip,
    });
    return reply.status(202).send({ message });
  });

  route(app, authApi.confirmEmailChange, async (request) => ({
    message: await profile.confirmEmailChange({ token: request.body.token, ip: request.ip }),
  }));
}
