import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SharedServices } from '../../shared-services.ts';
import { relyingPartyOf } from './passkeys.ts';
import { createSecondFactorRepository } from './second-factor.repository.ts';
import { secondFactorRoutes } from './second-factor.routes.ts';
import { createSecondFactorService, type SecondFactorService } from './second-factor.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** An admin's second factor: the accounts module's sign-in service asks it after a right password. */
    secondFactor: SecondFactorService;
  }
}

/**
 * The second-factor module (docs/product.md §2.15): admins' authenticator apps, passkeys and
 * recovery codes. It is registered before the accounts module, whose sign-in service takes it
 * (app.secondFactor) for an admin's sign-in step; the access plugin refuses the admin API to a
 * session that has not passed it (Principal.secondFactorPending).
 */
export const secondFactorModule = fp<SharedServices>(
  async function secondFactor(app: FastifyInstance, shared) {
    const { config, database } = shared;
    const service = createSecondFactorService({
      repository: createSecondFactorRepository(database.db),
      db: database.db,
      limiter: shared.limiter,
      audit: shared.audit,
      settings: {
        relyingParty: relyingPartyOf(config.publicBaseUrl, config.companyName),
        issuer: config.companyName,
        codeThrottle: config.loginThrottle,
      },
      logger: shared.log,
    });
    app.decorate('secondFactor', service);
    await app.register(secondFactorRoutes, { secondFactor: service });
  },
  { name: 'second-factor' },
);
