import type { FastifyInstance, FastifyReply } from 'fastify';
import { reportsApi as api } from '../../../contracts/api/reports.ts';
import { route } from '../../http/endpoint-route.ts';
import type { ReportsService } from './reports.service.ts';

/** /api/admin/reports: the figures, a figure's tickets and the CSVs, as declared in contracts/api/reports.ts. */
export async function reportsRoutes(app: FastifyInstance, options: { reports: ReportsService }) {
  const { reports } = options;
  route(app, api.report, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return reports.report(request.query);
  });
  route(app, api.tickets, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return reports.tickets(request.query);
  });
  route(app, api.csv, async (request, reply) => download(reply, await reports.csv(request.query)));
  route(app, api.claimsCsv, async (request, reply) => download(reply, await reports.claimsCsv(request.query)));
}

/** A download, never shown in the page: text/csv with the file's name. */
function download(reply: FastifyReply, { name, body }: { name: string; body: string }) {
  return reply
    .headers({
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${name}"`,
      'cache-control': 'no-store',
    })
    .send(body);
}
