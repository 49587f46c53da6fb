import type { FastifyInstance } from 'fastify';
import { notificationsApi as api } from '../../../contracts/api/notifications.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import type { NotificationsService } from './notifications.service.ts';

/** Notification mail settings and the admin's outbox; each endpoint as declared in contracts/api/notifications.ts. */
export async function notificationsRoutes(
  app: FastifyInstance,
  options: { notifications: NotificationsService; wake(): void },
) {
  const { notifications } = options;

  route(app, api.preferences, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return notifications.preferences(principalOf(request));
  });

  route(app, api.setPreferences, async (request) => notifications.setPreferences(principalOf(request), request.body));

  route(app, api.listMail, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return notifications.listMail(request.query);
  });

  route(app, api.retryMail, async (request) => {
    const result = await notifications.retryMail(principalOf(request), request.params.mailId);
    options.wake();
    return result;
  });
}
