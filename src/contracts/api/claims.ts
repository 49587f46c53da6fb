import {
  AppealSchema,
  AskTravellerSchema,
  CarrierNoticeSchema,
  ClaimParamsSchema,
  ClaimResultSchema,
  DecideClaimSchema,
  SenderClaimResultSchema,
  TravellerAnswerSchema,
  TravellerClaimParamsSchema,
  TravellerClaimResultSchema,
  WaitForSenderSchema,
} from '../claims.schemas.ts';
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
  waitForSender: endpoint({
    method: 'POST',
    path: '/api/admin/support/tickets/:ticketId/claim/wait-for-sender',
    access: 'tickets.write',
    tags: ['admin'],
    summary:
      'The claim waits for the sender (asked in a reply): { seenVersion }. Their next message gives it back to the team, ' +
      'with a decision due the decision period later.',
    params: ClaimParamsSchema,
    body: WaitForSenderSchema,
    answers: { 200: ClaimResultSchema },
    errors: [...ERRORS, 409],
  }),
  askTraveller: endpoint({
    method: 'POST',
    path: '/api/admin/support/tickets/:ticketId/claim/traveller',
    access: 'tickets.write',
    tags: ['admin'],
    summary:
      "Ask the delivery's traveller: { email, name?, statement, seenVersion }. Mails them a link to a page where they " +
      'sign in and answer; an answer is due the traveller period later.',
    params: ClaimParamsSchema,
    body: AskTravellerSchema,
    answers: { 200: ClaimResultSchema },
    errors: [...ERRORS, 409],
  }),
  carrier: endpoint({
    method: 'POST',
    path: '/api/admin/support/tickets/:ticketId/claim/carrier',
    access: 'tickets.write',
    tags: ['admin'],
    summary:
      'A leg carried by a partner company: { companyId? (none: blank), noticeSentOn? (the day written notice was given), seenVersion }',
    params: ClaimParamsSchema,
    body: CarrierNoticeSchema,
    answers: { 200: ClaimResultSchema },
    errors: [...ERRORS, 409],
  }),
  travellerClaim: endpoint({
    method: 'GET',
    path: '/api/claims/:claimId',
    access: 'verified',
    tags: ['support'],
    summary:
      "The claim a traveller was asked about, for the signed-in account at the address asked (anyone else: 404): the claim's " +
      "statement, never the sender's ticket",
    params: TravellerClaimParamsSchema,
    answers: { 200: TravellerClaimResultSchema },
    errors: ERRORS,
  }),
  travellerAnswer: endpoint({
    method: 'POST',
    path: '/api/claims/:claimId/answer',
    access: 'verified',
    tags: ['support'],
    summary:
      "The traveller's answer: JSON { message }, or multipart/form-data with it and up to 10 `files`. Once; the claim goes " +
      'back to the team with a decision due.',
    params: TravellerClaimParamsSchema,
    body: TravellerAnswerSchema,
    multipart: 'also',
    answers: { 200: TravellerClaimResultSchema },
    errors: [...ERRORS, 409, 429],
  }),
  senderClaim: endpoint({
    method: 'GET',
    path: '/api/support/tickets/:ticketId/claim',
    access: 'verified',
    tags: ['support'],
    summary: "The claim of the signed-in user's own ticket (null when it has none): its state, decision and appeal",
    params: ClaimParamsSchema,
    answers: { 200: SenderClaimResultSchema },
    errors: ERRORS,
  }),
  appeal: endpoint({
    method: 'POST',
    path: '/api/support/tickets/:ticketId/claim/appeal',
    access: 'verified',
    tags: ['support'],
    summary:
      'The sender appeals the decision of their claim, once, within the appeal window: { reason }. Someone other than who ' +
      'decided it decides the appeal.',
    params: ClaimParamsSchema,
    body: AppealSchema,
    answers: { 200: SenderClaimResultSchema },
    errors: [...ERRORS, 409],
  }),
} as const;
