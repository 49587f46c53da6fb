import type { FastifyInstance } from 'fastify';
import { bulkApi as api } from '../../../contracts/api/bulk.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import type { BulkService } from './bulk.service.ts';
import { assignerOf } from './assigner.ts';

/** /api/admin/support/bulk: bulk actions on the inbox and their undo, as declared in contracts/api/bulk.ts. */
export async function bulkRoutes(app: FastifyInstance, options: { bulk: BulkService }) {
  const { bulk } = options;
  route(app, api.apply, async (request) =>
    bulk.apply(
      request.body.action === 'assign' ? assignerOf(request, request.body.assignee ?? null) : principalOf(request),
      request.body,
    ),
  );
  route(app, api.undo, async (request) => bulk.undo(principalOf(request), request.params.bulkId));
}
