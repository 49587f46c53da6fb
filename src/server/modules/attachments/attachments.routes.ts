import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import type { AttachmentsService } from './attachments.service.ts';

const ParamsSchema = z.object({ ticketId: z.string(), attachmentId: z.string() });
const errors = { 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

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
  const api = app.withTypeProvider<ZodTypeProvider>();

  for (const thumbnail of [false, true]) {
    api.get(`/api/support/tickets/:ticketId/attachments/:attachmentId${thumbnail ? '/thumbnail' : ''}`, {
      config: { access: 'verified' },
      schema: {
        tags: ['support'],
        summary: thumbnail
          ? "A photo's thumbnail (WebP, at most 480 px a side), to the ticket's owner and admins"
          : "A message's file, to the ticket's owner and admins (PDFs as downloads)",
        params: ParamsSchema,
        response: errors,
      },
      handler: async (request, reply) => {
        const principal = request.principal!;
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
        // A stream is sent as is; the response schemas above describe the JSON errors only.
        return reply.send(file.body as never);
      },
    });
  }
}
