import { endEventStreams } from './realtime/sse.ts';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { GENERIC_MESSAGES } from '../contracts/errors.ts';
import type { DNSResolver } from 'mailauth';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/connection.ts';
import { accountsModule } from './modules/accounts/index.ts';
import { attachmentsModule } from './modules/attachments/index.ts';
import { auditModule } from './modules/audit/index.ts';
import { contentModule } from './modules/content/index.ts';
import { deskModule } from './modules/desk/index.ts';
import { inboundModule } from './modules/inbound/index.ts';
import { integrationsModule } from './modules/integrations/index.ts';
import { notificationsModule } from './modules/notifications/index.ts';
import { partnersModule } from './modules/partners/index.ts';
import { privacyModule } from './modules/privacy/index.ts';
import { reportsModule } from './modules/reports/index.ts';
import { secondFactorModule } from './modules/second-factor/index.ts';
import { serviceLevelsModule } from './modules/service-levels/index.ts';
import { sideConversationsModule } from './modules/side-conversations/index.ts';
import { claimsModule } from './modules/claims/index.ts';
import { claimsDueModule } from './modules/claims-due/index.ts';
import { supportModule } from './modules/support/index.ts';
import { accessPlugin } from './plugins/access.ts';
import { crossSitePlugin } from './plugins/cross-site.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { preparedAnswersPlugin, preparedServerFactory } from './plugins/prepared.ts';
import { requestIdFor } from './http/request-id.ts';
import { RequestLog } from './http/request-log.ts';
import { routeTablePlugin } from './plugins/route-table.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { createSessionResolver, sessionsPlugin } from './plugins/sessions.ts';
import type { Clock } from './clock.ts';
import { createSharedServices } from './shared-services.ts';
import { pageOptions } from './web/page-context.ts';
import { seoRoutes } from './web/seo.ts';
import { type WebHandlerOptions, webHandler } from './web/web-handler.ts';

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  /** How pages are served; omitted in API-only tests. */
  web?: Omit<WebHandlerOptions, 'contextFor'>;
  logger?: FastifyServerOptions['logger'];
  /** False: the mail worker runs only when a test calls `app.mailWorker.runOnce()`. */
  startMailWorker?: boolean;
  /** False: the inbound mail worker runs only when a test calls `app.inbound.worker.runOnce()`. */
  startInboundWorker?: boolean;
  /** DNS for the inbound DMARC check (tests serve a zone of their own); the system's otherwise. */
  dnsResolver?: DNSResolver;
  /** How long a request's body may take to arrive; tests shorten it (default REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
  /** The clock of time-driven work (server/clock.ts); tests pass one they move. */
  clock?: Clock;
  /**
   * False: the service-level worker runs only when a test calls `app.serviceLevelWorker.run()`, and
   * the claims' due worker (on the same clock) when it calls `app.claimsDueWorker.run()`.
   */
  startServiceLevelWorker?: boolean;
  /** False: the licence expiry worker runs only when a test calls `app.licenseExpiryWorker.run()`. */
  startLicenseExpiryWorker?: boolean;
  /** False: webhooks are delivered only when a test calls `app.webhooksWorker.run()`. */
  startWebhooksWorker?: boolean;
}

/**
 * A request (headers and body) must arrive within this, or the connection is answered 408 and
 * closed (UP-06: a body drip-fed a byte at a time must not hold a connection and a half-written
 * upload forever). Fastify's default is 0, no limit at all; this is Node's own default, enough for
 * a 10 MB licence over a slow mobile uplink. Responses (live streams) are not limited by it.
 */
export const REQUEST_TIMEOUT_MS = 300_000;

/** Builds the whole app (plugins, modules, web handler); never listens (house style: fastify/demo). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  // The prepared answers' first look at each request, set once their plugin is registered below.
  const front: { answers?: FastifyInstance['preparedAnswers'] } = {};
  const app = Fastify({
    logger: options.logger ?? false,
    // One request log line per request, when its response is sent (http/request-log.ts).
    logController: new RequestLog(),
    trustProxy: config.trustProxy,
    genReqId: requestIdFor(config.trustProxy),
    // Fastify's HTTP server with one step in front: a prepared public answer is sent before Fastify
    // builds a request for it (plugins/prepared.ts, docs/decisions/123-prepared-answers-before-fastify.md).
    serverFactory: preparedServerFactory(front),
    // JSON bodies are capped at 100 kB (IN-07: 413 beyond). Multipart uploads have their own limits;
    // the one route that needs more (a 200,000-character legal document) raises its own.
    bodyLimit: 100_000,
    routerOptions: { maxParamLength: 200 },
    return503OnClosing: true,
    // A malformed (%-encoding) or over-long path parameter is refused by the router itself: answer in
    // the docs/design.md §4 error shape too, not Fastify's own (found by the fuzz).
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
            ? [
                431,
                'Request Header Fields Too Large',
                'INVALID_ARGUMENT',
                'The address or the request headers are too large.',
              ]
            : [400, 'Bad Request', 'INVALID_ARGUMENT', 'The request could not be read.'];
      const body = JSON.stringify({ error: { status: errorCode, message } });
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\n\r\n${body}`,
        );
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

  // Cross-cutting plugins first: Fastify hands each context the hooks registered before it, so
  // every module's routes below get the headers, the cross-site guard and the access policy.
  // Live streams never finish on their own: a close ends them (clients reconnect and resume).
  app.addHook('preClose', (done) => {
    endEventStreams(app.server);
    done();
  });
  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin, {
    https: config.publicBaseUrl.startsWith('https://'),
    reportOnly: config.env === 'development',
  });
  // Right after the headers (its answers carry them): the public pages and JSON that are the same for
  // everyone are sent before Fastify sees the request (plugins/prepared.ts, the server above).
  await app.register(preparedAnswersPlugin, { cookieName: config.sessions.cookieName, trustProxy: config.trustProxy });
  front.answers = app.preparedAnswers;
  await app.register(crossSitePlugin, { allowedOrigins: [config.publicBaseUrl] });
  // Who is asking: the session cookie or bearer token, looked up in the database on every request
  // (by the accounts module, registered below; the lookup is only needed once requests arrive).
  const resolvePrincipal = createSessionResolver(
    (token) => app.signIn.resolveSession(token),
    config.sessions.cookieName,
  );
  await app.register(accessPlugin, { resolvePrincipal, resolveKey: (token) => app.apiKeys.resolve(token) });
  await app.register(routeTablePlugin);
  await app.register(sessionsPlugin, { ...config.sessions });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${config.companyName} API`,
        version: '1.0.0',
        description:
          'The public, support and admin API of the website. Errors use { error: { status, message, fields? } }.',
      },
    },
    transform: jsonSchemaTransform,
  });

  // Each module builds its repository, service and routes from the shared services.
  const shared = await createSharedServices(app, config, database, options.clock);
  await app.register(contentModule, shared);
  await app.register(partnersModule, {
    ...shared,
    startWorker: options.startLicenseExpiryWorker ?? options.startMailWorker ?? true,
  });
  // The second factor first: the accounts module's sign-in service takes it.
  await app.register(secondFactorModule, shared);
  await app.register(accountsModule, shared);
  await app.register(attachmentsModule, shared);
  await app.register(supportModule, shared);
  // The desk (the team's side of tickets) reaches tickets through what the support module decorates.
  await app.register(deskModule, shared);
  await app.register(sideConversationsModule, shared);
  await app.register(claimsModule, shared);
  await app.register(claimsDueModule, {
    ...shared,
    startWorker: options.startServiceLevelWorker ?? options.startMailWorker ?? true,
  });
  await app.register(auditModule, shared);
  await app.register(serviceLevelsModule, {
    ...shared,
    startWorker: options.startServiceLevelWorker ?? options.startMailWorker ?? true,
  });
  await app.register(privacyModule, shared);
  await app.register(reportsModule, { ...shared, startWorker: options.startMailWorker ?? true });
  await app.register(notificationsModule, { ...shared, startWorker: options.startMailWorker ?? true });
  await app.register(inboundModule, {
    ...shared,
    startWorker: options.startInboundWorker ?? options.startMailWorker ?? true,
    ...(options.dnsResolver ? { dnsResolver: options.dnsResolver } : {}),
  });
  await app.register(integrationsModule, {
    ...shared,
    startWorker: options.startWebhooksWorker ?? options.startMailWorker ?? true,
  });
  await app.register(metricsPlugin, { database, token: config.metrics.token });

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
    await seoRoutes(api, { publicBaseUrl: config.publicBaseUrl });
    api.all('/api/*', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) =>
      reply.status(404).send({ error: { status: 'NOT_FOUND', message: GENERIC_MESSAGES.notFound } }),
    );
  });

  const web = options.web;
  if (web) await app.register(async (scope) => webHandler(scope, { ...web, ...pageOptions(app, config) }));
  return app;
}
