import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBodySchema, GENERIC_MESSAGES } from '../../../contracts/errors.ts';
import {
  AdminMessageSchema,
  AdminTicketListQuerySchema,
  AdminTicketListSchema,
  AdminTicketSchema,
  AdminTicketWithMessagesSchema,
  CallableErrorBodySchema,
  CreateTicketCallSchema,
  CreateTicketResultSchema,
  MessageListSchema,
  ReplyResultSchema,
  ReplySchema,
  SUPPORT_TEXT,
  TicketListQuerySchema,
  TicketListSchema,
  TicketParamsSchema,
  TicketWithMessagesSchema,
} from '../../../contracts/support.ts';
import { AppError } from '../../errors.ts';
import type { Principal, PrincipalResolver } from '../../plugins/access.ts';
import { isCrossSite } from '../../plugins/cross-site.ts';
import { openEventStream } from '../../realtime/sse.ts';
import { callableProtocolOnSend } from './callable.ts';
import type { LiveViewer, SupportLive } from './support.live.ts';
import type { SupportService } from './support.service.ts';

export interface SupportRoutesOptions {
  support: SupportService;
  live: SupportLive;
  resolvePrincipal: PrincipalResolver;
  streamsPerSession: number;
  heartbeatMs: number;
}

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const me = (request: FastifyRequest): Principal => request.principal!;

/** `Last-Event-ID` (sent by EventSource on reconnect) or `?after=`: the last message id the client has. */
const StreamQuerySchema = z.object({ after: z.coerce.number().int().min(0).optional() });
function resumeAfter(request: FastifyRequest, after: number | undefined): number {
  const header = Number.parseInt(String(request.headers['last-event-id'] ?? ''), 10);
  return Math.max(Number.isFinite(header) && header > 0 ? header : 0, after ?? 0);
}

export async function supportRoutes(app: FastifyInstance, options: SupportRoutesOptions) {
  const { support, live } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const openStreams = new Map<string, number>();

  /** Opens a live stream for this request once its checks pass (SES-10); errors before hijacking are JSON. */
  function startStream(request: FastifyRequest, reply: FastifyReply, viewer: LiveViewer) {
    if (isCrossSite(request, app.allowedOrigins)) throw new AppError('PERMISSION_DENIED', GENERIC_MESSAGES.crossSite);
    const sessionId = me(request).sessionId;
    const count = openStreams.get(sessionId) ?? 0;
    if (count >= options.streamsPerSession) throw new AppError('RESOURCE_EXHAUSTED', SUPPORT_TEXT.tooManyStreams);
    openStreams.set(sessionId, count + 1);
    const stream = openEventStream(request, reply, {
      heartbeatMs: options.heartbeatMs,
      onHeartbeat: () => void live.recheck(viewer, stream),
    });
    stream.onClose(() => {
      const left = (openStreams.get(sessionId) ?? 1) - 1;
      if (left <= 0) openStreams.delete(sessionId);
      else openStreams.set(sessionId, left);
    });
    return stream;
  }

  /** Whether the request's session still belongs to this viewer, with the rights the stream needs. */
  function viewerOf(request: FastifyRequest, admin: boolean): LiveViewer {
    const principal = me(request);
    return {
      userId: principal.userId,
      admin,
      authorize: async () => {
        const now = await options.resolvePrincipal(request);
        return Boolean(now && now.userId === principal.userId && now.emailVerified && (!admin || now.role === 'admin'));
      },
    };
  }

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

  api.post('/api/support/tickets/:ticketId/messages', {
    config: { access: 'verified' },
    schema: {
      tags: ['support'],
      summary: 'Reply on an own open ticket; refused once it is closed. A repeated clientId stores nothing new.',
      params: TicketParamsSchema,
      body: ReplySchema,
      response: { 200: ReplyResultSchema, 409: ErrorBodySchema, ...errors },
    },
    handler: async (request) => ({
      message: await support.reply(me(request).userId, request.params.ticketId, request.body),
    }),
  });

  // --- The admin side (the console UI uses these) ---------------------------------------------

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
