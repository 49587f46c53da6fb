import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DeleteAccountBodySchema,
  DeleteAccountResultSchema,
  DeletionInfoSchema,
  EraseResultSchema,
} from '../../../contracts/account-deletion.ts';
import { UserParamsSchema } from '../../../contracts/users.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import type { DeletionService } from './deletion.service.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/** Deleting one's account, and the admin's 'Erase now' (docs/product.md §2.14). */
export async function deletionRoutes(app: FastifyInstance, options: { deletion: DeletionService }) {
  const { deletion } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/account/delete', {
    config: { access: 'user' },
    schema: {
      tags: ['account'],
      summary: 'What deleting the account would mean now: the date its data would be erased',
      response: { 200: DeletionInfoSchema, 401: ErrorBodySchema },
    },
    handler: async () => deletion.info(),
  });

  api.post('/api/account/delete', {
    config: { access: 'user' },
    schema: {
      tags: ['account'],
      summary:
        'Delete the signed-in account, confirmed with its password: disabled and signed out at once, erased after ERASE_AFTER_DAYS',
      body: DeleteAccountBodySchema,
      response: { 200: DeleteAccountResultSchema, 409: ErrorBodySchema, 429: ErrorBodySchema, ...errors },
    },
    handler: async (request, reply) => {
      const result = await deletion.request({
        userId: request.principal!.userId,
        password: request.body.password,
        ip: request.ip,
      });
      reply.clearSessionCookie();
      return result;
    },
  });

  api.post('/api/admin/users/:userId/erase', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Erase an account whose owner asked to delete it now, instead of after ERASE_AFTER_DAYS',
      params: UserParamsSchema,
      response: { 200: EraseResultSchema, 409: ErrorBodySchema, ...errors },
    },
    handler: async (request) => deletion.eraseNow(request.principal!, request.params.userId),
  });
}
