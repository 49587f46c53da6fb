import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  UserListQuerySchema,
  UserListSchema,
  UserParamsSchema,
  UserResultSchema,
  UserRoleSchema,
} from '../../../contracts/users.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import type { AccountsAdminService } from './accounts.admin.service.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const actor = (request: FastifyRequest) => request.principal!;

export async function accountsAdminRoutes(app: FastifyInstance, options: { users: AccountsAdminService }) {
  const { users } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/admin/users', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Accounts, newest first; find by email',
      querystring: UserListQuerySchema,
      response: { 200: UserListSchema, ...errors },
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return users.list(actor(request), request.query);
    },
  });

  api.post('/api/admin/users/:userId/resend-verification', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Send a new verification email to an unverified account',
      params: UserParamsSchema,
      response: { 200: UserResultSchema, 409: ErrorBodySchema, 429: ErrorBodySchema, ...errors },
    },
    handler: async (request) => users.resendVerification(actor(request), request.params.userId, request.ip),
  });

  api.post('/api/admin/users/:userId/disable', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Disable an account: ends its sessions and live streams',
      params: UserParamsSchema,
      response: { 200: UserResultSchema, ...errors },
    },
    handler: async (request) => users.disable(actor(request), request.params.userId),
  });

  api.post('/api/admin/users/:userId/enable', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Enable a disabled account',
      params: UserParamsSchema,
      response: { 200: UserResultSchema, ...errors },
    },
    handler: async (request) => users.enable(actor(request), request.params.userId),
  });

  api.post('/api/admin/users/:userId/role', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Make an account admin, or a plain user (never your own)',
      params: UserParamsSchema,
      body: UserRoleSchema,
      response: { 200: UserResultSchema, ...errors },
    },
    handler: async (request) => users.setRole(actor(request), request.params.userId, request.body.role),
  });
}
