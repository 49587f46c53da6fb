import { randomUUID } from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { GENERIC_MESSAGES } from '../contracts/errors.ts';
import type { RequestContextValue } from '../web/lib/request-context.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/connection.ts';
import { contentRoutes } from './modules/content/content.routes.ts';
import { createContentRepository } from './modules/content/content.repository.ts';
import { createContentService } from './modules/content/content.service.ts';
import { contentCachePlugin, createContentCache } from './modules/content/content.cache.ts';
import { accessPlugin } from './plugins/access.ts';
import { crossSitePlugin } from './plugins/cross-site.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { createSessionResolver, readSessionToken, sessionsPlugin } from './plugins/sessions.ts';
import { AppError } from './errors.ts';
import { AUTH_MESSAGES } from '../contracts/auth.ts';
import { hashToken } from './security/tokens.ts';
import { createMailTransport } from './mail/mailer.ts';
import { createOutbox } from './mail/outbox.ts';
import { notificationsModule } from './modules/notifications/index.ts';
import { createAccountsRepository } from './modules/accounts/accounts.repository.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { createAccountsService } from './modules/accounts/accounts.service.ts';
import { createRateLimiter } from './security/rate-limiter.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { createPartnersRepository } from './modules/partners/partners.repository.ts';
import { partnersRoutes } from './modules/partners/partners.routes.ts';
import { createPartnersService } from './modules/partners/partners.service.ts';
import { createStorage } from './storage/create-storage.ts';
import { createSupportLive } from './modules/support/support.live.ts';
import { createSupportRepository } from './modules/support/support.repository.ts';
import { supportRoutes } from './modules/support/support.routes.ts';
import { createSupportService } from './modules/support/support.service.ts';
import { createEventBus } from './realtime/event-bus.ts';
import { createAccountAdmin } from './modules/accounts/accounts.admin.ts';
import { createAuditRepository } from './modules/admin/audit.repository.ts';
import { auditRoutes } from './modules/admin/audit.routes.ts';
import { createAuditService } from './modules/admin/audit.service.ts';
import { routeTablePlugin } from './modules/admin/route-table.ts';
import { createUsersRepository } from './modules/admin/users.repository.ts';
import { usersAdminRoutes } from './modules/admin/users.routes.ts';
import { createUsersAdminService } from './modules/admin/users.service.ts';
import { createContentAdminRepository } from './modules/content/content.admin.repository.ts';
import { contentAdminRoutes } from './modules/content/content.admin.routes.ts';
import { createContentAdminService } from './modules/content/content.admin.service.ts';
import { createReviewRepository } from './modules/partners/partners.review.repository.ts';
import { reviewRoutes } from './modules/partners/partners.review.routes.ts';
import { createReviewService } from './modules/partners/partners.review.service.ts';
import { seoRoutes } from './web/seo.ts';
import { forwardMultipart } from './web/forward-multipart.ts';
import { type WebHandlerOptions, webHandler } from './web/web-handler.ts';

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  /** How pages are served; omitted in API-only tests. */
  web?: Omit<WebHandlerOptions, 'contextFor'>;
  logger?: FastifyServerOptions['logger'];
  /** False: the mail worker runs only when a test calls `app.mailWorker.runOnce()`. */
  startMailWorker?: boolean;
  /** How long a request's body may take to arrive; tests shorten it (default REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
}

/**
 * A request (headers and body) must arrive within this, or the connection is answered 408 and
 * closed (UP-06: a body drip-fed a byte at a time must not hold a connection and a half-written
 * upload forever). Fastify's default is 0, no limit at all; this is Node's own default, enough for
 * a 10 MB licence over a slow mobile uplink. Responses (live streams) are not limited by it.
 */
export const REQUEST_TIMEOUT_MS = 300_000;

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

declare module 'fastify' {
  interface FastifyInstance {
    /** Live support delivery of this process (tests run its sweep). */
    supportLive: import('./modules/support/support.live.ts').SupportLive;
  }
}

/** Builds the whole app (plugins, modules, web handler); never listens (house style: fastify/demo). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: config.trustProxy,
    // A request id from a trusted proxy is kept so logs line up across hops; otherwise a fresh one.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return config.trustProxy && typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // JSON bodies are capped at 100 kB (IN-07: 413 beyond). Multipart uploads have their own limits;
    // the one route that needs more (a 200,000-character legal document) raises its own.
    bodyLimit: 100_000,
    routerOptions: { maxParamLength: 200 },
    return503OnClosing: true,
    // A malformed (%-encoding) or over-long path parameter is refused by the router itself: answer in
    // the DESIGN §4 error shape too, not Fastify's own (found by the fuzz).
    frameworkErrors: (error, _request, reply) => {
      void reply
        .code((error.statusCode === 414 ? 414 : 400) as never)
        .send({ error: { status: 'INVALID_ARGUMENT', message: 'This address is malformed or too long.' } } as never);
    },
    // What Node's HTTP parser refuses before Fastify sees it (too slow, headers or address too large,
    // unreadable) is answered in the same shape, with Fastify's statuses (found by the fuzz).
    clientErrorHandler: (error, socket) => {
      const code = (error as { code?: string }).code;
      if (code === 'ECONNRESET' || socket.destroyed) return;
      const [status, reason, errorCode, message] =
        code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'DEADLINE_EXCEEDED', 'The request took too long to arrive.']
          : code === 'HPE_HEADER_OVERFLOW'
            ? [431, 'Request Header Fields Too Large', 'INVALID_ARGUMENT', 'The address or the request headers are too large.']
            : [400, 'Bad Request', 'INVALID_ARGUMENT', 'The request could not be read.'];
      const body = JSON.stringify({ error: { status: errorCode, message } });
      if (socket.writable) {
        socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\n\r\n${body}`);
      }
      socket.destroy(error);
    },
    requestTimeout,
    http: {
      // Node enforces requestTimeout only while headersTimeout (60 s by default) is not longer.
      headersTimeout: Math.min(60_000, requestTimeout),
      // …and looks for timed-out requests on this interval (30 s by default).
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(requestTimeout / 4))),
    },
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).send({ error: { status: 'NOT_FOUND', message: GENERIC_MESSAGES.notFound } }),
  );
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin, {
    https: config.publicBaseUrl.startsWith('https://'),
    reportOnly: config.env === 'development',
  });
  await app.register(crossSitePlugin, { allowedOrigins: [config.publicBaseUrl] });

  // Services shared by the modules below (each module owns its routes, service and repository).
  const rateLimiter = createRateLimiter(database.db, { enabled: config.rateLimits });
  // Every mail is recorded in the outbox with its cause and delivered by the notifications module's worker.
  const outbox = createOutbox({ domain: new URL(config.publicBaseUrl).hostname, retryHours: config.mail.retryHours });
  const accounts = createAccountsService({
    repository: createAccountsRepository(database.db),
    db: database.db,
    outbox,
    limiter: rateLimiter,
    settings: config,
    logger: app.log,
  });
  app.addHook('onClose', async () => {
    await accounts.drain();
  });

  // Who is asking: the session cookie or bearer token, looked up in the database on every request.
  const resolvePrincipal = createSessionResolver((token) => accounts.resolveSession(token), config.sessions.cookieName);
  await app.register(accessPlugin, { resolvePrincipal });
  await app.register(routeTablePlugin);
  await app.register(sessionsPlugin, { ...config.sessions });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${config.companyName} API`,
        version: '1.0.0',
        description: 'The public, support and admin API of the website. Errors use { error: { status, message, fields? } }.',
      },
    },
    transform: jsonSchemaTransform,
  });

  // Public content is kept in memory until an admin edits it (docs/performance.md).
  const contentCache = createContentCache(database, app.log);
  await contentCache.start();
  app.addHook('onClose', () => contentCache.stop());
  await app.register(contentCachePlugin, { cache: contentCache });
  const content = createContentService(createContentRepository(database.db), contentCache);
  const storage = createStorage(config.storage);
  app.addHook('onClose', () => storage.close());
  const mailContext = { companyName: config.companyName, publicBaseUrl: config.publicBaseUrl };
  const partners = createPartnersService({
    repository: createPartnersRepository(database.db),
    outbox,
    mail: mailContext,
    storage,
    limiter: rateLimiter,
    registrationsPerIpPerHour: config.registrationsPerIpPerHour,
    log: app.log,
  });

  // Live updates: one LISTEN per process feeds every open stream (DESIGN §4, §6).
  const bus = createEventBus(database, app.log);
  await bus.start();
  const supportRepository = createSupportRepository(database.db, { notifyDelaySeconds: config.mail.notifyDelaySeconds });
  const support = createSupportService({
    repository: supportRepository,
    limiter: rateLimiter,
    ticketsPerUserPerHour: config.support.ticketsPerUserPerHour,
  });
  const live = createSupportLive({ bus, repository: supportRepository, log: app.log });
  app.decorate('supportLive', live);

  // The admin console (issue 6): every admin mutation is written to the audit log.
  const audit = createAuditService(createAuditRepository(database.db));
  const review = createReviewService({
    repository: createReviewRepository(database.db),
    db: database.db,
    outbox,
    mail: mailContext,
    audit,
  });
  const contentAdmin = createContentAdminService({ repository: createContentAdminRepository(database.db), audit });
  const usersAdmin = createUsersAdminService({
    repository: createUsersRepository(database.db),
    accountAdmin: createAccountAdmin(createAccountsRepository(database.db)),
    accounts,
    audit,
  });
  app.addHook('onClose', async () => {
    live.close();
    await bus.stop();
  });
  await app.register(notificationsModule, {
    database,
    outbox,
    transport: createMailTransport(config.mail),
    audit,
    ...mailContext,
    retryHours: config.mail.retryHours,
    retryFirstSeconds: config.mail.retryFirstSeconds,
    leaseSeconds: config.mail.leaseSeconds,
    startWorker: options.startMailWorker ?? true,
  });

  await app.register(async (api) => {
    api.get('/healthz', { config: { access: 'public' }, schema: { hide: true } }, async () => ({ status: 'ok' }));
    api.get('/readyz', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
      try {
        await database.ping();
        return { status: 'ready' };
      } catch {
        return reply.status(503).send({ status: 'unavailable' });
      }
    });
    api.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());
    await contentRoutes(api, { content, companyName: config.companyName });
    await api.register(partnersRoutes, { partners });
    await api.register(accountsRoutes, { accounts, cookieName: config.sessions.cookieName });
    await api.register(supportRoutes, {
      support,
      live,
      resolvePrincipal,
      streamsPerSession: config.support.streamsPerSession,
      heartbeatMs: config.support.heartbeatMs,
      audit,
    });
    await api.register(reviewRoutes, { review });
    await api.register(contentAdminRoutes, { content: contentAdmin });
    await api.register(usersAdminRoutes, { users: usersAdmin });
    await api.register(auditRoutes, { audit });
    await seoRoutes(api, { publicBaseUrl: config.publicBaseUrl });
    api.all('/api/*', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) =>
      reply.status(404).send({ error: { status: 'NOT_FOUND', message: GENERIC_MESSAGES.notFound } }),
    );
  });

  if (options.web) {
    const site = {
      companyName: config.companyName,
      publicBaseUrl: config.publicBaseUrl,
      appStoreUrl: config.appStoreUrl,
      googlePlayUrl: config.googlePlayUrl,
    };
    await app.register(async (web) => {
      await webHandler(web, {
        ...options.web!,
        pageCache: {
          paths: new Set(['/', '/about', '/faqs', '/legal', '/register']),
          cookieName: config.sessions.cookieName,
          onInvalidate: (listener) => contentCache.onInvalidate(listener),
        },
        // Pages with a form of their own (docs/decisions/091-page-forms.md).
        actionPaths: [
          /^\/(support|admin)$/,
          /^\/support\/create-ticket$/,
          /^\/(signup|forgot-password|reset-password|verify-email)$/,
          /^\/account\/(password|notifications)$/,
          /^\/unsubscribe\/[^/]+$/,
          /^\/sign-out$/,
          // A licence of up to 10 MB and the fields around it (the endpoint enforces the exact limits).
          { path: /^\/register$/, maxBytes: 11 * 1024 * 1024 },
          /^\/support\/ticket\/[^/]+$/,
          /^\/admin\/support\/[^/]+$/,
        ],
        contextFor: async (request, reply): Promise<Omit<RequestContextValue, 'enhancements'>> => ({
          site,
          nonce: reply.cspNonce,
          user: request.principal
            ? { email: request.principal.email, role: request.principal.role, emailVerified: request.principal.emailVerified }
            : null,
          services: {
            listFaqs: (type) => content.listFaqs(type),
            findLegalLinks: () =>
              content.findLegalLinks().catch((error: unknown) => {
                // A failed legal read is only logged (spec §8); the page renders without the frame.
                request.log.error({ err: error }, 'could not read legal/links');
                return null;
              }),
            findCompanyLinks: () =>
              content.findSetting('companies/links').then(
                (value) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null),
                (error: unknown) => {
                  // A failed read is only logged (spec §7); the register page works without it.
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
                const signedIn = await accounts.login({ ...input, ip: request.ip, previousTokenHash: presented ? hashToken(presented) : undefined });
                return { ok: true, setCookie: app.sessionCookieHeader(signedIn.token) };
              } catch (error) {
                if (!(error instanceof AppError)) throw error;
                return {
                  ok: false,
                  status: error.httpStatus,
                  message: error.message,
                  fields: error.fields ?? {},
                  unverified: error.code === 'PERMISSION_DENIED' && error.message === AUTH_MESSAGES.unverified,
                };
              }
            },
            notifications: {
              preferences: async () => (request.principal ? app.notifications.preferences(request.principal) : null),
              setPreferences: async (changes) => (request.principal ? app.notifications.setPreferences(request.principal, changes) : null),
              describeUnsubscribe: (token) => app.notifications.describeUnsubscribe(token),
              unsubscribe: (token) => app.notifications.unsubscribe(token),
            },
          },
        }),
      });
    });
  }
  return app;
}
