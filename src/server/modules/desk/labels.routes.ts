import type { FastifyInstance } from 'fastify';
import { labelsApi as api } from '../../../contracts/api/labels.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import type { LabelsService } from './labels.service.ts';

/** /api/admin/labels and a ticket's labels, as declared in contracts/api/labels.ts. */
export async function labelsRoutes(app: FastifyInstance, options: { labels: LabelsService }) {
  const { labels } = options;

  route(app, api.list, async () => ({ labels: await labels.list() }));

  route(app, api.create, async (request) => ({
    label: await labels.create(principalOf(request), request.body.name),
  }));

  route(app, api.rename, async (request) => ({
    label: await labels.rename(principalOf(request), request.params.labelId, request.body.name),
  }));

  route(app, api.remove, async (request) => ({
    label: await labels.remove(principalOf(request), request.params.labelId),
  }));

  route(app, api.setTicketLabels, async (request) => ({
    labels: await labels.setForTicket(principalOf(request), request.params.ticketId, request.body.labelIds),
  }));
}
