import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SavedReplyBodySchema,
  SavedReplyListSchema,
  SavedReplyParamsSchema,
  SavedReplySchema,
} from '../../../contracts/desk.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import type { SavedRepliesService } from './saved-replies.service.ts';
import { me } from './support.streams.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const one = z.object({ savedReply: SavedReplySchema });

/** /api/admin/support/saved-replies: the team's shared saved replies. */
export async function savedRepliesRoutes(app: FastifyInstance, options: { savedReplies: SavedRepliesService }) {
  const { savedReplies } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/admin/support/saved-replies', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'The saved replies, by title',
      response: { 200: SavedReplyListSchema, ...errors },
    },
    handler: async () => ({ savedReplies: await savedReplies.list() }),
  });

  api.post('/api/admin/support/saved-replies', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Add a saved reply (title unique, ignoring case)',
      body: SavedReplyBodySchema,
      response: { 200: one, 409: ErrorBodySchema, ...errors },
    },
    handler: async (request) => ({ savedReply: await savedReplies.create(me(request), request.body) }),
  });

  api.put('/api/admin/support/saved-replies/:savedReplyId', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Edit a saved reply',
      params: SavedReplyParamsSchema,
      body: SavedReplyBodySchema,
      response: { 200: one, 409: ErrorBodySchema, ...errors },
    },
    handler: async (request) => ({
      savedReply: await savedReplies.update(me(request), request.params.savedReplyId, request.body),
    }),
  });

  api.delete('/api/admin/support/saved-replies/:savedReplyId', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Delete a saved reply',
      params: SavedReplyParamsSchema,
      response: { 200: one, ...errors },
    },
    handler: async (request) => ({
      savedReply: await savedReplies.remove(me(request), request.params.savedReplyId),
    }),
  });
}
