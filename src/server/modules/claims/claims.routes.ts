import type { FastifyInstance } from 'fastify';
import { claimsApi as api } from '../../../contracts/api/claims.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import type { ClaimsService } from './claims.service.ts';

/** Incident claims (/api/admin/support/tickets/:ticketId/claim…), each as declared in contracts/api/claims.ts. */
export async function claimsRoutes(app: FastifyInstance, options: { claims: ClaimsService }) {
  const { claims } = options;
  route(app, api.claim, async (request) => ({ claim: await claims.claim(request.params.ticketId) }));
  route(app, api.decide, async (request) => ({
    claim: await claims.decide(principalOf(request), request.params.ticketId, request.body),
  }));
}
