import type { FastifyInstance } from 'fastify';
import { attachmentsApi as api } from '../../../contracts/api/attachments.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import type { AttachmentsService } from './attachments.service.ts';

/** `filename="…"` in ASCII for old clients, and the real name as `filename*` (RFC 6266, RFC 8187). */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^A-Za-z0-9._ -]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

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
        { userId: principal.userId, admin: principal.role === 'admin' },
        thumbnail,
      );
      reply.headers({
        'content-type': file.contentType,
        'content-disposition': disposition(file.inline ? 'inline' : 'attachment', file.name),
        'content-security-policy': "default-src 'none'; sandbox",
        'x-content-type-options': 'nosniff',
        'cross-origin-resource-policy': 'same-origin',
        'cache-control': 'no-store',
      });
      if (file.size !== undefined) reply.header('content-length', file.size);
      // A stream is sent as is; the declaration describes the JSON errors only.
      return reply.send(file.body as never);
    });
  }
}
