import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type BackgroundRounds, createBackgroundRounds } from '../../background-rounds.ts';
import type { SharedServices } from '../../shared-services.ts';
import { createReportsRepository } from './reports.repository.ts';
import { reportsRoutes } from './reports.routes.ts';
import { createReportsService } from './reports.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The reports' rollups worker of this process (tests run its rounds: `app.reportsWorker.run()`). */
    reportsWorker: BackgroundRounds;
  }
}

export interface ReportsModuleOptions extends SharedServices {
  /** False: the rollups are counted only when a report is read or a test runs the worker. */
  startWorker?: boolean;
}

/** How often the worker looks for writes to count (a report counts what is left before it reads). */
const ROLLUP_POLL_MS = 2_000;

/**
 * The reports module (docs/decisions/109-reports-and-charts.md): the desk's figures over a range of
 * New Zealand days, the tickets behind each figure, and every ticket of the range as a CSV. The
 * figures come from rollups its worker keeps from the writes' queue (docs/decisions/154-report-rollups.md);
 * the waits and business time it counts on are kept by the service-levels module's tables and the
 * database's functions.
 */
export const reportsModule = fp<ReportsModuleOptions>(
  async function reports(app: FastifyInstance, options) {
    const repository = createReportsRepository(options.database.db, options.database.kind);
    const service = createReportsService({ repository, clock: options.clock });
    const worker: BackgroundRounds = createBackgroundRounds(ROLLUP_POLL_MS, async () => {
      try {
        const counted = await repository.rollups.catchUp(options.clock.now(), {
          wait: false,
          months: true,
          stopped: () => worker.stopped,
        });
        if (counted.tickets > 0 || counted.days > 0 || counted.months > 0)
          options.log.info(counted, 'report rollups counted');
      } catch (error) {
        options.log.error({ err: error }, 'report rollups failed; the next round tries again');
      }
    });
    app.decorate('reportsWorker', worker);
    if (options.startWorker ?? true) app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', async () => worker.stop());
    await app.register(reportsRoutes, { reports: service });
  },
  { name: 'reports', dependencies: ['service-levels'] },
);
