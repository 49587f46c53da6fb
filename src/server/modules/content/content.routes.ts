import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from '../../../contracts/zod.ts';
import { contentApi } from '../../../contracts/api/content.ts';
import { LegalDocumentSchema } from '../../../contracts/content.schemas.ts';
import { route } from '../../http/endpoint-route.ts';
import type { ContentService } from './content.service.ts';
import { renderDocumentPage } from './document-html.ts';

export async function contentRoutes(app: FastifyInstance, options: { content: ContentService; companyName: string }) {
  const { content } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();

  // Serialised once per content change (content.cache.ts); a string is sent as is.
  route(app, contentApi.faqs, async (request, reply) =>
    reply.type('application/json; charset=utf-8').send((await content.faqsJson(request.query.type)) as never),
  );

  route(app, contentApi.legalLinks, async () => content.getLegalLinks());

  // Our own hosted legal documents: plain HTML, framable by our own origin only (the /legal page).
  api.get('/documents/:slug', {
    config: { access: 'public', framing: 'self' },
    schema: { hide: true, params: z.object({ slug: LegalDocumentSchema }) },
    handler: async (request, reply) => {
      const document = await content.getDocument(request.params.slug);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(renderDocumentPage(document, options.companyName));
    },
  });
}
