import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { deskApi as api } from '../../../contracts/api/support.ts';
import { SUPPORT_TEXT } from '../../../contracts/support.ts';
import { StaffReplyFormSchema } from '../../../contracts/support.schemas.ts';
import { ATTACHMENT_TEXT } from '../../../contracts/attachments.ts';
import { AppError } from '../../errors.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import { MESSAGE_MULTIPART_LIMITS, type SupportLive, type SupportStreams, withMessageForm } from '../support/index.ts';
import type { SupportService } from '../support/support.service.ts';
import type { DeskService } from './desk.service.ts';
import { assignerOf } from './assigner.ts';

/**
 * The support desk's inbox (/api/admin/support/*): the list and its live stream, a ticket's thread,
 * answers (with files), close and reopen; each endpoint as declared in contracts/api/support.ts
 * (`deskApi`). The stream passes the support module's gate, so a session's streams are counted
 * across both sides.
 */
export async function deskRoutes(
  app: FastifyInstance,
  options: { desk: DeskService; tickets: SupportService; live: SupportLive; streams: SupportStreams },
) {
  const { desk, tickets, live } = options;
  const { startStream, viewerOf } = options.streams;
  await app.register(fastifyMultipart, { limits: MESSAGE_MULTIPART_LIMITS, throwFileSizeLimit: false });

  route(app, api.listTickets, async (request) => desk.listAllTickets(principalOf(request).userId, request.query));

  route(app, api.ticketsStream, async (request, reply) => {
    const viewer = viewerOf(request, true);
    const stream = startStream(request, reply, viewer);
    const filter = request.query;
    const load = () => desk.listAllTickets(viewer.userId, filter);
    await live.watchList(viewer, stream, load, 'all');
  });

  route(app, api.ticket, async (request) =>
    desk.getAnyTicketWithMessages(principalOf(request).userId, request.params.ticketId),
  );

  route(app, api.reply, async (request) => {
    const actor = principalOf(request);
    const { ticketId } = request.params;
    if (!request.isMultipart()) {
      if (!request.body)
        throw new AppError('INVALID_ARGUMENT', SUPPORT_TEXT.fieldRequired, {
          fields: { messageBody: SUPPORT_TEXT.fieldRequired },
        });
      return { message: await desk.adminReply(actor, ticketId, request.body) };
    }
    const message = await withMessageForm(
      app,
      request,
      {
        userId: actor.userId,
        schema: StaffReplyFormSchema,
        textField: 'messageBody',
        mayAttach: async () => {
          if (!(await tickets.getAnyTicket(ticketId)).open) throw new AppError('ABORTED', ATTACHMENT_TEXT.closed);
        },
      },
      (values, ids) => desk.adminReply(actor, ticketId, { ...values, attachmentIds: ids }),
    );
    return { message };
  });

  route(app, api.presence, async (request) => {
    const viewer = viewerOf(request, true);
    const { ticketId } = request.params;
    await tickets.getAnyTicket(ticketId);
    live.beat(ticketId, viewer, request.body.typing);
    return live.presenceOf(ticketId, viewer.userId);
  });

  route(app, api.close, async (request) => ({
    ticket: await desk.setOpen(principalOf(request), request.params.ticketId, false, request.query.seenVersion),
  }));

  route(app, api.reopen, async (request) => ({
    ticket: await desk.setOpen(principalOf(request), request.params.ticketId, true, request.query.seenVersion),
  }));
}

/**
 * The desk's tools: notes, assignment, the privacy and keep-for-record marks, agents, search and
 * figures. Registered apart from the inbox's routes, so they take JSON bodies only (no multipart).
 */
export async function deskToolRoutes(app: FastifyInstance, options: { desk: DeskService }) {
  const { desk } = options;

  route(app, api.addNote, async (request) => ({
    message: await desk.addNote(principalOf(request), request.params.ticketId, request.body),
  }));

  route(app, api.assign, async (request) => ({
    ticket: await desk.assign(
      assignerOf(request, request.body.assignee),
      request.params.ticketId,
      request.body.assignee,
      request.body.seenVersion,
    ),
  }));

  route(app, api.setPrivacy, async (request) => ({
    ticket: await desk.setPrivacy(principalOf(request), request.params.ticketId, request.body.privacy),
  }));

  route(app, api.setKeepForRecord, async (request) => ({
    ticket: await desk.setKeepForRecord(principalOf(request), request.params.ticketId, request.body.keep),
  }));

  route(app, api.setDeliveryReference, async (request) => ({
    ticket: await desk.setDeliveryReference(
      principalOf(request),
      request.params.ticketId,
      request.body.deliveryReference ?? null,
    ),
  }));

  route(app, api.delivery, async (request) => desk.deliveryCard(request.params.ticketId));

  route(app, api.agents, async () => ({ agents: await desk.agents() }));

  route(app, api.search, async (request) => ({ results: await desk.search(request.query.q) }));

  route(app, api.figures, async () => desk.figures());

  route(app, api.firstSteps, async () => desk.firstSteps());
}
