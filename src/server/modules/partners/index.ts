import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SharedServices } from '../../shared-services.ts';
import { removeStalePartialUploads } from '../../storage/local-storage.ts';
import { sweepOrphanLicenses } from './license-sweep.ts';
import { createPartnersRepository } from './partners.repository.ts';
import { createReviewRepository } from './partners.review.repository.ts';
import { reviewRoutes } from './partners.review.routes.ts';
import { createReviewService } from './partners.review.service.ts';
import { partnersRoutes } from './partners.routes.ts';
import { createPartnersService } from './partners.service.ts';

/** What the partners module offers the rest of the server (`app.partners`). */
export interface PartnersModule {
  /**
   * Removes licence files whose registration never committed, and, on local storage, partial
   * uploads older than `staleAfterMs` (license-sweep.ts says why this is safe while serving).
   */
  sweepStorage(options: {
    staleAfterMs: number;
  }): Promise<{ removedLicenses: string[]; removedPartialUploads: number }>;
}

declare module 'fastify' {
  interface FastifyInstance {
    partners: PartnersModule;
  }
}

/**
 * The partners module: partner registration (the streamed form and its licence file in storage)
 * and their review in the admin console, and the start-up sweep of what a crash left in storage.
 */
export const partnersModule = fp<SharedServices>(
  async function partners(app: FastifyInstance, shared) {
    const { config, database, storage } = shared;
    const repository = createPartnersRepository(database.db);
    const partners = createPartnersService({
      repository,
      outbox: shared.outbox,
      mail: shared.mail,
      storage,
      limiter: shared.limiter,
      registrationsPerIpPerHour: config.registrationsPerIpPerHour,
      log: shared.log,
    });
    const review = createReviewService({
      repository: createReviewRepository(database.db),
      db: database.db,
      outbox: shared.outbox,
      mail: shared.mail,
      audit: shared.audit,
    });

    app.decorate('partners', {
      async sweepStorage({ staleAfterMs }) {
        const { removed } = await sweepOrphanLicenses({ storage, repository, log: shared.log });
        const removedPartialUploads =
          config.storage.kind === 'local' ? await removeStalePartialUploads(config.storage.dir, staleAfterMs) : 0;
        return { removedLicenses: removed, removedPartialUploads };
      },
    } satisfies PartnersModule);

    await app.register(partnersRoutes, { partners });
    await app.register(reviewRoutes, { review });
  },
  { name: 'partners' },
);
