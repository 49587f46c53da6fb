import { TicketParamsSchema } from '../support.schemas.ts';
import {
  SideListSchema,
  SideMailParamsSchema,
  SideParamsSchema,
  SideReplyBodySchema,
  SideResultSchema,
  SideWholeMailSchema,
  StartSideBodySchema,
} from '../side-conversations.schemas.ts';
import { endpoint } from '../endpoint.ts';

const ERRORS = [400, 401, 403, 404] as const;

/**
 * Side conversations (docs/decisions/138-side-conversations.md): the team's mail, from a ticket, with
 * someone other than its customer. Admins only; the customer's API has no way to them.
 */
export const sideApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/admin/support/tickets/:ticketId/side-conversations',
    access: 'tickets.read',
    tags: ['admin'],
    summary: "A ticket's side conversations with their messages (and those of tickets merged into it)",
    params: TicketParamsSchema,
    answers: { 200: SideListSchema },
    errors: ERRORS,
  }),
  start: endpoint({
    method: 'POST',
    path: '/api/admin/support/tickets/:ticketId/side-conversations',
    access: 'tickets.write',
    tags: ['admin'],
    summary:
      'Start a side conversation: mail { subject, messageBody } to `to` (optionally quoting some of the ticket’s messages ' +
      'and attaching some of its files), ' +
      'from the support address in the agent’s name, with a reply address of its own',
    params: TicketParamsSchema,
    body: StartSideBodySchema,
    answers: { 200: SideResultSchema },
    errors: [...ERRORS, 409],
  }),
  reply: endpoint({
    method: 'POST',
    path: '/api/admin/support/side-conversations/:sideId/messages',
    access: 'tickets.write',
    tags: ['admin'],
    summary: 'Write again in a side conversation (mailed to its counterpart); a closed one takes nothing',
    params: SideParamsSchema,
    body: SideReplyBodySchema,
    answers: { 200: SideResultSchema },
    errors: [...ERRORS, 409],
  }),
  close: endpoint({
    method: 'POST',
    path: '/api/admin/support/side-conversations/:sideId/close',
    access: 'tickets.write',
    tags: ['admin'],
    summary: 'Close a side conversation: its reply address stops working',
    params: SideParamsSchema,
    answers: { 200: SideResultSchema },
    errors: ERRORS,
  }),
  wholeMail: endpoint({
    method: 'GET',
    path: '/api/admin/support/side-conversations/:sideId/messages/:messageId/mail',
    access: 'tickets.read',
    tags: ['admin'],
    summary: 'The whole mail a side conversation’s reply came in (as text)',
    params: SideMailParamsSchema,
    answers: { 200: SideWholeMailSchema },
    errors: ERRORS,
  }),
} as const;
