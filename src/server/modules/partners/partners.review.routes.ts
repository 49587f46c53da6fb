import type { FastifyInstance } from 'fastify';
import { partnerReviewApi as api } from '../../../contracts/api/partners.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import { sendStoredFile } from '../../http/stored-file.ts';
import type { AuditActor } from '../audit/audit.service.ts';
import type { ReviewService } from './partners.review.service.ts';

/**
 * Partner review for the admin console; each endpoint as declared in contracts/api/partners.ts. The
 * licence download is in partners.routes.ts.
 */
export async function reviewRoutes(
  app: FastifyInstance,
  options: { review: ReviewService; opened?: (actor: AuditActor, companyId: string) => Promise<void> },
) {
  const { review } = options;

  route(app, api.list, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { status, q, due, sort } = request.query;
    return review.list(status, q, due, sort);
  });

  route(app, api.get, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await options.opened?.(principalOf(request), request.params.companyId);
    return review.get(request.params.companyId);
  });

  route(app, api.approve, async (request) =>
    review.approve(principalOf(request), request.params.companyId, request.body?.licenseExpiresOn),
  );

  route(app, api.acceptLicense, async (request) =>
    review.acceptLicense(principalOf(request), request.params.companyId, request.body.licenseExpiresOn),
  );

  route(app, api.refuseLicense, async (request) =>
    review.refuseLicense(principalOf(request), request.params.companyId, request.body.reason),
  );

  // The new licence, like the current one, only to admins and only as a download (UP-05).
  route(app, api.renewalLicense, async (request, reply) => {
    const license = await review.openRenewalLicense(request.params.companyId);
    return sendStoredFile(reply, {
      contentType: license.contentType,
      disposition: `attachment; filename="${license.filename}"`,
      size: license.size,
      body: license.body,
    });
  });

  route(app, api.reject, async (request) =>
    review.reject(principalOf(request), request.params.companyId, request.body.reason),
  );

  route(app, api.notify, async (request) => review.notify(principalOf(request), request.params.companyId));

  route(app, api.ban, async (request) => review.ban(principalOf(request), request.params.companyId));

  route(app, api.unban, async (request) => review.unban(principalOf(request), request.params.companyId));
}
