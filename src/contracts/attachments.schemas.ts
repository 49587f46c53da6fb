import { z } from './zod.ts';

/**
 * The zod schemas of attachments.ts: what the API and the forms check, on the server and in a form
 * once it is used. The pages' texts and constants are in attachments.ts, which needs no zod
 * (docs/decisions/119-schemas-stay-on-the-server.md).
 */
/** A file on a message, as both sides see it; the URLs serve it only to the ticket's owner and admins. */
export const AttachmentSchema = z.object({
  id: z.uuid(),
  /** The name it was sent with, cleaned for display (the stored file never uses it). */
  name: z.string(),
  kind: z.enum(['jpg', 'png', 'webp', 'pdf']),
  contentType: z.string(),
  /** Bytes as stored (a photo is stored re-encoded without its metadata). */
  size: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  url: z.string(),
  /** A small WebP of a photo; null for a PDF. */
  thumbnailUrl: z.string().nullable(),
});
export type Attachment = z.infer<typeof AttachmentSchema>;
