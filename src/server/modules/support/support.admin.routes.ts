import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import {
  AdminMessageSchema,
  AdminTicketListQuerySchema,
  AdminTicketListSchema,
  AdminTicketSchema,
  AdminTicketWithMessagesSchema,
  ReplySchema,
  TicketParamsSchema,
} from '../../../contracts/support.ts';
import type { SupportLive } from './support.live.ts';
import type { SupportService } from './support.service.ts';
import { me, type SupportStreams } from './support.streams.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/** The support desk's side (/api/admin/support/*): the inbox, a ticket's thread, answers, close and reopen. */
export async function supportAdminRoutes(
  app: FastifyInstance,
  options: { support: SupportService; live: SupportLive; streams: SupportStreams },
) {
  const { support, live } = options;
  const { startStream, viewerOf } = options.streams;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/admin/support/tickets', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: "Every user's tickets; search by ticket number or email",
      querystring: AdminTicketListQuerySchema,
      response: { 200: AdminTicketListSchema, ...errors },
    },
    handler: async (request) => ({ tickets: await support.listAllTickets(request.query) }),
  });

  api.get('/api/admin/support/tickets/stream', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Live admin inbox (text/event-stream, `tickets` events)',
      querystring: AdminTicketListQuerySchema,
    },
    handler: async (request, reply) => {
      const viewer = viewerOf(request, true);
      const stream = startStream(request, reply, viewer);
      const filter = request.query;
      await live.watchList(viewer, stream, async () => ({ tickets: await support.listAllTickets(filter) }), 'all');
    },
  });

  api.get('/api/admin/support/tickets/:ticketId', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'One ticket with its whole thread',
      params: TicketParamsSchema,
      response: { 200: AdminTicketWithMessagesSchema, ...errors },
    },
    handler: async (request) => support.getAnyTicketWithMessages(me(request).userId, request.params.ticketId),
  });

  api.post('/api/admin/support/tickets/:ticketId/messages', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Answer as Admin',
      params: TicketParamsSchema,
      body: ReplySchema,
      response: { 200: z.object({ message: AdminMessageSchema }), 409: ErrorBodySchema, ...errors },
    },
    handler: async (request) => ({
      message: await support.adminReply(me(request), request.params.ticketId, request.body),
    }),
  });

  for (const [action, open] of [
    ['close', false],
    ['reopen', true],
  ] as const) {
    api.post(`/api/admin/support/tickets/:ticketId/${action}`, {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: `${action === 'close' ? 'Close' : 'Reopen'} a ticket`,
        params: TicketParamsSchema,
        response: { 200: z.object({ ticket: AdminTicketSchema }), ...errors },
      },
      handler: async (request) => ({ ticket: await support.setOpen(me(request), request.params.ticketId, open) }),
    });
  }
}
