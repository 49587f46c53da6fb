import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_MESSAGES } from '../../contracts/auth.ts';
import type { RequestContextValue, SiteInfo } from '../../contracts/web-context.ts';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import { readSessionToken } from '../plugins/sessions.ts';
import { hashToken } from '../security/tokens.ts';
import { sessionDevice } from '../modules/accounts/accounts.device.ts';
import { SignInTicketIssued } from '../modules/accounts/accounts.service.ts';
import { ATTACHMENT_LIMITS } from '../../contracts/attachments.ts';
import { forwardMultipart } from './forward-multipart.ts';
import { inProcessApi } from './in-process-api.ts';
import type { WebHandlerOptions } from './web-handler.ts';

/**
 * How the pages are served beyond the build itself: which are kept whole, which take a form, and
 * what each request's route loaders and actions are handed (RequestContextValue), built from what
 * the modules decorate the app with.
 */

/** Anonymous pages kept in memory until content changes (page-cache.ts). */
const CACHED_PAGES: ReadonlySet<string> = new Set(['/', '/about', '/faqs', '/legal', '/register']);

/** Pages with a form of their own (docs/decisions/091-page-forms.md). */
const MESSAGE_FORM_MAX_BYTES = ATTACHMENT_LIMITS.filesPerMessage * ATTACHMENT_LIMITS.maxBytes + 1024 * 1024;

const ACTION_PATHS: NonNullable<WebHandlerOptions['actionPaths']> = [
  /^\/(support|admin)$/,

  /^\/(signup|forgot-password|reset-password|verify-email|confirm-email|setup)$/,
  /^\/account$/,
  /^\/account\/(password|notifications|delete)$/,
  /^\/unsubscribe\/[^/]+$/,
  /^\/sign-out$/,
  // A licence of up to 10 MB and the fields around it (the endpoint enforces the exact limits).
  { path: /^\/register$/, maxBytes: 11 * 1024 * 1024 },
  // Messages with up to five files of 10 MB and their text (the endpoints enforce the exact limits).
  { path: /^\/support\/create-ticket$/, maxBytes: MESSAGE_FORM_MAX_BYTES },
  { path: /^\/support\/ticket\/[^/]+$/, maxBytes: MESSAGE_FORM_MAX_BYTES },
  { path: /^\/admin\/support\/[^/]+$/, maxBytes: MESSAGE_FORM_MAX_BYTES },
  /^\/admin\/(saved-replies|security)$/,
  // Post or discard a held mail (reply by email).
  /^\/admin\/mail\/incoming$/,
];

export type PageOptions = Pick<WebHandlerOptions, 'pageCache' | 'actionPaths' | 'contextFor'>;

/** The web handler's page settings for this app (`app`: the root instance, which callApi injects into). */
export function pageOptions(app: FastifyInstance, config: Config): PageOptions {
  const site: SiteInfo = {
    companyName: config.companyName,
    publicBaseUrl: config.publicBaseUrl,
    appStoreUrl: config.appStoreUrl,
    googlePlayUrl: config.googlePlayUrl,
  };
  return {
    pageCache: {
      paths: CACHED_PAGES,
      cookieName: config.sessions.cookieName,
      onInvalidate: (listener) => app.onContentChange(listener),
    },
    actionPaths: ACTION_PATHS,
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
      callApi: async (method, url, body) => {
        if (!url.startsWith('/api/')) throw new Error(`callApi is for our own API, not ${url}`);
        const answer = await app.inject({
          method,
          url,
          ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
          remoteAddress: request.ip,
          headers: {
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            accept: 'application/json',
            ...(request.headers.cookie ? { cookie: request.headers.cookie } : {}),
            ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
          },
        });
        const setCookie = answer.headers['set-cookie'];
        return {
          status: answer.statusCode,
          body: answer.body ? (JSON.parse(answer.body) as unknown) : null,
          setCookie: setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie],
        };
      },
      forwardMultipart: (url, form) => {
        if (!url.startsWith('/api/')) throw new Error(`forwardMultipart is for our own API, not ${url}`);
        return forwardMultipart(app, request, url, form);
      },
      signIn: async (input) => {
        const presented = readSessionToken(request, config.sessions.cookieName);
        try {
          const step = {
            ip: request.ip,
            previousTokenHash: presented ? hashToken(presented) : undefined,
            device: sessionDevice(request.headers['user-agent'], request.ip),
            ticketOnCodeStep: true,
          };
          const signedIn =
            'ticket' in input
              ? await app.accounts.loginWithTicket({ ...step, ...input })
              : await app.accounts.login({ ...step, ...input });
          return { ok: true, setCookie: app.sessionCookieHeader(signedIn.token) };
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          return {
            ok: false,
            status: error.httpStatus,
            message: error.message,
            fields: error.fields ?? {},
            unverified: error.code === 'PERMISSION_DENIED' && error.message === AUTH_MESSAGES.unverified,
            ...(error instanceof SignInTicketIssued ? { ticket: error.ticket } : {}),
          };
        }
      },
      setup: {
        isUsable: (token) => app.firstAdminSetup.isUsable(token),
        createFirstAdmin: async (input) => {
          try {
            const user = await app.firstAdminSetup.createFirstAdmin(input);
            request.log.info({ userId: user.id }, 'first admin created at /setup');
            return { ok: true, email: user.email };
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            return { ok: false, message: error.message, fields: error.fields ?? {} };
          }
        },
      },
      notifications: {
        preferences: async () => (request.principal ? app.notifications.preferences(request.principal) : null),
        setPreferences: async (changes) =>
          request.principal ? app.notifications.setPreferences(request.principal, changes) : null,
        describeUnsubscribe: (token) => app.notifications.describeUnsubscribe(token),
        unsubscribe: (token) => app.notifications.unsubscribe(token),
      },
    },
  };
}
