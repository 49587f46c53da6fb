import type { FastifyInstance } from 'fastify';
import { privacyApi as api } from '../../../contracts/api/privacy.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import type { DeletionService } from './deletion.service.ts';

/** Deleting one's account, and the admin's 'Erase now' (docs/product.md §2.14). */
export async function deletionRoutes(app: FastifyInstance, options: { deletion: DeletionService }) {
  const { deletion } = options;

  route(app, api.deletionInfo, async () => deletion.info());

  route(app, api.deleteAccount, async (request, reply) => {
    const result = await deletion.request({
      userId: principalOf(request).userId,
      password: request.body.password,
      ip: request.ip,
    });
    reply.clearSessionCookie();
    return result;
  });

  route(app, api.eraseNow, async (request) => deletion.eraseNow(principalOf(request), request.params.userId));
}
