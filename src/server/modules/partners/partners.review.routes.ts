import type { FastifyInstance } from 'fastify';
import { partnerReviewApi as api } from '../../../contracts/api/partners.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import type { ReviewService } from './partners.review.service.ts';

/**
 * Partner review for the admin console; each endpoint as declared in contracts/api/partners.ts. The
 * licence download is in partners.routes.ts.
 */
export async function reviewRoutes(app: FastifyInstance, options: { review: ReviewService }) {
  const { review } = options;

  route(app, api.list, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { status, q, due, sort } = request.query;
    return review.list(status, q, due, sort);
  });

  route(app, api.get, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return review.get(request.params.companyId);
  });

  route(app, api.approve, async (request) => review.approve(principalOf(request), request.params.companyId));

  route(app, api.reject, async (request) =>
    review.reject(principalOf(request), request.params.companyId, request.body.reason),
  );

  route(app, api.notify, async (request) => review.notify(principalOf(request), request.params.companyId));

  route(app, api.ban, async (request) => review.ban(principalOf(request), request.params.companyId));

  route(app, api.unban, async (request) => review.unban(principalOf(request), request.params.companyId));
}
