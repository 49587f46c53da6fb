import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AuditPageSchema, AuditQuerySchema } from '../../../contracts/audit.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import type { AuditService } from './audit.service.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema };

export async function auditRoutes(app: FastifyInstance, options: { audit: AuditService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/admin/audit', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Admin actions, newest first (who, what, when, which record); page back with ?before=<id>',
      querystring: AuditQuerySchema,
      response: { 200: AuditPageSchema, ...errors },
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return options.audit.list(request.query);
    },
  });
}
