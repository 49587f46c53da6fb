import type { FastifyInstance } from 'fastify';
import { usersApi as api } from '../../../contracts/api/accounts.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import type { AccountsAdminService } from './accounts.admin.service.ts';
import type { InvitationsService } from './invitations.service.ts';

/** The admin console's accounts page; each endpoint as declared in contracts/api/accounts.ts. */
export async function accountsAdminRoutes(
  app: FastifyInstance,
  options: { users: AccountsAdminService; invitations: InvitationsService },
) {
  const { users, invitations } = options;

  route(app, api.list, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { ...(await users.list(principalOf(request), request.query)), roleOptions: await users.roleOptions() };
  });

  route(app, api.resendVerification, async (request) =>
    users.resendVerification(principalOf(request), request.params.userId, request.ip),
  );

  route(app, api.disable, async (request) => users.disable(principalOf(request), request.params.userId));

  route(app, api.signOut, async (request) => users.signOut(principalOf(request), request.params.userId));

  route(app, api.enable, async (request) => users.enable(principalOf(request), request.params.userId));

  route(app, api.setRoles, async (request) =>
    users.setRoles(principalOf(request), request.params.userId, request.body.roles),
  );

  route(app, api.invitations, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return invitations.list();
  });

  route(app, api.invite, async (request, reply) =>
    reply.status(201).send(await invitations.invite(principalOf(request), request.body)),
  );

  route(app, api.setRoleOptions, async (request) => users.setRoleOptions(principalOf(request), request.body));
}
