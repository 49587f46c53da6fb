import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DatabaseHandle } from '../../db/connection.ts';
import type { MailTransport } from '../../mail/mailer.ts';
import type { Outbox } from '../../mail/outbox.ts';
import type { AuditService } from '../admin/audit.service.ts';
import { createNotificationsRepository } from './notifications.repository.ts';
import { notificationsRoutes } from './notifications.routes.ts';
import { createNotificationsService, type NotificationsService } from './notifications.service.ts';
import { createOutboxWorker, type OutboxWorker } from './notifications.worker.ts';

/**
 * The notifications module: the outbox worker of this process, notification settings, one-click
 * unsubscribe and the admin Mail page's API. Built from shared services; the worker starts when the
 * app is ready and finishes its round when the app closes.
 */
export interface NotificationsModuleOptions {
  database: DatabaseHandle;
  outbox: Outbox;
  transport: MailTransport;
  audit: AuditService;
  companyName: string;
  publicBaseUrl: string;
  retryHours: number;
  retryFirstSeconds: number;
  /** How long a claimed mail stays with one worker before another may take it over (a crash). */
  leaseSeconds: number;
  /** Tests run rounds themselves (`app.mailWorker.runOnce()`). */
  startWorker?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    notifications: NotificationsService;
    mailWorker: OutboxWorker;
  }
}

export const notificationsModule = fp<NotificationsModuleOptions>(
  async function notifications(app: FastifyInstance, options) {
    const repository = createNotificationsRepository(options.database.db);
    const service = createNotificationsService({ repository, audit: options.audit, retryHours: options.retryHours });
    const worker = createOutboxWorker({
      db: options.database.db,
      transport: options.transport,
      outbox: options.outbox,
      mail: { companyName: options.companyName, publicBaseUrl: options.publicBaseUrl },
      log: app.log,
      retryFirstSeconds: options.retryFirstSeconds,
      leaseSeconds: options.leaseSeconds,
    });
    app.decorate('notifications', service);
    app.decorate('mailWorker', worker);
    if (options.startWorker ?? true) app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', async () => {
      await worker.stop();
      await options.transport.close();
    });
    await app.register(notificationsRoutes, { notifications: service, wake: () => options.outbox.wake() });
  },
  { name: 'notifications' },
);
