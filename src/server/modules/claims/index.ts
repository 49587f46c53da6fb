import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SharedServices } from '../../shared-services.ts';
import { createClaimsRepository } from './claims.repository.ts';
import { claimsRoutes } from './claims.routes.ts';
import { createClaimsService } from './claims.service.ts';

/**
 * Incident claims (docs/decisions/152-incident-claims.md): the claim an Incident Report about a
 * delivery opens (made by modules/support with its ticket), read and decided by the team; a
 * decision reaches the app through the `claim.decided` webhook, once per version of the claim.
 */
export const claimsModule = fp<SharedServices>(
  async function claims(app: FastifyInstance, shared) {
    const service = createClaimsService({
      db: shared.database.db,
      repository: createClaimsRepository(shared.database.db),
      audit: shared.audit,
      clock: shared.clock,
      outbox: shared.outbox,
      site: { companyName: shared.mail.companyName, publicBaseUrl: shared.mail.publicBaseUrl },
    });
    await app.register(claimsRoutes, { claims: service });
  },
  { name: 'claims', dependencies: ['support'] },
);
