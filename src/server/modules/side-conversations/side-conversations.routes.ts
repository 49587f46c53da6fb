import type { FastifyInstance } from 'fastify';
import { sideApi as api } from '../../../contracts/api/side-conversations.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import { contentDisposition, sendStoredFile } from '../../http/stored-file.ts';
import type { SideService } from './side-conversations.service.ts';

/** Side conversations (/api/admin/support/…/side-conversations), each as declared in contracts/api/side-conversations.ts. */
export async function sideRoutes(app: FastifyInstance, options: { side: SideService }) {
  const { side } = options;

  route(app, api.list, async (request) => ({ conversations: await side.list(request.params.ticketId) }));

  route(app, api.start, async (request) => ({
    conversation: await side.start(principalOf(request), request.params.ticketId, request.body),
  }));

  route(app, api.reply, async (request) => ({
    conversation: await side.reply(principalOf(request), request.params.sideId, request.body.messageBody),
  }));

  route(app, api.close, async (request) => ({
    conversation: await side.close(principalOf(request), request.params.sideId),
  }));

  route(app, api.wholeMail, async (request) => side.wholeMail(request.params.sideId, request.params.messageId));

  // Someone else's file: served as the team's files are (nosniff, sandboxed, never cached), and
  // only ever as a download.
  route(app, api.file, async (request, reply) => {
    const file = await side.file(request.params.sideId, request.params.messageId, request.params.index);
    return sendStoredFile(reply, {
      contentType: file.contentType,
      disposition: contentDisposition('attachment', file.name),
      size: file.body.length,
      body: file.body,
    });
  });
}
