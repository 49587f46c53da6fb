import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminLegalSchema,
  DocumentInputSchema,
  DocumentParamsSchema,
  FaqInputSchema,
  FaqParamsSchema,
  FaqReorderSchema,
  HostedDocumentSchema,
  LegalLinksInputSchema,
} from '../../../contracts/content-admin.ts';
import { FaqListSchema, FaqQuerySchema, FaqSchema, LegalLinksSchema } from '../../../contracts/content.schemas.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import type { ContentAdminService } from './content.admin.service.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const actor = (request: FastifyRequest) => request.principal!;
const FaqResultSchema = z.object({ faq: FaqSchema });

export async function contentAdminRoutes(app: FastifyInstance, options: { content: ContentAdminService }) {
  const { content } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/admin/faqs', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'FAQ entries of one type, in order',
      querystring: FaqQuerySchema,
      response: { 200: FaqListSchema, ...errors },
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { faqs: await content.listFaqs(request.query.type) };
    },
  });

  api.post('/api/admin/faqs', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Add a FAQ entry at the end of its type',
      body: FaqInputSchema,
      response: { 201: FaqResultSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send({ faq: await content.createFaq(actor(request), request.body) }),
  });

  api.put('/api/admin/faqs/:faqId', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Edit a FAQ entry (a new type moves it to the end of that list)',
      params: FaqParamsSchema,
      body: FaqInputSchema,
      response: { 200: FaqResultSchema, ...errors },
    },
    handler: async (request) => ({ faq: await content.updateFaq(actor(request), request.params.faqId, request.body) }),
  });

  api.delete('/api/admin/faqs/:faqId', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Delete a FAQ entry',
      params: FaqParamsSchema,
      response: { 200: FaqResultSchema, ...errors },
    },
    handler: async (request) => ({ faq: await content.deleteFaq(actor(request), request.params.faqId) }),
  });

  api.post('/api/admin/faqs/reorder', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: "Put a type's entries in this order; ids must be exactly that type's entries (else 409)",
      body: FaqReorderSchema,
      response: { 200: FaqListSchema, 409: ErrorBodySchema, ...errors },
    },
    handler: async (request) => ({
      faqs: await content.reorderFaqs(actor(request), request.body.type, request.body.ids),
    }),
  });

  api.get('/api/admin/legal', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'The legal links and our hosted documents',
      response: { 200: AdminLegalSchema, ...errors },
    },
    handler: async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return content.getLegal();
    },
  });

  api.put('/api/admin/settings/legal-links', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Set the Terms and Privacy links: https:// addresses or paths on this site only',
      body: LegalLinksInputSchema,
      response: { 200: LegalLinksSchema, ...errors },
    },
    handler: async (request) => content.saveLegalLinks(actor(request), request.body),
  });

  api.put('/api/admin/documents/:slug', {
    config: { access: 'admin' },
    // A document may hold 200,000 characters, several bytes each once JSON-escaped: above the app's 100 kB.
    bodyLimit: 1024 * 1024,
    schema: {
      tags: ['admin'],
      summary: 'Edit one of our hosted legal documents (plain text; blank line = paragraph, "## " = heading)',
      params: DocumentParamsSchema,
      body: DocumentInputSchema,
      response: { 200: z.object({ document: HostedDocumentSchema }), ...errors },
    },
    handler: async (request) => ({
      document: await content.saveDocument(actor(request), request.params.slug, request.body),
    }),
  });
}
