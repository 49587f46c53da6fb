import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SharedServices } from '../../shared-services.ts';
import { createAccountAdmin, createAccountsAdminService } from './accounts.admin.service.ts';
import { createAccountsAdminRepository } from './accounts.admin.repository.ts';
import { accountsAdminRoutes } from './accounts.admin.routes.ts';
import { accountProfileRoutes } from './accounts.profile.routes.ts';
import { createAccountProfileService } from './accounts.profile.service.ts';
import { createAccountsRepository } from './accounts.repository.ts';
import { accountsRoutes } from './accounts.routes.ts';
import { createAccountsService, type AccountsService } from './accounts.service.ts';
import { createAccountSessionsRepository } from './accounts.sessions.repository.ts';
import { createFirstAdminSetup, type FirstAdminSetup } from './accounts.setup.ts';

declare module 'fastify' {
  interface FastifyInstance {
    accounts: AccountsService;
    /** The first admin, created at /setup from a link the server prints (accounts.setup.ts). */
    firstAdminSetup: FirstAdminSetup;
  }
}

/**
 * The accounts module, owner of the `users` and `sessions` tables: sign-up, sign-in, sessions,
 * verification and reset mail (/api/auth/*), and the admin console's Users screen
 * (/api/admin/users/*). The access plugin and the live streams resolve sessions through
 * `app.accounts`; page form actions sign in through it.
 */
export const accountsModule = fp<SharedServices>(
  async function accounts(app: FastifyInstance, shared) {
    const { config, database } = shared;
    const repository = createAccountsRepository(database.db);
    const accounts = createAccountsService({
      repository,
      db: database.db,
      outbox: shared.outbox,
      limiter: shared.limiter,
      settings: config,
      logger: shared.log,
    });
    app.decorate('accounts', accounts);
    app.decorate('firstAdminSetup', createFirstAdminSetup(database.db));
    // Mail still being recorded in the background is finished before the database closes.
    app.addHook('onClose', async () => {
      await accounts.drain();
    });

    const admin = createAccountsAdminService({
      repository: createAccountsAdminRepository(database.db),
      accountAdmin: createAccountAdmin(repository),
      accounts,
      audit: shared.audit,
    });
    await app.register(accountsRoutes, { accounts, cookieName: config.sessions.cookieName });
    await app.register(accountsAdminRoutes, { users: admin });
    // The account page (/account): profile, own sessions, email change.
    const profile = createAccountProfileService({
      db: database.db,
      repository: createAccountSessionsRepository(database.db),
      accounts: repository,
      outbox: shared.outbox,
      limiter: shared.limiter,
      settings: config,
      logger: shared.log,
    });
    await app.register(accountProfileRoutes, { profile });
  },
  { name: 'accounts' },
);
