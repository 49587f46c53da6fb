import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SharedServices } from '../../shared-services.ts';
import { createBulkRepository } from './bulk.repository.ts';
import { bulkRoutes } from './bulk.routes.ts';
import { createBulkService } from './bulk.service.ts';
import { createMergeRepository } from './desk.merge.repository.ts';
import { deskMergeRoutes } from './desk.merge.routes.ts';
import { createMergeService } from './desk.merge.service.ts';
import { createDeskRepository } from './desk.repository.ts';
import { deskRoutes, deskToolRoutes } from './desk.routes.ts';
import { createSearchRepository } from './desk.search.repository.ts';
import { createDeskService } from './desk.service.ts';
import { createDeliveryContext } from './delivery-context.ts';
import { createLabelsRepository } from './labels.repository.ts';
import { labelsRoutes } from './labels.routes.ts';
import { macrosRoutes } from './macros.routes.ts';
import { createMacrosService } from './macros.service.ts';
import { createLabelsService } from './labels.service.ts';
import { createSavedRepliesRepository } from './saved-replies.repository.ts';
import { savedRepliesRoutes } from './saved-replies.routes.ts';
import { createSavedRepliesService } from './saved-replies.service.ts';

/**
 * The desk module, the support team's side of tickets (/api/admin/support/*): the inbox and its live
 * list, a ticket's thread, answers, close and reopen, internal notes, assignment, the privacy and
 * keep-for-record marks, search, the figures (ratings among them), merging and splitting tickets
 * (desk.merge.*, docs/decisions/116-ticket-merge.md), the team's saved replies (saved-replies.*) and
 * labels (labels.*, docs/decisions/141-labels.md), macros (macros.*, docs/decisions/145-macro-actions.md) and
 * bulk actions (bulk.*, docs/decisions/143-bulk-actions.md).
 * Tickets and messages are the support module's: the desk reads and writes them through
 * `app.support`, and its inbox stream passes `app.supportStreams`
 * (docs/decisions/128-support-and-desk.md).
 */
export const deskModule = fp<SharedServices>(
  async function desk(app: FastifyInstance, shared) {
    const { database } = shared;
    const { deliveryContext } = shared.config;
    const desk = createDeskService({
      tickets: app.support,
      desk: createDeskRepository(database.db),
      search: createSearchRepository(database.db),
      audit: shared.audit,
      clock: shared.clock,
      // The delivery card (docs/decisions/151-delivery-card.md): only with DELIVERY_CONTEXT_URL.
      delivery: deliveryContext
        ? createDeliveryContext({
            ...deliveryContext,
            clock: shared.clock,
            onFailure: (reference, failure, detail) =>
              app.log.warn({ deliveryReference: reference, failure, detail }, 'the delivery card could not be loaded'),
          })
        : null,
    });
    await app.register(deskRoutes, {
      desk,
      tickets: app.support,
      live: app.supportLive,
      streams: app.supportStreams,
    });
    await app.register(deskToolRoutes, { desk });

    const merge = createMergeService({ repository: createMergeRepository(database.db), audit: shared.audit });
    await app.register(deskMergeRoutes, { merge });
    const savedReplies = createSavedRepliesService({
      repository: createSavedRepliesRepository(database.db),
      audit: shared.audit,
    });
    await app.register(savedRepliesRoutes, { savedReplies });
    const labels = createLabelsService({ repository: createLabelsRepository(database.db), audit: shared.audit });
    await app.register(labelsRoutes, { labels });
    const macros = createMacrosService({
      db: database.db,
      records: app.supportRecords,
      savedReplies: createSavedRepliesRepository(database.db),
      desk,
      audit: shared.audit,
      clock: shared.clock,
    });
    await app.register(macrosRoutes, { macros });
    const bulk = createBulkService({
      db: database.db,
      records: app.supportRecords,
      repository: createBulkRepository(database.db),
      desk,
      macros,
      audit: shared.audit,
      clock: shared.clock,
    });
    await app.register(bulkRoutes, { bulk });
  },
  {
    name: 'desk',
    dependencies: ['support'],
    decorators: { fastify: ['support', 'supportLive', 'supportStreams', 'supportRecords'] },
  },
);
