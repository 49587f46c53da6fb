import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type CompanyStatus, companyStatusOf } from '../../../contracts/partner-review.ts';
import type { SharedServices } from '../../shared-services.ts';
import { removeStalePartialUploads } from '../../storage/local-storage.ts';
import { createApplicationStatusRepository } from './application-status.repository.ts';
import { applicationStatusRoutes } from './application-status.routes.ts';
import { createApplicationStatusService } from './application-status.service.ts';
import { createLicenseExpiryWorker, type LicenseExpiryWorker } from './license-expiry.worker.ts';
import { sweepOrphanLicenses } from './license-sweep.ts';
import { createNzbnLookupWorker, type NzbnLookupWorker } from './nzbn-lookup.worker.ts';
import { createPartnersRepository } from './partners.repository.ts';
import { createReviewRepository } from './partners.review.repository.ts';
import { reviewRoutes } from './partners.review.routes.ts';
import { createReviewService } from './partners.review.service.ts';
import { partnersRoutes } from './partners.routes.ts';
import { changesRoutes } from './partners.changes.routes.ts';
import { createChangesService } from './partners.changes.service.ts';
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
  /** Companies and where each stands, most recently changed first (the app's partners:read). */
  statuses(
    status: CompanyStatus | undefined,
    limit: number,
  ): Promise<Array<{ id: string; companyName: string; status: CompanyStatus; lastUpdated: Date }>>;
}

declare module 'fastify' {
  interface FastifyInstance {
    partners: PartnersModule;
    /** The NZBN register lookup of this process; null without NZBN_API_KEY (tests run its rounds). */
    nzbnLookupWorker: NzbnLookupWorker | null;
    /** Licence reminders and the hold of this process (tests run its rounds: `app.licenseExpiryWorker.run()`). */
    licenseExpiryWorker: LicenseExpiryWorker;
  }
}

export interface PartnersModuleOptions extends SharedServices {
  /** False: the licence expiry worker runs only when a test calls it. */
  startWorker?: boolean;
}

/**
 * The partners module: partner registration (the streamed form and its licence file in storage)
 * and their review in the admin console, the applicant's private status page, and the start-up sweep of what a crash left in storage.
 */
export const partnersModule = fp<PartnersModuleOptions>(
  async function partners(app: FastifyInstance, shared) {
    const { config, database, storage } = shared;
    // The NZBN register lookup (docs/decisions/114-nzbn-lookup.md): a worker only with NZBN_API_KEY.
    const nzbnLookupWorker = config.nzbnLookup
      ? createNzbnLookupWorker({ ...config.nzbnLookup, db: database.db, log: shared.log, clock: shared.clock })
      : null;
    const repository = createPartnersRepository(database.db, {
      clock: shared.clock,
      lookupsOn: nzbnLookupWorker !== null,
      due: () => nzbnLookupWorker?.wake(),
    });
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
      clock: shared.clock,
      // The one business calendar, kept by the service-levels module (registered after this one,
      // so read when a list is asked for): review due dates count its working days.
      calendar: async () => (await app.serviceLevels.settings()).calendar,
      storage,
      log: shared.log,
    });
    const status = createApplicationStatusService({
      repository: createApplicationStatusRepository(database.db),
      limiter: shared.limiter,
      readsPerIpPerMinute: config.partnerStatusReadsPerIpPerMinute,
      db: database.db,
      outbox: shared.outbox,
      mail: shared.mail,
      linkRequestsPerIpPerHour: config.accountRequestsPerIpPerHour,
      linkMailsPerHour: config.accountEmailsPerHour,
      calendar: async () => (await app.serviceLevels.settings()).calendar,
    });

    const reviewRows = createReviewRepository(database.db);
    app.decorate('partners', {
      async statuses(status, limit) {
        return (await reviewRows.statuses(status, limit)).map((row) => ({
          id: row.id,
          companyName: row.companyName,
          status: companyStatusOf(row),
          lastUpdated: row.lastUpdated,
        }));
      },
      async sweepStorage({ staleAfterMs }) {
        const { removed } = await sweepOrphanLicenses({ storage, repository, log: shared.log });
        const removedPartialUploads =
          config.storage.kind === 'local' ? await removeStalePartialUploads(config.storage.dir, staleAfterMs) : 0;
        return { removedLicenses: removed, removedPartialUploads };
      },
    } satisfies PartnersModule);

    const changes = createChangesService({
      db: database.db,
      partners: repository,
      outbox: shared.outbox,
      mail: shared.mail,
      audit: shared.audit,
      storage,
      clock: shared.clock,
      log: shared.log,
    });
    await app.register(partnersRoutes, { partners });
    // An admin opening a received application puts it in review (docs/decisions/113-changes-requested.md).
    await app.register(reviewRoutes, { review, opened: changes.markInReview });
    await app.register(applicationStatusRoutes, { status });
    await app.register(changesRoutes, { changes, status });

    app.decorate('nzbnLookupWorker', nzbnLookupWorker);
    if (nzbnLookupWorker) {
      app.addHook('onReady', async () => nzbnLookupWorker.start());
      app.addHook('onClose', async () => nzbnLookupWorker.stop());
    }

    // Licence reminders and the hold at expiry (docs/decisions/115-licence-expiry.md): one per instance.
    const licenseExpiryWorker = createLicenseExpiryWorker({
      db: database.db,
      outbox: shared.outbox,
      mail: shared.mail,
      log: shared.log,
      clock: shared.clock,
      ...config.licenseExpiry,
    });
    app.decorate('licenseExpiryWorker', licenseExpiryWorker);
    if (shared.startWorker ?? true) app.addHook('onReady', async () => licenseExpiryWorker.start());
    app.addHook('onClose', async () => licenseExpiryWorker.stop());
  },
  { name: 'partners' },
);
