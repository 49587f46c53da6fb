import { AuditPageSchema, AuditQuerySchema } from '../audit.schemas.ts';
import { endpoint } from '../endpoint.ts';

/** The admin console's audit log: who did what, when, to which record. */
export const auditApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/admin/audit',
    access: 'audit.read',
    tags: ['admin'],
    summary:
      'Admin actions, newest first (who, what, when, which record); narrow with ?actor=<email>&action=&from=&to= ' +
      '(New Zealand days, YYYY-MM-DD) or ?targetType=&targetId=; page back with ?before=<id>',
    query: AuditQuerySchema,
    answers: { 200: AuditPageSchema },
    errors: [400, 401, 403],
  }),
} as const;
