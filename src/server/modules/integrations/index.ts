import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SharedServices } from '../../shared-services.ts';
import type { DomainEvent } from '../../realtime/event-bus.ts';
import { createAppService } from './app.service.ts';
import { apiKeyRoutes, appRoutes, webhookRoutes } from './integrations.routes.ts';
import { createKeysService, type KeysService } from './keys.service.ts';
import { createWebhooksService } from './webhooks.service.ts';
import { createWebhooksWorker, type WebhooksWorker } from './webhooks.worker.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Service API keys: the access plugin resolves a `bsk_` bearer token through it. */
    apiKeys: KeysService;
    /** Delivers webhook events (tests call `run()`; it runs on its own unless the app was built without workers). */
    webhooksWorker: WebhooksWorker;
  }
}

export interface IntegrationsModuleOptions extends SharedServices {
  /** False: the webhook worker runs only when a test calls `app.webhooksWorker.run()`. */
  startWorker: boolean;
}

/**
 * How the company's own systems connect (docs/integrations.md): service API keys
 * (docs/decisions/149-service-api-keys.md), webhooks with signed deliveries that are retried
 * (docs/decisions/150-webhooks.md), and the app's ticket endpoints (/api/app), which open and follow
 * tickets through the support module's service.
 */
/** The bus's events that follow a change a webhook can tell (migration 0032's triggers). */
const WAKING_EVENTS: ReadonlySet<DomainEvent['type']> = new Set([
  'ticket.created',
  'ticket.updated',
  'message.created',
  'ticket.reshaped',
]);

export const integrationsModule = fp<IntegrationsModuleOptions>(
  async function integrations(app: FastifyInstance, shared) {
    const { config, database } = shared;
    const keys = createKeysService({
      db: database.db,
      audit: shared.audit,
      clock: shared.clock,
      limiter: shared.limiter,
      requestsPerMinute: config.integrations.keyRequestsPerMinute,
    });
    app.decorate('apiKeys', keys);

    const worker = createWebhooksWorker({
      db: database.db,
      outbox: shared.outbox,
      audit: shared.audit,
      clock: shared.clock,
      log: shared.log,
      site: shared.mail,
      pollMs: config.integrations.webhookPollMs,
      timeoutMs: config.integrations.webhookTimeoutMs,
    });
    app.decorate('webhooksWorker', worker);
    if (shared.startWorker) {
      worker.start();
      // A ticket's change is told on the bus after it commits: its webhooks go at once, not at the next
      // poll. Only the changes that can write a webhook event wake it (a presence beat or a side
      // conversation cannot); partner and claim decisions go at the next poll.
      const unsubscribe = shared.bus.subscribe((event) => {
        if (WAKING_EVENTS.has(event.type)) worker.wake();
      });
      app.addHook('onClose', async () => {
        unsubscribe();
        await worker.stop();
      });
    } else {
      app.addHook('onClose', () => worker.stop());
    }

    const webhooks = createWebhooksService({
      db: database.db,
      audit: shared.audit,
      clock: shared.clock,
      allowHttp: config.integrations.webhookAllowHttp,
      wake: () => worker.wake(),
    });
    await app.register(apiKeyRoutes, { keys });
    await app.register(webhookRoutes, { webhooks });
    await app.register(appRoutes, {
      service: createAppService({
        db: database.db,
        support: app.support,
        partners: app.partners,
        audit: shared.audit,
        site: shared.mail,
      }),
    });
  },
  { name: 'integrations', dependencies: ['support'], decorators: { fastify: ['support', 'partners'] } },
);
