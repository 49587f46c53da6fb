import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import {
  AdminMailListQuerySchema,
  AdminMailListSchema,
  AdminMailParamsSchema,
  AdminMailResultSchema,
  NotificationPreferencesSchema,
  NotificationPreferencesUpdateSchema,
} from '../../../contracts/notifications.ts';
import type { NotificationsService } from './notifications.service.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

export async function notificationsRoutes(
  app: FastifyInstance,
  options: { notifications: NotificationsService; wake(): void },
) {
  const { notifications } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/account/notifications', {
    config: { access: 'user' },
    schema: {
      tags: ['account'],
      summary: 'Which notification mails this account gets',
      response: { 200: NotificationPreferencesSchema, ...errors },
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return notifications.preferences(request.principal!);
    },
  });

  api.put('/api/account/notifications', {
    config: { access: 'user' },
    schema: {
      tags: ['account'],
      summary: 'Switch notification mails on or off (team mail: admins only)',
      body: NotificationPreferencesUpdateSchema,
      response: { 200: NotificationPreferencesSchema, ...errors },
    },
    handler: async (request) => notifications.setPreferences(request.principal!, request.body),
  });

  api.get('/api/admin/mail', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'The mail outbox, newest first: filter by state, find by recipient',
      querystring: AdminMailListQuerySchema,
      response: { 200: AdminMailListSchema, ...errors },
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return notifications.listMail(request.query);
    },
  });

  api.post('/api/admin/mail/:mailId/retry', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Queue a failed mail again',
      params: AdminMailParamsSchema,
      response: { 200: AdminMailResultSchema, 409: ErrorBodySchema, ...errors },
    },
    handler: async (request) => {
      const result = await notifications.retryMail(request.principal!, request.params.mailId);
      options.wake();
      return result;
    },
  });
}
