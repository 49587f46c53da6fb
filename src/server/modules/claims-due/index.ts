import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SharedServices } from '../../shared-services.ts';
import { createClaimsDueRepository } from './claims-due.repository.ts';
import { createClaimsDueWorker, type ClaimsDueWorker } from './claims-due.worker.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Claims' due warnings and closing of this process (tests run its rounds: `app.claimsDueWorker.run()`). */
    claimsDueWorker: ClaimsDueWorker;
  }
}

export interface ClaimsDueModuleOptions extends SharedServices {
  /** False: the worker runs only when a test calls it. */
  startWorker?: boolean;
}

/**
 * The claims' clock (docs/decisions/152-incident-claims.md): the team's warning once per due time
 * of a claim waiting on it, and the close of decided claims once their appeal window has passed. A
 * worker of its own beside the claims module, on the service levels' interval and warning lead.
 */
export const claimsDueModule = fp<ClaimsDueModuleOptions>(
  async function claimsDue(app: FastifyInstance, options) {
    const worker = createClaimsDueWorker({
      db: options.database.db,
      repository: createClaimsDueRepository(options.database.db),
      outbox: options.outbox,
      mail: options.mail,
      log: options.log,
      clock: options.clock,
      checkMs: options.config.serviceLevels.checkMs,
      warningMinutes: options.config.serviceLevels.warningMinutes,
    });
    app.decorate('claimsDueWorker', worker);
    if (options.startWorker ?? true) app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', async () => worker.stop());
  },
  { name: 'claims-due', dependencies: ['claims'] },
);
