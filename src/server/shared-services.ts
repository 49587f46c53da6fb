import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/connection.ts';
import { createOutbox, type Outbox } from './mail/outbox.ts';
import { createAuditRepository } from './modules/audit/audit.repository.ts';
import { type AuditService, createAuditService } from './modules/audit/audit.service.ts';
import { createEventBus, type EventBus } from './realtime/event-bus.ts';
import { createRateLimiter, type RateLimiter } from './security/rate-limiter.ts';
import { createStorage } from './storage/create-storage.ts';
import type { FileStorage } from './storage/storage.ts';

/** What mail and links name: the company, and the site's public address. */
export interface MailContext {
  companyName: string;
  publicBaseUrl: string;
  /** REPLY_DOMAIN: mail about a ticket can be answered by mail (modules/inbound). */
  replyDomain?: string | undefined;
  /** How long a reply address works (days). */
  replyAddressDays: number;
  /** SUPPORT_FROM: the address mail to a ticket's owner comes from (config.mail.supportAddress). */
  supportAddress: string;
}

/**
 * What every module is built from (the options of each `modules/<domain>/index.ts`): built once
 * per app, so modules share one outbox, one rate limiter, one storage and one LISTEN connection.
 * A module owns its repository, service and routes; it meets the others only through these and
 * through what they decorate the app with.
 */
export interface SharedServices {
  config: Config;
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  /** Every mail is recorded in the outbox with its cause and delivered by the notifications module's worker. */
  outbox: Outbox;
  /** Counters in the database, shared by every app instance. */
  limiter: RateLimiter;
  storage: FileStorage;
  /** Live updates: one LISTEN per process feeds every open stream (docs/design.md §4, §6). */
  bus: EventBus;
  /** Every admin mutation is written to the audit log, by the service that makes it. */
  audit: AuditService;
  mail: MailContext;
  /** What time it is for time-driven work (service levels, auto-close, reports); tests move it. */
  clock: Clock;
}

/**
 * Builds the shared services and closes them with the app. Fastify runs onClose hooks last
 * registered first, so the modules registered after this have closed (their live streams, their
 * workers) by the time the storage and the event bus go.
 */
export async function createSharedServices(
  app: FastifyInstance,
  config: Config,
  database: DatabaseHandle,
  clock: Clock = systemClock,
): Promise<SharedServices> {
  const storage = await createStorage(config.storage);
  app.addHook('onClose', () => storage.close());
  const bus = createEventBus(database, app.log);
  await bus.start();
  app.addHook('onClose', () => bus.stop());
  return {
    config,
    database,
    log: app.log,
    outbox: createOutbox({ domain: new URL(config.publicBaseUrl).hostname, retryHours: config.mail.retryHours }),
    limiter: createRateLimiter(database.db, { enabled: config.rateLimits }),
    storage,
    bus,
    audit: createAuditService(createAuditRepository(database.db)),
    mail: {
      companyName: config.companyName,
      publicBaseUrl: config.publicBaseUrl,
      replyDomain: config.inbound.replyDomain,
      replyAddressDays: config.inbound.replyAddressDays,
      supportAddress: config.mail.supportAddress,
    },
    clock,
  };
}
