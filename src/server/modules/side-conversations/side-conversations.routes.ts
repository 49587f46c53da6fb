import type { FastifyInstance } from 'fastify';
import { sideApi as api } from '../../../contracts/api/side-conversations.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
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
}
