import type { FastifyInstance } from 'fastify';
import { attachmentsApi as api } from '../../../contracts/api/attachments.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import { contentDisposition, sendStoredFile } from '../../http/stored-file.ts';
import type { AttachmentsService } from './attachments.service.ts';
import { can } from '../../plugins/access.ts';

/**
 * Attachments are served by these routes only, to the ticket's owner and to admins (UP-05): never
 * from a static path, always with nosniff, a sandboxing CSP and CORP same-origin, never cached.
 * Photos may show inline (the thread's thumbnails, the full photo in a tab); PDFs only download.
 */
export async function attachmentsRoutes(app: FastifyInstance, options: { attachments: AttachmentsService }) {
  const { attachments } = options;

  for (const [declaration, thumbnail] of [
    [api.file, false],
    [api.thumbnail, true],
  ] as const) {
    route(app, declaration, async (request, reply) => {
      const principal = principalOf(request);
      const file = await attachments.open(
        request.params.ticketId,
        request.params.attachmentId,
        { userId: principal.userId, admin: can(principal, 'tickets.read') },
        thumbnail,
      );
      return sendStoredFile(reply, {
        contentType: file.contentType,
        disposition: contentDisposition(file.inline ? 'inline' : 'attachment', file.name),
        size: file.size,
        body: file.body,
      });
    });
  }
}
