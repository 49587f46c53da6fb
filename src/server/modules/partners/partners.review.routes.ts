import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CompanyDecisionSchema,
  CompanyListQuerySchema,
  CompanyListSchema,
  CompanyParamsSchema,
  CompanyResultSchema,
  RejectCompanySchema,
} from '../../../contracts/partner-review.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import type { ReviewService } from './partners.review.service.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const conflict = { 409: ErrorBodySchema };
const actor = (request: FastifyRequest) => request.principal!;

/** Partner review for the admin console; the licence download is in partners.routes.ts. */
export async function reviewRoutes(app: FastifyInstance, options: { review: ReviewService }) {
  const { review } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/admin/companies', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Partner applications by status (pending, verified, rejected, banned), with counts',
      querystring: CompanyListQuerySchema,
      response: { 200: CompanyListSchema, ...errors },
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return review.list(request.query.status, request.query.q);
    },
  });

  api.get('/api/admin/companies/:companyId', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'One application with every field',
      params: CompanyParamsSchema,
      response: { 200: CompanyResultSchema, ...errors },
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return review.get(request.params.companyId);
    },
  });

  api.post('/api/admin/companies/:companyId/approve', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Approve (verified = 1) and email the contact address; mail says sent, no-address or failed',
      params: CompanyParamsSchema,
      response: { 200: CompanyDecisionSchema, ...conflict, ...errors },
    },
    handler: async (request) => review.approve(actor(request), request.params.companyId),
  });

  api.post('/api/admin/companies/:companyId/reject', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Reject with a reason (verified = 2: frees the name, email and phone) and email the contact address',
      params: CompanyParamsSchema,
      body: RejectCompanySchema,
      response: { 200: CompanyDecisionSchema, ...conflict, ...errors },
    },
    handler: async (request) => review.reject(actor(request), request.params.companyId, request.body.reason),
  });

  api.post('/api/admin/companies/:companyId/notify', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Email the current decision again',
      params: CompanyParamsSchema,
      response: { 200: CompanyDecisionSchema, ...conflict, ...errors },
    },
    handler: async (request) => review.notify(actor(request), request.params.companyId),
  });

  for (const [action, banned] of [
    ['ban', true],
    ['unban', false],
  ] as const) {
    api.post(`/api/admin/companies/:companyId/${action}`, {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: banned ? 'Ban a company' : 'Lift a ban',
        params: CompanyParamsSchema,
        response: { 200: CompanyResultSchema, ...conflict, ...errors },
      },
      handler: async (request) => (banned ? review.ban : review.unban)(actor(request), request.params.companyId),
    });
  }
}
