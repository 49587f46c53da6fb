import type { FastifyInstance } from 'fastify';
import { inboundApi as api } from '../../../contracts/api/inbound.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import { contentDisposition, sendStoredFile } from '../../http/stored-file.ts';
import type { InboundService } from './inbound.service.ts';
import { can } from '../../plugins/access.ts';

/** The Mail page's Incoming view (admins), and the whole mail behind a message (its owner, or an admin). */
export async function inboundRoutes(app: FastifyInstance, options: { inbound: InboundService }) {
  const { inbound } = options;

  route(app, api.list, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return inbound.list(request.query);
  });

  route(app, api.read, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return inbound.read(request.params.inboundId);
  });

  // A received mail's files leave the server as people's uploads do (UP-05), and only as downloads:
  // nothing in a held mail has been checked (decision 134).
  route(app, api.file, async (request, reply) => {
    const file = await inbound.file(request.params.inboundId, request.params.fileIndex);
    return sendStoredFile(reply, {
      contentType: file.contentType,
      disposition: contentDisposition('attachment', file.name),
      size: file.body.length,
      body: file.body,
    });
  });

  route(app, api.post, async (request) => inbound.post(principalOf(request), request.params.inboundId));

  route(app, api.discard, async (request) => {
    await inbound.discard(principalOf(request), request.params.inboundId);
    return { discarded: true as const };
  });

  route(app, api.wholeMail, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const principal = principalOf(request);
    return inbound.wholeMail(
      { userId: principal.userId, admin: can(principal, 'tickets.read') },
      request.params.ticketId,
      request.params.messageId,
    );
  });
}
