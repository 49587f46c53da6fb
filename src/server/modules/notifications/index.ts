import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailTransport } from '../../mail/mailer.ts';
import type { SharedServices } from '../../shared-services.ts';
import { createNotificationsRepository } from './notifications.repository.ts';
import { notificationsRoutes } from './notifications.routes.ts';
import { createNotificationsService, type NotificationsService } from './notifications.service.ts';
import { createOutboxWorker, type OutboxWorker } from './notifications.worker.ts';

/**
 * The notifications module: the outbox worker of this process, notification settings, one-click
 * unsubscribe and the admin Mail page's API. Built from shared services; the worker starts when the
 * app is ready and finishes its round when the app closes.
 */
export interface NotificationsModuleOptions extends SharedServices {
  /** Tests run rounds themselves (`app.mailWorker.runOnce()`). */
  startWorker?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    notifications: NotificationsService;
    mailWorker: OutboxWorker;
  }
}

/** Mail about a ticket that another module records in its own transaction (service-level warnings). */
export { createTicketMailer, type TicketMailTo, teamMailNote } from './notifications.ticket-mail.ts';

export const notificationsModule = fp<NotificationsModuleOptions>(
  async function notifications(app: FastifyInstance, options) {
    const { mail } = options.config;
    const transport = createMailTransport(mail);
    const repository = createNotificationsRepository(options.database.db);
    const service = createNotificationsService({ repository, audit: options.audit, retryHours: mail.retryHours });
    const worker = createOutboxWorker({
      db: options.database.db,
      transport,
      outbox: options.outbox,
      storage: options.storage,
      mail: options.mail,
      log: options.log,
      retryFirstSeconds: mail.retryFirstSeconds,
      // How long a claimed mail stays with one worker before another may take it over (a crash).
      leaseSeconds: mail.leaseSeconds,
    });
    app.decorate('notifications', service);
    app.decorate('mailWorker', worker);
    if (options.startWorker ?? true) app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', async () => {
      await worker.stop();
      await transport.close();
    });
    await app.register(notificationsRoutes, { notifications: service, wake: () => options.outbox.wake() });
  },
  { name: 'notifications' },
);
