import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import {
  InboundDiscardResultSchema,
  InboundListQuerySchema,
  InboundListSchema,
  InboundParamsSchema,
  InboundPostResultSchema,
  WholeMailParamsSchema,
  WholeMailSchema,
} from '../../../contracts/inbound.ts';
import type { InboundService } from './inbound.service.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/** The Mail page's Incoming view (admins), and the whole mail behind a message (its owner, or an admin). */
export async function inboundRoutes(app: FastifyInstance, options: { inbound: InboundService }) {
  const { inbound } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/admin/mail/incoming', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Mail received, newest first: posted, held (with the reason), ignored (with the reason)',
      querystring: InboundListQuerySchema,
      response: { 200: InboundListSchema, ...errors },
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return inbound.list(request.query);
    },
  });

  api.post('/api/admin/mail/incoming/:inboundId/post', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Post a held mail to its ticket as its sender',
      params: InboundParamsSchema,
      response: { 200: InboundPostResultSchema, 409: ErrorBodySchema, ...errors },
    },
    handler: async (request) => inbound.post(request.principal!, request.params.inboundId),
  });

  api.post('/api/admin/mail/incoming/:inboundId/discard', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Discard a held mail (it is kept, marked discarded)',
      params: InboundParamsSchema,
      response: { 200: InboundDiscardResultSchema, 409: ErrorBodySchema, ...errors },
    },
    handler: async (request) => {
      await inbound.discard(request.principal!, request.params.inboundId);
      return { discarded: true as const };
    },
  });

  api.get('/api/support/tickets/:ticketId/messages/:messageId/mail', {
    config: { access: 'verified' },
    schema: {
      tags: ['support'],
      summary: 'The whole mail a message was posted from (its text; the message holds only the new words)',
      params: WholeMailParamsSchema,
      response: { 200: WholeMailSchema, ...errors },
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const principal = request.principal!;
      return inbound.wholeMail(
        { userId: principal.userId, admin: principal.role === 'admin' },
        request.params.ticketId,
        request.params.messageId,
      );
    },
  });
}
