import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { partnerChangesApi, partnersApi } from '../../../contracts/api/partners.ts';
import { COMPANY_MESSAGES } from '../../../contracts/companies.ts';
import { AppError } from '../../errors.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import { formParts } from '../../http/form-parts.ts';
import type { ApplicationStatusService } from './application-status.service.ts';
import type { ChangesService } from './partners.changes.service.ts';
import { REGISTRATION_MULTIPART_LIMITS } from './partners.routes.ts';

/** Changes requested (docs/decisions/113-changes-requested.md): the admin's request and the applicant's send. */
export async function changesRoutes(
  app: FastifyInstance,
  options: { changes: ChangesService; status: ApplicationStatusService },
) {
  const { changes, status } = options;
  // Registered here, so only these routes (in this scope) accept multipart bodies, with the registration's limits.
  await app.register(fastifyMultipart, { limits: REGISTRATION_MULTIPART_LIMITS, throwFileSizeLimit: false });

  route(app, partnerChangesApi.request, async (request) =>
    changes.requestChanges(principalOf(request), request.params.companyId, request.body),
  );

  route(app, partnersApi.sendChanges, async (request, reply) => {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    if (!request.isMultipart()) throw new AppError('INVALID_ARGUMENT', COMPANY_MESSAGES.notMultipart);
    // One allowance for everything a status link does from an address.
    await status.requireReadAllowance(request.ip);
    const sent = await changes.send(
      request.params.token,
      formParts(request, {
        tooManyParts: COMPANY_MESSAGES.tooManyParts,
        invalidForm: COMPANY_MESSAGES.invalidForm,
        unreadableForm: COMPANY_MESSAGES.unreadableForm,
      }),
    );
    return { sent: sent.kind };
  });
}
