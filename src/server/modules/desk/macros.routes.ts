import type { FastifyInstance } from 'fastify';
import { deskApi as api } from '../../../contracts/api/support.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import type { MacrosService } from './macros.service.ts';

/** /api/admin/support/tickets/:ticketId/macro: a macro applied to one ticket (docs/decisions/145-macro-actions.md). */
export async function macrosRoutes(app: FastifyInstance, options: { macros: MacrosService }) {
  route(app, api.applyMacro, async (request) =>
    options.macros.apply(principalOf(request), request.params.ticketId, request.body),
  );
}
