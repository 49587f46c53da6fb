import { BulkBodySchema, BulkParamsSchema, BulkResultSchema, BulkUndoResultSchema } from '../bulk.schemas.ts';
import { endpoint } from '../endpoint.ts';

const ERRORS = [400, 401, 403, 404] as const;

/** Bulk actions on the inbox (docs/decisions/143-bulk-actions.md). Admins only. */
export const bulkApi = {
  apply: endpoint({
    method: 'POST',
    path: '/api/admin/support/bulk',
    access: 'tickets.write',
    tags: ['admin'],
    summary:
      'Close, reopen, assign or label up to 500 tickets, each { id, version } as the agent saw it: one result per ticket ' +
      '(done, changed since and so left alone, already so, or missing), each audited; Undo takes it back for 30 minutes',
    body: BulkBodySchema,
    answers: { 200: BulkResultSchema },
    errors: ERRORS,
  }),
  undo: endpoint({
    method: 'POST',
    path: '/api/admin/support/bulk/:bulkId/undo',
    access: 'tickets.write',
    tags: ['admin'],
    summary:
      "Undo the caller's last bulk action (within 30 minutes): each ticket no one has changed since is put back as it was",
    params: BulkParamsSchema,
    answers: { 200: BulkUndoResultSchema },
    errors: [...ERRORS, 409],
  }),
};
