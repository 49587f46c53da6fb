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
import { createSignInService, type SignInService } from './sign-in.service.ts';
import { createBackgroundRounds } from '../../background-rounds.ts';
import { createOidcRepository } from './oidc.repository.ts';
import { createInvitationsService } from './invitations.service.ts';
import { oidcRoutes } from './oidc.routes.ts';
import { createOidcService, type OidcService } from './oidc.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    accounts: AccountsService;
    /** Signing in and sessions: the API's login, the pages' sign-in form, and every request's session lookup. */
    signIn: SignInService;
    /** The first admin, created at /setup from a link the server prints (accounts.setup.ts). */
    firstAdminSetup: FirstAdminSetup;
    /** Staff sign-in with the company's identity provider (decision 148); null when none is set up. */
    staffSignIn: OidcService | null;
  }
}

/**
 * The accounts module, owner of the `users` and `sessions` tables: sign-up, sign-in, sessions,
 * verification and reset mail (/api/auth/*), and the admin console's Users screen
 * (/api/admin/users/*). It is registered after the second-factor module, which its sign-in service
 * takes; the access plugin resolves sessions through `app.signIn`, and the pages' sign-in form
 * signs in through it.
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
    // Set below once the sign-in service exists (it takes this one's tickets as they are redeemed).
    let staffSignIn: OidcService | null = null;
    const signIn = createSignInService({
      repository,
      secondFactor: app.secondFactor,
      limiter: shared.limiter,
      settings: config,
      sessionCookie: (token) => app.sessionCookieHeader(token),
      logger: shared.log,
      onTicketRedeemed: (ticket, next) => staffSignIn?.ticketRedeemed(ticket, next) ?? Promise.resolve(),
    });
    app.decorate('signIn', signIn);
    app.decorate('firstAdminSetup', createFirstAdminSetup(database.db));
    // Mail still being recorded in the background is finished before the database closes.
    app.addHook('onClose', async () => {
      await accounts.drain();
    });

    const admin = createAccountsAdminService({
      repository: createAccountsAdminRepository(database.db),
      accountsRepository: repository,
      accountAdmin: createAccountAdmin(repository),
      accounts,
      audit: shared.audit,
    });
    await app.register(accountsRoutes, { accounts, signIn, cookieName: config.sessions.cookieName });
    const invitations = createInvitationsService({
      db: database.db,
      accounts: repository,
      outbox: shared.outbox,
      audit: shared.audit,
      clock: shared.clock,
      site: { companyName: config.companyName, publicBaseUrl: config.publicBaseUrl },
      providerName: config.oidc?.providerName ?? null,
    });
    await app.register(accountsAdminRoutes, { users: admin, invitations });
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

    // Staff sign-in with the company's identity provider (docs/decisions/148-staff-sign-in-oidc.md).
    if (config.oidc) {
      const oidc = createOidcService({
        settings: config.oidc,
        publicBaseUrl: config.publicBaseUrl,
        repository: createOidcRepository(database.db),
        accounts: repository,
        signIn,
        clock: shared.clock,
        logger: shared.log,
      });
      staffSignIn = oidc;
      await app.register(oidcRoutes, {
        oidc,
        cookieName: config.sessions.cookieName,
        secure: config.sessions.cookieSecure,
        publicBaseUrl: config.publicBaseUrl,
      });
      // Sessions from the provider are asked about again every OIDC_RECHECK_SECONDS: a round a fifth of that.
      const rechecks = createBackgroundRounds(Math.max(1000, config.oidc.recheckMs / 5), async () => {
        await oidc.recheck().catch((error: unknown) => shared.log.error({ err: error }, 'oidc re-check round failed'));
      });
      app.addHook('onReady', async () => rechecks.start());
      app.addHook('onClose', async () => rechecks.stop());
    }
    app.decorate('staffSignIn', staffSignIn);
  },
  { name: 'accounts', dependencies: ['second-factor'], decorators: { fastify: ['sessionCookieHeader'] } },
);
