import fastifyMultipart from '@fastify/multipart';
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
  ReplyFormSchema,
  ReplySchema,
  SUPPORT_TEXT,
  TicketParamsSchema,
} from '../../../contracts/support.ts';
import { ATTACHMENT_TEXT } from '../../../contracts/attachments.ts';
import { AppError } from '../../errors.ts';
import { MESSAGE_MULTIPART_LIMITS, withMessageForm } from './support.forms.ts';
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
  await app.register(fastifyMultipart, { limits: MESSAGE_MULTIPART_LIMITS, throwFileSizeLimit: false });

  api.get('/api/admin/support/tickets', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: "Every user's tickets; search by ticket number or email",
      querystring: AdminTicketListQuerySchema,
      response: { 200: AdminTicketListSchema, ...errors },
    },
    handler: async (request) => ({ tickets: await support.listAllTickets(me(request).userId, request.query) }),
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
      const load = async () => ({ tickets: await support.listAllTickets(viewer.userId, filter) });
      await live.watchList(viewer, stream, load, 'all');
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
      summary:
        'Answer as Admin: JSON { messageBody, clientId? }, or multipart/form-data with those fields and up to 5 `files` ' +
        '(then the text may be empty). Closed tickets take no answer and no files.',
      consumes: ['application/json', 'multipart/form-data'],
      params: TicketParamsSchema,
      body: ReplySchema.nullish(),
      response: {
        200: z.object({ message: AdminMessageSchema }),
        409: ErrorBodySchema,
        429: ErrorBodySchema,
        ...errors,
      },
    },
    handler: async (request) => {
      const actor = me(request);
      const { ticketId } = request.params;
      if (!request.isMultipart()) {
        if (!request.body)
          throw new AppError('INVALID_ARGUMENT', SUPPORT_TEXT.fieldRequired, {
            fields: { messageBody: SUPPORT_TEXT.fieldRequired },
          });
        return { message: await support.adminReply(actor, ticketId, request.body) };
      }
      const message = await withMessageForm(
        app,
        request,
        {
          userId: actor.userId,
          schema: ReplyFormSchema,
          textField: 'messageBody',
          mayAttach: async () => {
            if (!(await support.getAnyTicket(ticketId)).open) throw new AppError('ABORTED', ATTACHMENT_TEXT.closed);
          },
        },
        (values, ids) => support.adminReply(actor, ticketId, { ...values, attachmentIds: ids }),
      );
      return { message };
    },
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
