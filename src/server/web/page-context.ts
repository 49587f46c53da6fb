import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContextValue, SiteInfo } from '../../contracts/web-context.ts';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import { readSessionToken } from '../plugins/sessions.ts';
import { sessionDevice } from '../modules/accounts/accounts.device.ts';
import { inProcessApi } from './in-process-api.ts';
import type { WebHandlerOptions } from './web-handler.ts';

/**
 * How the pages are served beyond the build itself: which are kept whole and which take a form come
 * from the route modules (route-needs.ts); what each request's route loaders and actions are handed
 * (RequestContextValue) is built here from what the modules decorate the app with.
 */

export type PageOptions = Pick<WebHandlerOptions, 'pageCache' | 'contextFor'>;

/** The web handler's page settings for this app (`app`: the root instance, which services.api injects into). */
export function pageOptions(app: FastifyInstance, config: Config): PageOptions {
  const site: SiteInfo = {
    companyName: config.companyName,
    publicBaseUrl: config.publicBaseUrl,
    appStoreUrl: config.appStoreUrl,
    googlePlayUrl: config.googlePlayUrl,
    staffSignIn: config.oidc?.providerName ?? null,
    deliveryCard: config.deliveryContext !== null,
  };
  return {
    pageCache: {
      cookieName: config.sessions.cookieName,
      onInvalidate: (listener) => app.onContentChange(listener),
    },
    contextFor: async (request, reply) => pageContext(app, config, site, request, reply),
  };
}

/** What one request's route loaders and actions are handed: the site, who is asking, and services acting as them. */
export function pageContext(
  app: FastifyInstance,
  config: Config,
  site: SiteInfo,
  request: FastifyRequest,
  reply: FastifyReply,
): Omit<RequestContextValue, 'enhancements'> {
  const { content } = app;
  return {
    site,
    nonce: reply.cspNonce,
    user: request.principal
      ? {
          email: request.principal.email,
          role: request.principal.role,
          permissions: request.principal.permissions,
          emailVerified: request.principal.emailVerified,
          secondFactorPending: request.principal.secondFactorPending,
        }
      : null,
    services: {
      api: inProcessApi(app, request, reply),
      listFaqs: (type) => content.listFaqs(type),
      findLegalLinks: () =>
        content.findLegalLinks().catch((error: unknown) => {
          // A failed legal read is only logged (docs/product.md §8); the page renders without the frame.
          request.log.error({ err: error }, 'could not read legal/links');
          return null;
        }),
      findCompanyLinks: () =>
        content.findSetting('companies/links').then(
          (value) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null),
          (error: unknown) => {
            // A failed read is only logged (docs/product.md §7); the register page works without it.
            request.log.error({ err: error }, 'could not read companies/links');
            return null;
          },
        ),
      signIn: async (input) => {
        const step = {
          ip: request.ip,
          presentedToken: readSessionToken(request, config.sessions.cookieName),
          device: sessionDevice(request.headers['user-agent'], request.ip),
        };
        const result =
          'ticket' in input
            ? await app.signIn.continueWithTicket({ ...step, ...input })
            : await app.signIn.signIn({ ...step, ...input, ticketOnCodeStep: true });
        if (result.outcome === 'signed-in') return { ok: true, setCookie: result.session.setCookie };
        return {
          ok: false,
          status: result.status,
          message: result.message,
          fields: result.fields,
          unverified: result.outcome === 'unverified',
          ...(result.outcome === 'second-factor-needed' && result.ticket ? { ticket: result.ticket } : {}),
        };
      },
      setup: {
        isUsable: (token) => app.firstAdminSetup.isUsable(token),
        createFirstAdmin: async (input) => {
          try {
            const user = await app.firstAdminSetup.createFirstAdmin(input);
            request.log.info({ userId: user.id }, 'first admin created at /setup');
            // Signed in at once, the way the sign-in form does it; the console then asks for a second factor.
            const session = await app.signIn.signInNewAccount({
              userId: user.id,
              ip: request.ip,
              presentedToken: readSessionToken(request, config.sessions.cookieName),
              device: sessionDevice(request.headers['user-agent'], request.ip),
            });
            return { ok: true, email: user.email, setCookie: session?.setCookie ?? null };
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            return { ok: false, message: error.message, fields: error.fields ?? {} };
          }
        },
      },
      notifications: {
        describeUnsubscribe: (token) => app.notifications.describeUnsubscribe(token),
        unsubscribe: (token) => app.notifications.unsubscribe(token),
      },
    },
  };
}
