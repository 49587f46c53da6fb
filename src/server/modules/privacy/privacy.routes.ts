import type { FastifyInstance } from 'fastify';
import { privacyApi } from '../../../contracts/api/privacy.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import type { PrivacyService } from './privacy.service.ts';

/** The person's own data (docs/product.md §2.12). */
export async function privacyRoutes(app: FastifyInstance, options: { privacy: PrivacyService }) {
  route(app, privacyApi.exportData, async (request, reply) => {
    const data = await options.privacy.exportData(principalOf(request).userId);
    const day = data.exportedAt.slice(0, 10);
    reply.headers({
      'content-disposition': `attachment; filename="my-data-${day}.json"`,
      'cache-control': 'no-store',
    });
    return data;
  });
}
