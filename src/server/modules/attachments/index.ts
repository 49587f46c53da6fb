import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SharedServices } from '../../shared-services.ts';
import { createAttachmentsRepository } from './attachments.repository.ts';
import { attachmentsRoutes } from './attachments.routes.ts';
import { createAttachmentsService, type AttachmentsService } from './attachments.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Receiving and serving message files; the support and desk modules' message routes use it. */
    attachments: AttachmentsService;
  }
}

/** How often each instance sweeps what unfinished sends left (the sweep is safe to run anywhere). */
const SWEEP_EVERY_MS = 15 * 60 * 1000;

/**
 * The attachments module: files on support messages (docs/product.md §2.11). It receives a message
 * form's files (checked by their bytes, photos re-encoded without metadata, kept in the shared
 * storage as pending), serves them to those who may see them, and sweeps what sends that never
 * completed left behind. The message that carries the files is the support module's to store.
 */
export const attachmentsModule = fp<SharedServices>(
  async function attachments(app: FastifyInstance, shared) {
    const service = createAttachmentsService({
      repository: createAttachmentsRepository(shared.database.db),
      storage: shared.storage,
      limiter: shared.limiter,
      perUserPerHour: shared.config.support.attachmentsPerUserPerHour,
      log: shared.log,
    });
    app.decorate('attachments', service);
    await app.register(attachmentsRoutes, { attachments: service });

    const sweep = () =>
      service.sweep().catch((error: unknown) => shared.log.warn({ err: error }, 'attachment sweep failed'));
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      void sweep();
      timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
      timer.unref();
    });
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'attachments' },
);

/** The SQL that claims a message's uploaded files in the same statement as the message (the support module's writes). */
export {
  type AttachmentRef,
  claimedAttachmentsJson,
  claimPendingAttachments,
  messageAttachmentsJson,
} from './attachments.sql.ts';
