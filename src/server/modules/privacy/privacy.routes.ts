import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import { DataExportSchema } from '../../../contracts/privacy.ts';
import type { PrivacyService } from './privacy.service.ts';

/** The person's own data (docs/product.md §2.12). */
export async function privacyRoutes(app: FastifyInstance, options: { privacy: PrivacyService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/api/account/export', {
    config: { access: 'user' },
    schema: {
      tags: ['account'],
      summary:
        'Everything we hold about the signed-in person, as one JSON file (docs/data-export.md); a download in a browser',
      response: { 200: DataExportSchema, 401: ErrorBodySchema, 404: ErrorBodySchema },
    },
    handler: async (request, reply) => {
      const data = await options.privacy.exportData(request.principal!.userId);
      const day = data.exportedAt.slice(0, 10);
      reply.headers({
        'content-disposition': `attachment; filename="my-data-${day}.json"`,
        'cache-control': 'no-store',
      });
      return data;
    },
  });
}
