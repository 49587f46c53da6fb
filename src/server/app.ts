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
import { accessPlugin } from './plugins/access.ts';
import { crossSitePlugin } from './plugins/cross-site.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { seoRoutes } from './web/seo.ts';
import { type WebHandlerOptions, webHandler } from './web/web-handler.ts';

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  /** How pages are served; omitted in API-only tests. */
  web?: Omit<WebHandlerOptions, 'contextFor'>;
  logger?: FastifyServerOptions['logger'];
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** Builds the whole app (plugins, modules, web handler); never listens (house style: fastify/demo). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: config.trustProxy,
    // A request id from a trusted proxy is kept so logs line up across hops; otherwise a fresh one.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return config.trustProxy && typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200 },
    return503OnClosing: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin, {
    https: config.publicBaseUrl.startsWith('https://'),
    reportOnly: config.env === 'development',
  });
  await app.register(crossSitePlugin, { allowedOrigins: [config.publicBaseUrl] });
  await app.register(accessPlugin, { resolvePrincipal: async () => null });
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

  // Services shared by the modules below (each module owns its routes, service and repository).
  // (create the shared rate limiter here with createRateLimiter from ./security/rate-limiter.ts)
  const content = createContentService(createContentRepository(database.db));

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
        contextFor: async (request, reply): Promise<RequestContextValue> => ({
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
          },
        }),
      });
    });
  }
  return app;
}
