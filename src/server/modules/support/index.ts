import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { deskApi } from '../../../contracts/api/support.ts';
import type { SharedServices } from '../../shared-services.ts';
import { createSupportLive, type SupportLive } from './support.live.ts';
import { createSupportRecords, type SupportRecords } from './support.records.ts';
import { createSupportRepository } from './support.repository.ts';
import { supportRoutes } from './support.routes.ts';
import { createSupportService, type SupportService } from './support.service.ts';
import { createSupportStreams, type SupportStreams } from './support.streams.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Live support delivery of this process (tests run its sweep; the desk's inbox stream is fed by it). */
    supportLive: SupportLive;
    /** Tickets other modules open inside their own transaction (the privacy module's Deactivation ticket). */
    supportRecords: SupportRecords;
    /** Tickets and messages as both sides share them: the desk (modules/desk) reads and writes them through it. */
    support: SupportService;
    /** The one gate of live streams, so a session's streams are counted across the owner's and the desk's. */
    supportStreams: SupportStreams;
  }
}

/**
 * The support module, the customer's side of support: tickets and their messages, the callable
 * `createSupportTicket`, the owner's rating, a message sent with files (support.forms.ts), and the
 * live streams of both sides (support.live.ts, support.streams.ts), fed by the shared event bus.
 * The team's side (the inbox, notes, assignment, merging, saved replies) is modules/desk, which
 * reaches tickets through what this module decorates the app with
 * (docs/decisions/128-support-and-desk.md).
 */
export const supportModule = fp<SharedServices>(
  async function support(app: FastifyInstance, shared) {
    const { config, database } = shared;
    const repository = createSupportRepository(database.db, { notifyDelaySeconds: config.mail.notifyDelaySeconds });
    const support = createSupportService({
      repository,
      limiter: shared.limiter,
      ticketsPerUserPerHour: config.support.ticketsPerUserPerHour,
      clock: shared.clock,
    });
    const live = createSupportLive({
      bus: shared.bus,
      repository,
      log: shared.log,
      clock: shared.clock,
      presenceTtlMs: config.support.presenceTtlMs,
    });
    app.decorate('supportLive', live);
    app.decorate('supportRecords', createSupportRecords({ notifyDelaySeconds: config.mail.notifyDelaySeconds }));
    app.decorate('support', support);
    // Before the event bus stops (a shared service, closed after the modules).
    app.addHook('onClose', async () => live.close());

    // One gate for the streams of both sides: the per-session limit counts them together.
    const streams = createSupportStreams(app, {
      live,
      resolvePrincipal: app.resolvePrincipal,
      streamsPerSession: config.support.streamsPerSession,
      heartbeatMs: config.support.heartbeatMs,
    });
    app.decorate('supportStreams', streams);
    await app.register(supportRoutes, { support, live, streams });

    // Merging (docs/decisions/116-ticket-merge.md; the merge itself is the desk's). Everything
    // addressed to a merged ticket reaches the ticket it was merged into: every API route with a
    // ticket in its path (the owner's and the console's reads and writes, the streams, the files) is
    // given the end of the ticket's chain of merges before its handler runs, after the access checks.
    // The merge reads the address as given, so merging a merged ticket again is refused, not turned
    // into a merge of the target.
    app.addHook('preHandler', async (request) => {
      const params = request.params as { ticketId?: unknown } | undefined;
      const url = request.routeOptions.url;
      if (typeof params?.ticketId !== 'string' || !url?.startsWith('/api/') || url === deskApi.merge.path) return;
      params.ticketId = await repository.resolveMerged(params.ticketId);
    });
  },
  // The access plugin (registered before every module) lends the streams its session lookup.
  { name: 'support', dependencies: ['attachments'], decorators: { fastify: ['resolvePrincipal', 'attachments'] } },
);

/** What other modules may hold of this one: the records of a person's tickets (export, erasure, mail posting). */
export type { SupportRecords } from './support.records.ts';
/** What the desk is handed: live delivery and the streams' gate (decorated above). */
export type { SupportLive, SupportStreams };
/** A message with files, as the owner's and the desk's reply routes both receive it. */
export { MESSAGE_MULTIPART_LIMITS, withMessageForm } from './support.forms.ts';
/** A message row as the desk's own statements (notes, merges) read it. */
export { type MessageRow, type RawMessage, toMessage } from './support.rows.ts';
