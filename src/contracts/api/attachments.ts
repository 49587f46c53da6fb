import { endpoint } from '../endpoint.ts';
import { z } from '../zod.ts';

/**
 * A message's files, served only to the ticket's owner and to admins (UP-05). The answer is the file
 * itself (photos inline, PDFs as downloads), so only the errors are described.
 */
export const AttachmentParamsSchema = z.object({ ticketId: z.string(), attachmentId: z.string() });
const ERRORS = [401, 403, 404] as const;

export const attachmentsApi = {
  file: endpoint({
    method: 'GET',
    path: '/api/support/tickets/:ticketId/attachments/:attachmentId',
    access: 'verified',
    tags: ['support'],
    summary: "A message's file, to the ticket's owner and admins (PDFs as downloads)",
    params: AttachmentParamsSchema,
    answers: {},
    errors: ERRORS,
  }),
  thumbnail: endpoint({
    method: 'GET',
    path: '/api/support/tickets/:ticketId/attachments/:attachmentId/thumbnail',
    access: 'verified',
    tags: ['support'],
    summary: "A photo's thumbnail (WebP, at most 480 px a side), to the ticket's owner and admins",
    params: AttachmentParamsSchema,
    answers: {},
    errors: ERRORS,
  }),
} as const;
