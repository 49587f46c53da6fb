import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SharedServices } from '../../shared-services.ts';
import { auditRoutes } from './audit.routes.ts';

/**
 * The audit module: the admin console's log of admin actions. Its service is a shared service
 * (shared-services.ts), because every module that makes an admin change records it there; this
 * adds the route that reads the log.
 */
export const auditModule = fp<SharedServices>(
  async function audit(app: FastifyInstance, shared) {
    await app.register(auditRoutes, { audit: shared.audit });
  },
  { name: 'audit' },
);
