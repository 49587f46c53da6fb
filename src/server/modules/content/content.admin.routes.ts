import type { FastifyInstance } from 'fastify';
import { contentAdminApi as api } from '../../../contracts/api/content.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import type { ContentAdminService } from './content.admin.service.ts';

/** The admin console's edits of public content; each endpoint as declared in contracts/api/content.ts. */
export async function contentAdminRoutes(app: FastifyInstance, options: { content: ContentAdminService }) {
  const { content } = options;

  route(app, api.listFaqs, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { faqs: await content.listFaqs(request.query.type) };
  });

  route(app, api.createFaq, async (request, reply) =>
    reply.status(201).send({ faq: await content.createFaq(principalOf(request), request.body) }),
  );

  route(app, api.updateFaq, async (request) => ({
    faq: await content.updateFaq(principalOf(request), request.params.faqId, request.body),
  }));

  route(app, api.deleteFaq, async (request) => ({
    faq: await content.deleteFaq(principalOf(request), request.params.faqId),
  }));

  route(app, api.reorderFaqs, async (request) => ({
    faqs: await content.reorderFaqs(principalOf(request), request.body.type, request.body.ids),
  }));

  route(app, api.legal, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return content.getLegal();
  });

  route(app, api.saveLegalLinks, async (request) => content.saveLegalLinks(principalOf(request), request.body));

  route(app, api.saveDocument, async (request) => ({
    document: await content.saveDocument(principalOf(request), request.params.slug, request.body),
  }));
}
