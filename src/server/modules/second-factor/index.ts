import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SharedServices } from '../../shared-services.ts';
import { relyingPartyOf } from './passkeys.ts';
import { createSecondFactorRepository } from './second-factor.repository.ts';
import { secondFactorRoutes } from './second-factor.routes.ts';
import { createSecondFactorService } from './second-factor.service.ts';

/**
 * The second-factor module (docs/product.md §2.15): admins' authenticator apps, passkeys and
 * recovery codes. It hands the accounts module the sign-in step (app.accounts.useSecondFactorGate),
 * so it is registered after it; the access plugin refuses the admin API to a session that has not
 * passed it (Principal.secondFactorPending).
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
    app.accounts.useSecondFactorGate(service);
    await app.register(secondFactorRoutes, { secondFactor: service, accounts: app.accounts });
  },
  { name: 'second-factor', dependencies: ['accounts'] },
);
