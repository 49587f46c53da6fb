import {
  LabelBodySchema,
  LabelListSchema,
  LabelParamsSchema,
  LabelResultSchema,
  TicketLabelsBodySchema,
  TicketLabelsResultSchema,
} from '../labels.schemas.ts';
import { TicketParamsSchema } from '../support.schemas.ts';
import { endpoint } from '../endpoint.ts';

const ERRORS = [400, 401, 403, 404] as const;

/**
 * Labels (docs/decisions/141-labels.md): the team's list, and a ticket's labels. Admins only; the
 * inbox filters by one (`label` in the inbox's query).
 */
export const labelsApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/admin/labels',
    access: 'tickets.read',
    tags: ['admin'],
    summary: "The team's labels, by name, each with how many tickets have it",
    answers: { 200: LabelListSchema },
    errors: ERRORS,
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/admin/labels',
    access: 'desk.manage',
    tags: ['admin'],
    summary: 'Add a label { name } (unique whatever its case)',
    body: LabelBodySchema,
    answers: { 200: LabelResultSchema },
    errors: [...ERRORS, 409],
  }),
  rename: endpoint({
    method: 'PUT',
    path: '/api/admin/labels/:labelId',
    access: 'desk.manage',
    tags: ['admin'],
    summary: 'Rename a label { name }: every ticket with it shows the new name',
    params: LabelParamsSchema,
    body: LabelBodySchema,
    answers: { 200: LabelResultSchema },
    errors: [...ERRORS, 409],
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/admin/labels/:labelId',
    access: 'desk.manage',
    tags: ['admin'],
    summary: 'Remove a label: it comes off every ticket',
    params: LabelParamsSchema,
    answers: { 200: LabelResultSchema },
    errors: ERRORS,
  }),
  setTicketLabels: endpoint({
    method: 'PUT',
    path: '/api/admin/support/tickets/:ticketId/labels',
    access: 'tickets.write',
    tags: ['admin'],
    summary: "Set a ticket's labels { labelIds }: those named are on it, any other comes off",
    params: TicketParamsSchema,
    body: TicketLabelsBodySchema,
    answers: { 200: TicketLabelsResultSchema },
    errors: ERRORS,
  }),
} as const;
