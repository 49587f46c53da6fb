import type { FastifyInstance } from 'fastify';
import { serviceLevelsApi as api } from '../../../contracts/api/service-levels.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import type { ServiceLevelsService } from './service-levels.service.ts';

/** /api/admin/service-levels: the business calendar and the targets (and /api/admin/claims/periods, counted on that calendar), as declared in contracts/api/service-levels.ts. */
export async function serviceLevelsRoutes(app: FastifyInstance, options: { serviceLevels: ServiceLevelsService }) {
  const { serviceLevels } = options;
  route(app, api.settings, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return serviceLevels.settings();
  });
  route(app, api.saveCalendar, async (request) => serviceLevels.saveCalendar(principalOf(request), request.body));
  route(app, api.saveTargets, async (request) => serviceLevels.saveTargets(principalOf(request), request.body));
  route(app, api.claimPeriods, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return serviceLevels.claimPeriods();
  });
  route(app, api.saveClaimPeriods, async (request) =>
    serviceLevels.saveClaimPeriods(principalOf(request), request.body),
  );
}
