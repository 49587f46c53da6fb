import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { supportApi as api } from '../../../contracts/api/support.ts';
import { SUPPORT_TEXT } from '../../../contracts/support.ts';
import { CreateTicketFormSchema, ReplyFormSchema } from '../../../contracts/support.schemas.ts';
import { ATTACHMENT_TEXT } from '../../../contracts/attachments.ts';
import { AppError } from '../../errors.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import { callableProtocolOnSend } from './callable.ts';
import { MESSAGE_MULTIPART_LIMITS, withMessageForm } from './support.forms.ts';
import { CLAIM_LIMITS, CLAIM_TEXT } from '../../../contracts/claims.ts';
import type { SupportLive } from './support.live.ts';
import type { SupportService } from './support.service.ts';
import type { SupportStreams } from './support.streams.ts';
import { can } from '../../plugins/access.ts';

export interface SupportRoutesOptions {
  support: SupportService;
  live: SupportLive;
  streams: SupportStreams;
}

/** `Last-Event-ID` (sent by EventSource on reconnect) or `?after=`: the last message id the client has. */
function resumeAfter(request: FastifyRequest, after: number | undefined): number {
  const header = Number.parseInt(String(request.headers['last-event-id'] ?? ''), 10);
  return Math.max(Number.isFinite(header) && header > 0 ? header : 0, after ?? 0);
}

/** The signed-in user's side of support; each endpoint as declared in contracts/api/support.ts. */
export async function supportRoutes(app: FastifyInstance, options: SupportRoutesOptions) {
  const { support, live } = options;
  const { startStream, viewerOf } = options.streams;
  // Registered here, so only these routes (and not the JSON API at large) accept multipart bodies.
  await app.register(fastifyMultipart, { limits: MESSAGE_MULTIPART_LIMITS, throwFileSizeLimit: false });
  const required = () =>
    new AppError('INVALID_ARGUMENT', SUPPORT_TEXT.fieldRequired, {
      fields: { messageBody: SUPPORT_TEXT.fieldRequired },
    });

  // The Firebase callable protocol (callable.ts; docs/design.md §4.2): errors also carry `details.fields`; `Accept:
  // text/event-stream` (the SDK's `.stream()`) is answered with one `data: {"result"|"error": …}` event.
  route(
    app,
    api.createTicketCall,
    async (request) => ({ result: await support.createTicket(principalOf(request).userId, request.body.data) }),
    { onSend: callableProtocolOnSend },
  );

  route(app, api.listTickets, async (request) => ({
    tickets: await support.listTickets(principalOf(request).userId, request.query.open),
  }));

  route(app, api.ticketsStream, async (request, reply) => {
    const viewer = viewerOf(request, false);
    const stream = startStream(request, reply, viewer);
    const open = request.query.open;
    await live.watchList(
      viewer,
      stream,
      async () => ({ tickets: await support.listTickets(viewer.userId, open) }),
      'own',
    );
  });

  route(app, api.ticket, async (request) =>
    support.getTicketWithMessages(principalOf(request).userId, request.params.ticketId),
  );

  route(app, api.messages, async (request) => ({
    messages: await support.listMessages(principalOf(request).userId, request.params.ticketId, request.query.after),
  }));

  route(app, api.messagesStream, async (request, reply) => {
    const principal = principalOf(request);
    const admin = can(principal, 'tickets.read');
    // Ownership is checked before the stream opens: another user's ticket is simply not found.
    const ticket = admin
      ? await support.getAnyTicket(request.params.ticketId)
      : await support.getOwnTicket(principal.userId, request.params.ticketId);
    const viewer = viewerOf(request, admin);
    const stream = startStream(request, reply, viewer);
    await live.watchTicket(ticket.id, viewer, resumeAfter(request, request.query.after), stream);
  });

  route(app, api.createTicket, async (request, reply) => {
    const userId = principalOf(request).userId;
    if (!request.isMultipart()) {
      if (!request.body) throw required();
      return reply.status(201).send(await support.createTicket(userId, request.body));
    }
    // Up to a claim's ten files: a ticket without a claim is held to a message's five by the service.
    const most = { files: CLAIM_LIMITS.evidenceFiles, refusal: CLAIM_TEXT.tooManyFiles };
    const created = await withMessageForm(
      app,
      request,
      { userId, schema: CreateTicketFormSchema, most },
      (values, ids) => support.createTicket(userId, { ...values, attachmentIds: ids }),
    );
    return reply.status(201).send(created);
  });

  route(app, api.reply, async (request) => {
    const userId = principalOf(request).userId;
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
  });

  route(app, api.seen, async (request) =>
    support.seen(principalOf(request).userId, request.params.ticketId, request.body.messageIds),
  );

  route(app, api.rate, async (request) => ({
    ticket: await support.rate(principalOf(request).userId, request.params.ticketId, request.body),
  }));
}
