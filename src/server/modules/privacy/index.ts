import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SharedServices } from '../../shared-services.ts';
import { deletionRoutes } from './deletion.routes.ts';
import { createDeletionService, type DeletionService } from './deletion.service.ts';
import { createErasureWorker, type ErasureWorker } from './erasure.worker.ts';
import { createPrivacyRepository } from './privacy.repository.ts';
import { privacyRoutes } from './privacy.routes.ts';
import { createPrivacyService } from './privacy.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Deleting accounts (the request, the admin's 'Erase now'). */
    accountDeletion: DeletionService;
    /** This process's erasure worker (tests run its rounds: `app.erasureWorker.runOnce()`). */
    erasureWorker: ErasureWorker;
  }
}

export interface PrivacyModuleOptions extends SharedServices {
  /** False: the erasure worker runs only when a test calls `app.erasureWorker.runOnce()`. */
  startWorker?: boolean;
}

/**
 * The privacy module: what the Privacy Act lets a person ask of us, done by themselves. Their data
 * as one file (docs/data-export.md), the clock that gives requests their answer-by date
 * (privacy-clock.ts, used by the support desk), and deleting the account: the request, and the
 * erasure worker of this process that erases accounts once due
 * (docs/decisions/098-account-deletion-and-erasure.md).
 */
export const privacyModule = fp<PrivacyModuleOptions>(
  async function privacy(app: FastifyInstance, options) {
    const service = createPrivacyService({ repository: createPrivacyRepository(options.database.db) });
    await app.register(privacyRoutes, { privacy: service });

    const worker = createErasureWorker({
      db: options.database.db,
      storage: options.storage,
      log: options.log,
      pollMs: options.config.privacy.eraseCheckMs,
    });
    const deletion = createDeletionService({
      db: options.database.db,
      outbox: options.outbox,
      mail: options.mail,
      eraseAfterDays: options.config.privacy.eraseAfterDays,
      confirmPassword: (input) => app.accounts.confirmPassword(input),
      openTicket: (db, input) => app.supportRecords.openTicket(db, input),
      wakeWorker: () => worker.wake(),
      log: options.log,
    });
    app.decorate('accountDeletion', deletion);
    app.decorate('erasureWorker', worker);
    if (options.startWorker ?? true) app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', async () => worker.stop());
    await app.register(deletionRoutes, { deletion });
  },
  {
    name: 'privacy',
    dependencies: ['accounts', 'support'],
    decorators: { fastify: ['accounts', 'supportRecords'] },
  },
);

/**
 * The privacy clock's New Zealand dates (the support module dates privacy requests with it; this
 * module reaches support only through `app.supportRecords`, so the import runs one way).
 */
export { newZealandDate, privacyDueDate } from './privacy-clock.ts';
