import type { FastifyInstance } from 'fastify';
import { partnersApi } from '../../../contracts/api/partners.ts';
import { APPLICATION_STATUS_TEXT } from '../../../contracts/partner-status.ts';
import { route } from '../../http/endpoint-route.ts';
import type { ApplicationStatusService } from './application-status.service.ts';

/** GET /api/partners/status/:token: the applicant's own application (docs/decisions/112-application-status-page.md). */
export async function applicationStatusRoutes(app: FastifyInstance, options: { status: ApplicationStatusService }) {
  const { status } = options;
  route(app, partnersApi.status, async (request, reply) => {
    // The token is in the path: no cache keeps the answer, no Referer carries it on.
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    await status.requireReadAllowance(request.ip);
    return status.status(request.params.token);
  });

  route(app, partnersApi.statusLink, async (request, reply) => {
    await status.sendLink(request.ip, request.body.email);
    return reply.status(202).header('cache-control', 'no-store').send({ message: APPLICATION_STATUS_TEXT.findSent });
  });
}
