import type { FastifyInstance } from 'fastify';
import { deskApi, supportApi } from '../../../contracts/api/support.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import type { DeskService } from './support.desk.service.ts';

/**
 * The desk's tools: the owner's rating, and the console's notes, assignment and figures; each
 * endpoint as declared in contracts/api/support.ts.
 */
export async function supportDeskRoutes(app: FastifyInstance, options: { desk: DeskService }) {
  const { desk } = options;

  route(app, supportApi.rate, async (request) => ({
    ticket: await desk.rate(principalOf(request).userId, request.params.ticketId, request.body),
  }));

  route(app, deskApi.addNote, async (request) => ({
    message: await desk.addNote(principalOf(request), request.params.ticketId, request.body),
  }));

  route(app, deskApi.assign, async (request) => ({
    ticket: await desk.assign(principalOf(request), request.params.ticketId, request.body.assignee),
  }));

  route(app, deskApi.setPrivacy, async (request) => ({
    ticket: await desk.setPrivacy(principalOf(request), request.params.ticketId, request.body.privacy),
  }));

  route(app, deskApi.setKeepForRecord, async (request) => ({
    ticket: await desk.setKeepForRecord(principalOf(request), request.params.ticketId, request.body.keep),
  }));

  route(app, deskApi.agents, async () => ({ agents: await desk.agents() }));

  route(app, deskApi.search, async (request) => ({ results: await desk.search(request.query.q) }));

  route(app, deskApi.figures, async () => desk.figures());
}
