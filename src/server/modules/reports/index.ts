import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SharedServices } from '../../shared-services.ts';
import { createReportsRepository } from './reports.repository.ts';
import { reportsRoutes } from './reports.routes.ts';
import { createReportsService } from './reports.service.ts';

/**
 * The reports module (docs/decisions/109-reports-and-charts.md): the desk's figures over a range of
 * New Zealand days, the tickets behind each figure, and every ticket of the range as a CSV. It only
 * reads: the waits and business time it counts on are kept by the service-levels module's tables
 * and the database's functions.
 */
export const reportsModule = fp<SharedServices>(
  async function reports(app: FastifyInstance, shared) {
    const service = createReportsService({
      repository: createReportsRepository(shared.database.db, shared.database.kind),
      clock: shared.clock,
    });
    await app.register(reportsRoutes, { reports: service });
  },
  { name: 'reports', dependencies: ['service-levels'] },
);
