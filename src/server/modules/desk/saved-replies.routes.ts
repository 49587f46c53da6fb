import type { FastifyInstance } from 'fastify';
import { deskApi as api } from '../../../contracts/api/support.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import type { SavedRepliesService } from './saved-replies.service.ts';

/** /api/admin/support/saved-replies: the team's shared saved replies, as declared in contracts/api/support.ts. */
export async function savedRepliesRoutes(app: FastifyInstance, options: { savedReplies: SavedRepliesService }) {
  const { savedReplies } = options;

  route(app, api.savedReplies, async () => ({ savedReplies: await savedReplies.list() }));

  route(app, api.createSavedReply, async (request) => ({
    savedReply: await savedReplies.create(principalOf(request), request.body),
  }));

  route(app, api.updateSavedReply, async (request) => ({
    savedReply: await savedReplies.update(principalOf(request), request.params.savedReplyId, request.body),
  }));

  route(app, api.deleteSavedReply, async (request) => ({
    savedReply: await savedReplies.remove(principalOf(request), request.params.savedReplyId),
  }));
}
