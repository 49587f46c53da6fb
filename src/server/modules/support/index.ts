import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SharedServices } from '../../shared-services.ts';
import { createSupportLive, type SupportLive } from './support.live.ts';
import { createSupportRepository } from './support.repository.ts';
import { supportAdminRoutes } from './support.admin.routes.ts';
import { supportRoutes } from './support.routes.ts';
import { createSupportStreams } from './support.streams.ts';
import { createSupportService } from './support.service.ts';
import { createDeskRepository } from './support.desk.repository.ts';
import { supportDeskRoutes } from './support.desk.routes.ts';
import { createSearchRepository } from './support.search.repository.ts';
import { createSavedRepliesRepository } from './saved-replies.repository.ts';
import { savedRepliesRoutes } from './saved-replies.routes.ts';
import { createSavedRepliesService } from './saved-replies.service.ts';
import { createDeskService } from './support.desk.service.ts';
import { createSupportRecords, type SupportRecords } from './support.records.ts';
import { deskApi } from '../../../contracts/api/support.ts';
import { createMergeRepository } from './support.merge.repository.ts';
import { supportMergeRoutes } from './support.merge.routes.ts';
import { createMergeService } from './support.merge.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Live support delivery of this process (tests run its sweep). */
    supportLive: SupportLive;
    /** Tickets other modules open inside their own transaction (the privacy module's Deactivation ticket). */
    supportRecords: SupportRecords;
  }
}

/**
 * The support module: tickets and their messages, the callable `createSupportTicket`, the admin
 * inbox, the desk's tools (notes, assignment, ratings, figures: support.desk.*; saved replies:
 * saved-replies.*), and the live
 * streams of both sides (support.live.ts), fed by the shared event bus.
 */
export const supportModule = fp<SharedServices>(
  async function support(app: FastifyInstance, shared) {
    const { config, database } = shared;
    const repository = createSupportRepository(database.db, { notifyDelaySeconds: config.mail.notifyDelaySeconds });
    const mergeRepository = createMergeRepository(database.db);
    const support = createSupportService({
      repository,
      resolveTicket: (ticketId) => mergeRepository.resolve(ticketId),
      limiter: shared.limiter,
      ticketsPerUserPerHour: config.support.ticketsPerUserPerHour,
      audit: shared.audit,
      clock: shared.clock,
    });
    const live = createSupportLive({ bus: shared.bus, repository, log: shared.log, clock: shared.clock });
    app.decorate('supportLive', live);
    app.decorate('supportRecords', createSupportRecords({ notifyDelaySeconds: config.mail.notifyDelaySeconds }));
    // Before the event bus stops (a shared service, closed after the modules).
    app.addHook('onClose', async () => live.close());

    // One gate for the streams of both sides: the per-session limit counts them together.
    const streams = createSupportStreams(app, {
      live,
      resolvePrincipal: app.resolvePrincipal,
      streamsPerSession: config.support.streamsPerSession,
      heartbeatMs: config.support.heartbeatMs,
    });
    await app.register(supportRoutes, { support, live, streams });
    await app.register(supportAdminRoutes, { support, live, streams });
    const desk = createDeskService({
      repository,
      desk: createDeskRepository(database.db),
      search: createSearchRepository(database.db),
      audit: shared.audit,
      clock: shared.clock,
    });
    await app.register(supportDeskRoutes, { desk });

    // Merging (docs/decisions/116-ticket-merge.md). Everything addressed to a merged ticket reaches
    // the ticket it was merged into: every API route with a ticket in its path (the owner's and the
    // console's reads and writes, the streams, the files) is given the end of the ticket's chain of
    // merges before its handler runs, after the access checks. The merge itself reads the address
    // as given, so merging a merged ticket again is refused, not turned into a merge of the target.
    const merge = createMergeService({ repository: mergeRepository, audit: shared.audit });
    app.addHook('preHandler', async (request) => {
      const params = request.params as { ticketId?: unknown } | undefined;
      const url = request.routeOptions.url;
      if (typeof params?.ticketId !== 'string' || !url?.startsWith('/api/') || url === deskApi.merge.path) return;
      params.ticketId = await merge.resolve(params.ticketId);
    });
    await app.register(supportMergeRoutes, { merge });
    const savedReplies = createSavedRepliesService({
      repository: createSavedRepliesRepository(database.db),
      audit: shared.audit,
    });
    await app.register(savedRepliesRoutes, { savedReplies });
  },
  // The access plugin (registered before every module) lends the streams its session lookup.
  { name: 'support', dependencies: ['attachments'], decorators: { fastify: ['resolvePrincipal', 'attachments'] } },
);

/** What other modules may hold of this one: the records of a person's tickets (export, erasure, mail posting). */
export type { SupportRecords } from './support.records.ts';
