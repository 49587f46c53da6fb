import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  FaqListSchema,
  FaqQuerySchema,
  LegalDocumentSchema,
  LegalLinksSchema,
} from '../../../contracts/content.schemas.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import type { ContentService } from './content.service.ts';
import { renderDocumentPage } from './document-html.ts';

export async function contentRoutes(app: FastifyInstance, options: { content: ContentService; companyName: string }) {
  const { content } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/faqs', {
    config: { access: 'public' },
    schema: {
      tags: ['content'],
      summary: 'FAQ entries of one type, in order',
      querystring: FaqQuerySchema,
      response: { 200: FaqListSchema, 400: ErrorBodySchema },
    },
    // Serialised once per content change (content.cache.ts); a string is sent as is.
    handler: async (request, reply) =>
      reply.type('application/json; charset=utf-8').send((await content.faqsJson(request.query.type)) as never),
  });

  api.get('/api/legal/links', {
    config: { access: 'public' },
    schema: {
      tags: ['content'],
      summary: 'Links to the Terms and Conditions and the Privacy Policy',
      response: { 200: LegalLinksSchema, 404: ErrorBodySchema },
    },
    handler: async () => content.getLegalLinks(),
  });

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
