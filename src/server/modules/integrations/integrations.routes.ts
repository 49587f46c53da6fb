import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiKeysApi, appApi, webhooksApi } from '../../../contracts/api/integrations.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import type { KeyCaller } from '../../plugins/access.ts';
import type { AuditRecord } from '../audit/audit.service.ts';

type AuditActor = AuditRecord['actor'];
import type { AppService } from './app.service.ts';
import { keyActor, type KeysService } from './keys.service.ts';
import type { WebhooksService } from './webhooks.service.ts';

/** Who is calling a route that takes staff and keys alike: a key is audited under its own name. */
function actorOf(request: FastifyRequest): AuditActor {
  if (request.keyCaller) return keyActor(request.keyCaller);
  const principal = principalOf(request);
  return { userId: principal.userId, email: principal.email };
}

function keyOf(request: FastifyRequest): KeyCaller {
  if (!request.keyCaller) throw new Error('keyOf: the route is not a key-only route');
  return request.keyCaller;
}

/** /api/admin/api-keys, as declared in contracts/api/integrations.ts. */
export async function apiKeyRoutes(app: FastifyInstance, options: { keys: KeysService }) {
  const { keys } = options;
  route(app, apiKeysApi.list, async () => ({ keys: await keys.list() }));
  route(app, apiKeysApi.create, async (request, reply) =>
    reply.status(201).send(await keys.create(principalOf(request), request.body)),
  );
  route(app, apiKeysApi.revoke, async (request) => ({
    key: await keys.revoke(principalOf(request), request.params.keyId),
  }));
  route(app, apiKeysApi.rotate, async (request, reply) =>
    reply.status(201).send(await keys.rotate(principalOf(request), request.params.keyId, request.body.overlapHours)),
  );
}

/** /api/admin/webhooks, for staff and for a key with webhooks:manage. */
export async function webhookRoutes(app: FastifyInstance, options: { webhooks: WebhooksService }) {
  const { webhooks } = options;
  route(app, webhooksApi.list, async () => ({ endpoints: await webhooks.list() }));
  route(app, webhooksApi.create, async (request, reply) =>
    reply.status(201).send(await webhooks.create(actorOf(request), request.body)),
  );
  route(app, webhooksApi.update, async (request) => ({
    endpoint: await webhooks.update(actorOf(request), request.params.endpointId, request.body),
  }));
  route(app, webhooksApi.remove, async (request) => ({
    endpoint: await webhooks.remove(actorOf(request), request.params.endpointId),
  }));
  route(app, webhooksApi.secret, async (request) => webhooks.secret(request.params.endpointId));
  route(app, webhooksApi.deliveries, async (request) =>
    webhooks.deliveries(request.params.endpointId, request.query.before),
  );
  route(app, webhooksApi.redeliver, async (request) => ({
    delivery: await webhooks.redeliver(actorOf(request), request.params.deliveryId),
  }));
}

/** /api/app: what the Bagspace app calls with its key. */
export async function appRoutes(app: FastifyInstance, options: { service: AppService }) {
  const { service } = options;
  route(app, appApi.openTicket, async (request, reply) =>
    reply.status(201).send(await service.openTicket(keyOf(request), request.body)),
  );
  route(app, appApi.postMessage, async (request, reply) =>
    reply.status(201).send({
      message: await service.postMessage(keyOf(request), request.params.ticketId, request.body),
    }),
  );
  route(app, appApi.tickets, async (request) => ({
    tickets: await service.tickets(
      request.query,
      request.query.open === undefined ? undefined : request.query.open === 'true',
    ),
  }));
  route(app, appApi.ticket, async (request) => service.ticket(request.params.ticketId));
  route(app, appApi.partners, async (request) => ({ partners: await service.partners(request.query.status) }));
}
