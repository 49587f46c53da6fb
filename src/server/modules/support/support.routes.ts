import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import {
  CallableErrorBodySchema,
  CreateTicketCallSchema,
  CreateTicketFormSchema,
  CreateTicketResultSchema,
  CreateTicketSchema,
  MessageListSchema,
  ReplyFormSchema,
  ReplyResultSchema,
  ReplySchema,
  SUPPORT_TEXT,
  TicketListQuerySchema,
  TicketListSchema,
  TicketParamsSchema,
  TicketWithMessagesSchema,
} from '../../../contracts/support.ts';
import { ATTACHMENT_TEXT } from '../../../contracts/attachments.ts';
import { AppError } from '../../errors.ts';
import { callableProtocolOnSend } from './callable.ts';
import { MESSAGE_MULTIPART_LIMITS, withMessageForm } from './support.forms.ts';
import type { SupportLive } from './support.live.ts';
import type { SupportService } from './support.service.ts';
import { me, type SupportStreams } from './support.streams.ts';

export interface SupportRoutesOptions {
  support: SupportService;
  live: SupportLive;
  streams: SupportStreams;
}

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/** `Last-Event-ID` (sent by EventSource on reconnect) or `?after=`: the last message id the client has. */
const StreamQuerySchema = z.object({ after: z.coerce.number().int().min(0).optional() });
function resumeAfter(request: FastifyRequest, after: number | undefined): number {
  const header = Number.parseInt(String(request.headers['last-event-id'] ?? ''), 10);
  return Math.max(Number.isFinite(header) && header > 0 ? header : 0, after ?? 0);
}

export async function supportRoutes(app: FastifyInstance, options: SupportRoutesOptions) {
  const { support, live } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { startStream, viewerOf } = options.streams;
  // Registered here, so only these routes (and not the JSON API at large) accept multipart bodies.
  await app.register(fastifyMultipart, { limits: MESSAGE_MULTIPART_LIMITS, throwFileSizeLimit: false });
  const required = () =>
    new AppError('INVALID_ARGUMENT', SUPPORT_TEXT.fieldRequired, {
      fields: { messageBody: SUPPORT_TEXT.fieldRequired },
    });

  // --- The signed-in user's side ---------------------------------------------------------------

  // The Firebase callable protocol (callable.ts; docs/design.md §4.2): errors also carry `details.fields`; `Accept:
  // text/event-stream` (the SDK's `.stream()`) is answered with one `data: {"result"|"error": …}` event.
  api.post('/api/functions/createSupportTicket', {
    config: { access: 'verified' },
    schema: {
      tags: ['support'],
      summary:
        'Callable function: open a ticket; its message becomes the first message. Errors carry `details.fields` (by field of `data`); ' +
        'with `Accept: text/event-stream` the answer is one `data: {"result": …}` (or `{"error": …}`) event.',
      body: CreateTicketCallSchema,
      response: {
        200: CreateTicketResultSchema,
        400: CallableErrorBodySchema,
        401: CallableErrorBodySchema,
        403: CallableErrorBodySchema,
        404: CallableErrorBodySchema,
        429: CallableErrorBodySchema,
      },
    },
    onSend: callableProtocolOnSend,
    handler: async (request) => ({ result: await support.createTicket(me(request).userId, request.body.data) }),
  });

  api.get('/api/support/tickets', {
    config: { access: 'verified' },
    schema: {
      tags: ['support'],
      summary: 'Own tickets, newest last message first',
      querystring: TicketListQuerySchema,
      response: { 200: TicketListSchema, ...errors },
    },
    handler: async (request) => ({ tickets: await support.listTickets(me(request).userId, request.query.open) }),
  });

  api.get('/api/support/tickets/stream', {
    config: { access: 'verified' },
    schema: {
      tags: ['support'],
      summary: 'Live list of own tickets (text/event-stream, `tickets` events)',
      querystring: TicketListQuerySchema,
    },
    handler: async (request, reply) => {
      const viewer = viewerOf(request, false);
      const stream = startStream(request, reply, viewer);
      const open = request.query.open;
      await live.watchList(
        viewer,
        stream,
        async () => ({ tickets: await support.listTickets(viewer.userId, open) }),
        'own',
      );
    },
  });

  api.get('/api/support/tickets/:ticketId', {
    config: { access: 'verified' },
    schema: {
      tags: ['support'],
      summary: 'One own ticket with its messages',
      params: TicketParamsSchema,
      response: { 200: TicketWithMessagesSchema, ...errors },
    },
    handler: async (request) => support.getTicketWithMessages(me(request).userId, request.params.ticketId),
  });

  api.get('/api/support/tickets/:ticketId/messages', {
    config: { access: 'verified' },
    schema: {
      tags: ['support'],
      summary: 'Messages of an own ticket in time order (after an id, optionally)',
      params: TicketParamsSchema,
      querystring: StreamQuerySchema,
      response: { 200: MessageListSchema, ...errors },
    },
    handler: async (request) => ({
      messages: await support.listMessages(me(request).userId, request.params.ticketId, request.query.after),
    }),
  });

  api.get('/api/support/tickets/:ticketId/messages/stream', {
    config: { access: 'verified' },
    schema: {
      tags: ['support'],
      summary: 'Live messages of a ticket (owner or admin), resumable with Last-Event-ID',
      params: TicketParamsSchema,
      querystring: StreamQuerySchema,
    },
    handler: async (request, reply) => {
      const principal = me(request);
      const admin = principal.role === 'admin';
      // Ownership is checked before the stream opens: another user's ticket is simply not found.
      const ticket = admin
        ? await support.getAnyTicket(request.params.ticketId)
        : await support.getOwnTicket(principal.userId, request.params.ticketId);
      const viewer = viewerOf(request, admin);
      const stream = startStream(request, reply, viewer);
      await live.watchTicket(ticket.id, viewer, resumeAfter(request, request.query.after), stream);
    },
  });

  api.post('/api/support/tickets', {
    config: { access: 'verified' },
    schema: {
      tags: ['support'],
      summary:
        'Open a ticket: JSON { reason, message, clientId? }, or multipart/form-data with those fields and up to 5 `files` ' +
        '(JPEG, PNG, WebP or PDF, each at most 10485760 bytes) that its first message carries. A repeated clientId creates nothing new.',
      consumes: ['application/json', 'multipart/form-data'],
      body: CreateTicketSchema.nullish(),
      response: { 201: CreateTicketResultSchema.shape.result, 429: ErrorBodySchema, ...errors },
    },
    handler: async (request, reply) => {
      const userId = me(request).userId;
      if (!request.isMultipart()) {
        if (!request.body) throw required();
        return reply.status(201).send(await support.createTicket(userId, request.body));
      }
      const created = await withMessageForm(app, request, { userId, schema: CreateTicketFormSchema }, (values, ids) =>
        support.createTicket(userId, { ...values, attachmentIds: ids }),
      );
      return reply.status(201).send(created);
    },
  });

  api.post('/api/support/tickets/:ticketId/messages', {
    config: { access: 'verified' },
    schema: {
      tags: ['support'],
      summary:
        'Reply on an own open ticket; refused once it is closed. A repeated clientId stores nothing new. JSON ' +
        '{ messageBody, clientId? }, or multipart/form-data with those fields and up to 5 `files` (then the text may be empty).',
      consumes: ['application/json', 'multipart/form-data'],
      params: TicketParamsSchema,
      body: ReplySchema.nullish(),
      response: { 200: ReplyResultSchema, 409: ErrorBodySchema, 429: ErrorBodySchema, ...errors },
    },
    handler: async (request) => {
      const userId = me(request).userId;
      const { ticketId } = request.params;
      if (!request.isMultipart()) {
        if (!request.body) throw required();
        return { message: await support.reply(userId, ticketId, request.body) };
      }
      const message = await withMessageForm(
        app,
        request,
        {
          userId,
          schema: ReplyFormSchema,
          textField: 'messageBody',
          // Closed tickets take no files: refused before the first file is read.
          mayAttach: async () => {
            if (!(await support.getOwnTicket(userId, ticketId)).open)
              throw new AppError('ABORTED', ATTACHMENT_TEXT.closed);
          },
        },
        (values, ids) => support.reply(userId, ticketId, { ...values, attachmentIds: ids }),
      );
      return { message };
    },
  });
}
