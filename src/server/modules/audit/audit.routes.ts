import type { FastifyInstance } from 'fastify';
import { auditApi } from '../../../contracts/api/audit.ts';
import { route } from '../../http/endpoint-route.ts';
import type { AuditService } from './audit.service.ts';

export async function auditRoutes(app: FastifyInstance, options: { audit: AuditService }) {
  route(app, auditApi.list, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return options.audit.list(request.query);
  });
}
