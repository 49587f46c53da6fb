import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SharedServices } from '../../shared-services.ts';
import { createServiceLevelsRepository } from './service-levels.repository.ts';
import { serviceLevelsRoutes } from './service-levels.routes.ts';
import { createServiceLevelsService, type ServiceLevelsService } from './service-levels.service.ts';
import { createServiceLevelWorker, type ServiceLevelWorker } from './service-levels.worker.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The business calendar and targets (tests read and change them through it). */
    serviceLevels: ServiceLevelsService;
    /** Warnings and the auto-close of this process (tests run its rounds: `app.serviceLevelWorker.run()`). */
    serviceLevelWorker: ServiceLevelWorker;
  }
}

export interface ServiceLevelsModuleOptions extends SharedServices {
  /** False: the worker runs only when a test calls it. */
  startWorker?: boolean;
}

/**
 * The service-levels module (docs/decisions/108-service-levels.md): the team's business calendar
 * and targets per reason, and the database's view of them (the open intervals that business time is
 * counted on). The waits and due times themselves are kept by database triggers on every path that
 * adds a message or closes a ticket.
 */
export const serviceLevelsModule = fp<ServiceLevelsModuleOptions>(
  async function serviceLevels(app: FastifyInstance, options) {
    const repository = createServiceLevelsRepository(options.database.db);
    const service = createServiceLevelsService({ repository, audit: options.audit, clock: options.clock });
    app.decorate('serviceLevels', service);
    // Before the first request: due times need the intervals (made once for a new database).
    app.addHook('onReady', async () => {
      const { rebuilt, intervals } = await service.ensureIntervals();
      if (rebuilt) options.log.info({ intervals }, 'business calendar: open intervals made');
    });
    await app.register(serviceLevelsRoutes, { serviceLevels: service });
    const worker = createServiceLevelWorker({
      db: options.database.db,
      outbox: options.outbox,
      mail: options.mail,
      log: options.log,
      clock: options.clock,
      records: app.supportRecords,
      calendar: async () => (await repository.read()).calendar,
      ...options.config.serviceLevels,
    });
    app.decorate('serviceLevelWorker', worker);
    // After the intervals (the hook above): due times are there before the first round.
    if (options.startWorker ?? true) app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', async () => worker.stop());
  },
  { name: 'service-levels', dependencies: ['support'], decorators: { fastify: ['supportRecords'] } },
);
