import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AgentListSchema,
  AssignBodySchema,
  DeskFiguresSchema,
  PrivacyBodySchema,
  RatingBodySchema,
  SearchQuerySchema,
} from '../../../contracts/desk.ts';
import { KeepForRecordBodySchema } from '../../../contracts/account-deletion.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import {
  AdminMessageSchema,
  AdminSearchResultSchema,
  AdminTicketSchema,
  ReplySchema,
  TicketParamsSchema,
  TicketSchema,
} from '../../../contracts/support.ts';
import type { DeskService } from './support.desk.service.ts';
import { me } from './support.streams.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/** The desk's tools: the owner's rating, and the console's notes, assignment and figures. */
export async function supportDeskRoutes(app: FastifyInstance, options: { desk: DeskService }) {
  const { desk } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/api/support/tickets/:ticketId/rating', {
    config: { access: 'verified' },
    schema: {
      tags: ['support'],
      summary: "How did we do? The owner's rating of a closed ticket (changeable for 7 days)",
      params: TicketParamsSchema,
      body: RatingBodySchema,
      response: { 200: z.object({ ticket: TicketSchema }), 409: ErrorBodySchema, ...errors },
    },
    handler: async (request) => ({
      ticket: await desk.rate(me(request).userId, request.params.ticketId, request.body),
    }),
  });

  api.post('/api/admin/support/tickets/:ticketId/notes', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Add an internal note (admins only; never shown or sent to the user)',
      params: TicketParamsSchema,
      body: ReplySchema,
      response: { 200: z.object({ message: AdminMessageSchema }), 409: ErrorBodySchema, ...errors },
    },
    handler: async (request) => ({
      message: await desk.addNote(me(request), request.params.ticketId, request.body),
    }),
  });

  api.post('/api/admin/support/tickets/:ticketId/assign', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: "Assign a ticket: 'me', an admin's id, or null for nobody",
      params: TicketParamsSchema,
      body: AssignBodySchema,
      response: { 200: z.object({ ticket: AdminTicketSchema }), ...errors },
    },
    handler: async (request) => ({
      ticket: await desk.assign(me(request), request.params.ticketId, request.body.assignee),
    }),
  });

  api.post('/api/admin/support/tickets/:ticketId/privacy', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary:
        'Mark a ticket a privacy request (true) or not (false): it then shows its due date, 20 working days after it arrived',
      params: TicketParamsSchema,
      body: PrivacyBodySchema,
      response: { 200: z.object({ ticket: AdminTicketSchema }), ...errors },
    },
    handler: async (request) => ({
      ticket: await desk.setPrivacy(me(request), request.params.ticketId, request.body.privacy),
    }),
  });

  api.post('/api/admin/support/tickets/:ticketId/keep-for-record', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary:
        "Keep a ticket's messages for the record (true) when its owner's account is erased, shown as from 'Deleted user'; false: the ticket is deleted with the account",
      params: TicketParamsSchema,
      body: KeepForRecordBodySchema,
      response: { 200: z.object({ ticket: AdminTicketSchema }), ...errors },
    },
    handler: async (request) => ({
      ticket: await desk.setKeepForRecord(me(request), request.params.ticketId, request.body.keep),
    }),
  });

  api.get('/api/admin/support/agents', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Admins a ticket can be assigned to',
      response: { 200: AgentListSchema, ...errors },
    },
    handler: async () => ({ agents: await desk.agents() }),
  });

  api.get('/api/admin/support/search', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Search every ticket by number, user email and message text; best matches first, with a snippet',
      querystring: SearchQuerySchema,
      response: { 200: AdminSearchResultSchema, ...errors },
    },
    handler: async (request) => ({ results: await desk.search(request.query.q) }),
  });

  api.get('/api/admin/support/figures', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Medians of first response and resolution (7 days), share of good ratings (7 and 30 days)',
      response: { 200: DeskFiguresSchema, ...errors },
    },
    handler: async () => desk.figures(),
  });
}
