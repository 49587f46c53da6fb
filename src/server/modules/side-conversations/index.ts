import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SharedServices } from '../../shared-services.ts';
import { sideRoutes } from './side-conversations.routes.ts';
import { createSideService, type SideService } from './side-conversations.service.ts';

export type { SideOfToken } from './side-conversations.repository.ts';

/**
 * Side conversations (docs/decisions/138-side-conversations.md): the team's mail, from a ticket, with
 * someone other than its customer. The routes are the team's only; the inbound module posts the
 * replies that come back by mail through `app.sideConversations` (a token of ours that is not a
 * ticket's reply address may be a side conversation's).
 */
export interface SideConversations {
  /** The side conversation a reply address's token (its hash) belongs to, or null. */
  findByTokenHash: SideService['findByTokenHash'];
  /** Posts a reply that came by mail, marking the received mail posted in the same statement. */
  postFromMail: SideService['postFromMail'];
}

declare module 'fastify' {
  interface FastifyInstance {
    sideConversations: SideConversations;
  }
}

export const sideConversationsModule = fp<SharedServices>(
  async function sideConversations(app: FastifyInstance, shared) {
    const side = createSideService({
      db: shared.database.db,
      outbox: shared.outbox,
      mail: shared.mail,
      audit: shared.audit,
    });
    app.decorate('sideConversations', {
      findByTokenHash: side.findByTokenHash,
      postFromMail: side.postFromMail,
    } satisfies SideConversations);
    await app.register(sideRoutes, { side });
  },
  { name: 'side-conversations', dependencies: ['support'] },
);
