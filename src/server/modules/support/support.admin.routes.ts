import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { deskApi as api } from '../../../contracts/api/support.ts';
import { SUPPORT_TEXT } from '../../../contracts/support.ts';
import { ReplyFormSchema } from '../../../contracts/support.schemas.ts';
import { ATTACHMENT_TEXT } from '../../../contracts/attachments.ts';
import { AppError } from '../../errors.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import { MESSAGE_MULTIPART_LIMITS, withMessageForm } from './support.forms.ts';
import type { SupportLive } from './support.live.ts';
import type { SupportService } from './support.service.ts';
import type { SupportStreams } from './support.streams.ts';

/**
 * The support desk's side (/api/admin/support/*): the inbox, a ticket's thread, answers, close and
 * reopen; each endpoint as declared in contracts/api/support.ts.
 */
export async function supportAdminRoutes(
  app: FastifyInstance,
  options: { support: SupportService; live: SupportLive; streams: SupportStreams },
) {
  const { support, live } = options;
  const { startStream, viewerOf } = options.streams;
  await app.register(fastifyMultipart, { limits: MESSAGE_MULTIPART_LIMITS, throwFileSizeLimit: false });

  route(app, api.listTickets, async (request) => support.listAllTickets(principalOf(request).userId, request.query));

  route(app, api.ticketsStream, async (request, reply) => {
    const viewer = viewerOf(request, true);
    const stream = startStream(request, reply, viewer);
    const filter = request.query;
    const load = () => support.listAllTickets(viewer.userId, filter);
    await live.watchList(viewer, stream, load, 'all');
  });

  route(app, api.ticket, async (request) =>
    support.getAnyTicketWithMessages(principalOf(request).userId, request.params.ticketId),
  );

  route(app, api.reply, async (request) => {
    const actor = principalOf(request);
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
  });

  route(app, api.close, async (request) => ({
    ticket: await support.setOpen(principalOf(request), request.params.ticketId, false),
  }));

  route(app, api.reopen, async (request) => ({
    ticket: await support.setOpen(principalOf(request), request.params.ticketId, true),
  }));
}
