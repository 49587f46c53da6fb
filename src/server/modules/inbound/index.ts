import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DNSResolver } from 'mailauth';
import type { SharedServices } from '../../shared-services.ts';
import { createTicketMailer } from '../notifications/index.ts';
import { createImapReader, type ImapReader } from './inbound.imap.ts';
import { createMailPoster } from './inbound.post.ts';
import { createInboundRepository } from './inbound.repository.ts';
import { createSmtpReceiver, type ReceivedEnvelope, storeReceived } from './inbound.receive.ts';
import { inboundRoutes } from './inbound.routes.ts';
import { createInboundService } from './inbound.service.ts';
import { createInboundWorker, type InboundWorker } from './inbound.worker.ts';

/**
 * Reply by email (docs/decisions/105-reply-by-email.md): the SMTP receiver (INBOUND_SMTP_PORT) and
 * the IMAP mailbox reader (IMAP_URL) store what arrives; the inbound worker decides and posts it;
 * the admin Mail page's Incoming view lists it. With neither configured, only the routes exist.
 */
export interface InboundModuleOptions extends SharedServices {
  /** Tests run rounds themselves (`app.inbound.worker.runOnce()`). */
  startWorker?: boolean;
  /** DNS for the DMARC check; tests give a zone of their own. */
  dnsResolver?: DNSResolver;
}

export interface InboundHandle {
  worker: InboundWorker;
  /** Stores a raw mail as either receiver does (tests, and the CLI). */
  store(raw: Buffer, envelope: ReceivedEnvelope): Promise<boolean>;
  /** The SMTP receiver's port once listening (INBOUND_SMTP_PORT=0 picks one). */
  smtpPort(): number | undefined;
  /** The IMAP mailbox reader (IMAP_URL), if configured. */
  imap: ImapReader | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    inbound: InboundHandle;
  }
}

export const inboundModule = fp<InboundModuleOptions>(
  async function inbound(app: FastifyInstance, options) {
    const { config, database } = options;
    const settings = config.inbound;
    const repository = createInboundRepository(database.db);
    const postMail = createMailPoster({ db: database.db, records: app.supportRecords, attachments: app.attachments });
    const worker = createInboundWorker({
      db: database.db,
      outbox: options.outbox,
      postMail,
      sideConversations: app.sideConversations,
      audit: options.audit,
      records: app.supportRecords,
      mail: options.mail,
      ticketMailer: createTicketMailer({ outbox: options.outbox, mail: options.mail }),
      log: options.log,
      replyDomain: settings.replyDomain,
      threadDomain: new URL(config.publicBaseUrl).hostname,
      authservId: settings.authservId,
      mta: settings.replyDomain ?? os.hostname(),
      resolver: options.dnsResolver,
      // How long a claimed mail stays with one worker before another takes it over (a crash), as for sent mail.
      leaseSeconds: config.mail.leaseSeconds,
      maxAttempts: settings.maxAttempts,
      clock: options.clock,
    });
    const store = async (raw: Buffer, envelope: ReceivedEnvelope) => {
      const stored = await storeReceived(repository, raw, envelope);
      worker.wake();
      return stored;
    };

    let smtpPort: number | undefined;
    const receiver =
      settings.smtpPort !== undefined && settings.replyDomain
        ? createSmtpReceiver({
            host: settings.smtpHost,
            port: settings.smtpPort,
            name: settings.replyDomain,
            replyDomain: settings.replyDomain,
            supportAddress: settings.address,
            repository,
            sideConversations: app.sideConversations,
            stored: () => worker.wake(),
            unknownRecipientLimit: settings.unknownRecipientLimit,
            slowAnswerMs: settings.slowAnswerMs,
            log: options.log,
          })
        : undefined;

    // A mailbox's messages name their reply address in To, Cc or Delivered-To (read from the headers).
    const imap = settings.imapUrl
      ? createImapReader({
          url: settings.imapUrl,
          moveTo: settings.imapMoveTo,
          store: async (raw) => {
            await store(raw, { via: 'imap' });
          },
          log: options.log,
        })
      : undefined;

    app.decorate('inbound', { worker, store, smtpPort: () => smtpPort, imap } satisfies InboundHandle);
    app.addHook('onReady', async () => {
      if (options.startWorker ?? true) worker.start();
      if (receiver) {
        smtpPort = await receiver.listen();
        options.log.info({ port: smtpPort }, 'receiving mail by SMTP');
      }
      if (imap) await imap.start();
    });
    app.addHook('onClose', async () => {
      await receiver?.close();
      await imap?.stop();
      await worker.stop();
    });
    await app.register(inboundRoutes, {
      inbound: createInboundService({
        repository,
        postMail,
        sideConversations: app.sideConversations,
        audit: options.audit,
      }),
    });
  },
  {
    name: 'inbound',
    dependencies: ['attachments', 'support', 'side-conversations'],
    decorators: { fastify: ['attachments', 'supportRecords', 'sideConversations'] },
  },
);
