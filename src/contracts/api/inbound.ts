import { endpoint } from '../endpoint.ts';
import {
  InboundDiscardResultSchema,
  InboundFileParamsSchema,
  InboundMailReadSchema,
  InboundListQuerySchema,
  InboundListSchema,
  InboundParamsSchema,
  InboundPostResultSchema,
  WholeMailParamsSchema,
  WholeMailSchema,
} from '../inbound.schemas.ts';

/** The Mail page's Incoming view (admins), and the whole mail behind a message (its owner, or an admin). */
const ERRORS = [400, 401, 403, 404] as const;

export const inboundApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/admin/mail/incoming',
    access: 'mail.read',
    tags: ['admin'],
    summary: 'Mail received, newest first: posted, held (with the reason), ignored (with the reason)',
    query: InboundListQuerySchema,
    answers: { 200: InboundListSchema },
    errors: ERRORS,
  }),
  read: endpoint({
    method: 'GET',
    path: '/api/admin/mail/incoming/:inboundId',
    access: 'mail.held',
    tags: ['admin'],
    summary: 'One received mail: its words as text, its headers, its files (to read a held mail before deciding)',
    params: InboundParamsSchema,
    answers: { 200: InboundMailReadSchema },
    errors: ERRORS,
  }),
  file: endpoint({
    method: 'GET',
    path: '/api/admin/mail/incoming/:inboundId/files/:fileIndex',
    access: 'mail.held',
    tags: ['admin'],
    summary: "A received mail's file, always as a download (its type by its bytes, else application/octet-stream)",
    params: InboundFileParamsSchema,
    answers: {},
    errors: ERRORS,
  }),
  post: endpoint({
    method: 'POST',
    path: '/api/admin/mail/incoming/:inboundId/post',
    access: 'mail.manage',
    tags: ['admin'],
    summary: 'Post a held mail to its ticket as its sender',
    params: InboundParamsSchema,
    answers: { 200: InboundPostResultSchema },
    errors: [...ERRORS, 409],
  }),
  discard: endpoint({
    method: 'POST',
    path: '/api/admin/mail/incoming/:inboundId/discard',
    access: 'mail.manage',
    tags: ['admin'],
    summary: 'Discard a held mail (it is kept, marked discarded)',
    params: InboundParamsSchema,
    answers: { 200: InboundDiscardResultSchema },
    errors: [...ERRORS, 409],
  }),
  wholeMail: endpoint({
    method: 'GET',
    path: '/api/support/tickets/:ticketId/messages/:messageId/mail',
    access: 'verified',
    tags: ['support'],
    summary: 'The whole mail a message was posted from (its text; the message holds only the new words)',
    params: WholeMailParamsSchema,
    answers: { 200: WholeMailSchema },
    errors: ERRORS,
  }),
} as const;
