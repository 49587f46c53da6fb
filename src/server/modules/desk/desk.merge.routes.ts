import type { FastifyInstance } from 'fastify';
import { deskApi } from '../../../contracts/api/support.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import type { MergeService } from './desk.merge.service.ts';

/** Merging tickets in the console: the candidates and the merge (contracts/api/support.ts). */
export async function deskMergeRoutes(app: FastifyInstance, options: { merge: MergeService }) {
  const { merge } = options;
  route(app, deskApi.mergeTargets, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { tickets: await merge.targets(request.params.ticketId) };
  });
  route(app, deskApi.merges, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { merges: await merge.undoable(request.params.ticketId) };
  });
  route(app, deskApi.undoMerge, async (request) => merge.undo(principalOf(request), request.params.mergeId));
  route(app, deskApi.split, async (request) =>
    merge.split(principalOf(request), request.params.ticketId, request.body),
  );
  route(app, deskApi.merge, async (request) =>
    merge.merge(principalOf(request), request.params.ticketId, request.body.targetTicketId, request.body.seenVersion),
  );
}
