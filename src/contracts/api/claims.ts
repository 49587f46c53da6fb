import { ClaimParamsSchema, ClaimResultSchema, DecideClaimSchema } from '../claims.schemas.ts';
import { endpoint } from '../endpoint.ts';

const ERRORS = [400, 401, 403, 404] as const;

/**
 * Incident claims (docs/decisions/152-incident-claims.md): the claim of a ticket, as the team reads
 * and decides it. A decision tells the app through the `claim.decided` webhook, once per version.
 */
export const claimsApi = {
  claim: endpoint({
    method: 'GET',
    path: '/api/admin/support/tickets/:ticketId/claim',
    access: 'tickets.read',
    tags: ['admin'],
    summary: "A ticket's incident claim (null when it has none): its facts, state, due time and decision",
    params: ClaimParamsSchema,
    answers: { 200: ClaimResultSchema },
    errors: ERRORS,
  }),
  decide: endpoint({
    method: 'POST',
    path: '/api/admin/support/tickets/:ticketId/claim/decision',
    access: 'tickets.write',
    tags: ['admin'],
    summary:
      'Decide the claim: { outcome: upheld | part | declined, amount? (dollars, for part), reason? (for declined), ' +
      'seenVersion }; 409 when the claim changed since that version. Sends claim.decided once for the version.',
    params: ClaimParamsSchema,
    body: DecideClaimSchema,
    answers: { 200: ClaimResultSchema },
    errors: [...ERRORS, 409],
  }),
} as const;
