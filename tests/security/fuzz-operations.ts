/**
 * Every operation of the route table with its fuzz entry: who calls it, how valid input looks
 * (mirroring its zod contract), and what a success answers. fuzz.test.ts fails when the live route
 * table holds an operation that is missing here, so a new route cannot skip the fuzz.
 */
import fc from 'fast-check';
import { z } from 'zod';
import {
  AdminLegalSchema,
  AUDIT_TARGETS,
  AuditPageSchema,
  COMPANY_STATUSES,
  CompanyDecisionSchema,
  CompanyListSchema,
  CompanyResultSchema,
  HostedDocumentSchema,
  UserListSchema,
  UserResultSchema,
} from '../../src/contracts/admin.ts';
import { LoginResponseSchema, MessageResponseSchema, SessionResponseSchema } from '../../src/contracts/auth.ts';
import { CompanyRegistrationResultSchema } from '../../src/contracts/companies.ts';
import { FAQ_TYPES, LEGAL_DOCUMENTS } from '../../src/contracts/content.ts';
import { FaqListSchema, FaqSchema, LegalLinksSchema } from '../../src/contracts/content.schemas.ts';
import {
  AdminMessageSchema,
  AdminTicketListSchema,
  AdminTicketSchema,
  AdminTicketWithMessagesSchema,
  CreateTicketResultSchema,
  MessageListSchema,
  ReplyResultSchema,
  TICKET_REASON_VALUES,
  TicketListSchema,
  TicketWithMessagesSchema,
} from '../../src/contracts/support.ts';
import {
  companyFormRequests,
  enc,
  type FuzzRequest,
  hostileString,
  nzPhone,
  padded,
  ref,
  text,
  validClientId,
  validEmail,
  validPassword,
  validToken,
} from './fuzz-arbitraries.ts';
import {
  AdminMailListSchema,
  AdminMailResultSchema,
  MAIL_STATES,
  NotificationPreferencesSchema,
} from '../../src/contracts/notifications.ts';
import type { FuzzOperation } from './fuzz-harness.ts';

/** A sign-in the fuzz knows the password of (its state `accounts`). */
export interface Account {
  email: string;
  password: string;
}
const jsonBody = (request: FuzzRequest) =>
  request.body.kind === 'json' && request.body.value && typeof request.body.value === 'object'
    ? (request.body.value as Record<string, unknown>)
    : null;

/** Query pairs from optional fields (any subset present, in a fixed order). */
const query = (shape: Record<string, fc.Arbitrary<unknown>>, requiredKeys: string[] = []) =>
  fc
    .record(shape, { requiredKeys })
    .map((r) => Object.entries(r).filter(([, v]) => v !== undefined) as Array<[string, unknown]>);

const uuidOr = (...pools: string[]) =>
  fc.oneof(...pools.map((p) => ({ weight: 3, arbitrary: ref(p) })), { weight: 1, arbitrary: fc.uuid() });
const intString = (min: number, max: number) => fc.integer({ min, max }).map(String);
const searchText = fc.oneof(fc.constant(''), text(1, 200), fc.constantFrom('%', '_', '\\', "'", '100', '@example.nz'));

/** Links an admin may set (IN-04), and ones that must be refused. */
const BAD_LINKS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  '\tjavascript:alert(1)',
  'java\nscript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'http://example.com/terms',
  '//evil.example/terms',
  '/\\evil.example',
  'https:///evil.example',
  'https:\\\\evil.example',
  'https://user:pass@evil.example/',
  'terms',
  '',
  'https://',
  '/%0d%0aSet-Cookie:x=1',
];
const link = fc.oneof(
  { weight: 3, arbitrary: fc.webUrl({ validSchemes: ['https'], withQueryParameters: true, withFragments: true }) },
  { weight: 2, arbitrary: fc.constantFrom('/documents/terms', '/documents/privacy', '/legal?doc=privacy', '/faqs#x') },
  { weight: 1, arbitrary: fc.constantFrom(...BAD_LINKS) },
);

const faqBody = fc.record({ type: fc.constantFrom(...FAQ_TYPES), title: text(1, 300), content: text(1, 5000) });
const faqFields = [
  { path: ['title'], min: 1, max: 300 },
  { path: ['content'], min: 1, max: 5000 },
];
const replyBody = fc.record(
  { messageBody: text(1, 5000), clientId: fc.oneof(validClientId, ref('clientId')) },
  { requiredKeys: ['messageBody'] },
);
const replyFields = [{ path: ['messageBody'], min: 1, max: 5000 }];
const ticketListQuery = query({ open: fc.constantFrom('true', 'false') });
const adminTicketQuery = query({ open: fc.constantFrom('true', 'false'), q: searchText });

const anon = ['anonymous'];
const user = ['user'];
const admin = ['admin'];

export const FUZZ_OPERATIONS: FuzzOperation[] = [
  // --- Public: health, content, SEO ---------------------------------------------------------------
  {
    methods: ['GET'],
    url: '/healthz',
    group: 'public',
    principals: anon,
    noInput: 'liveness probe',
    ok: [{ status: 200, schema: z.object({ status: z.literal('ok') }) }],
  },
  {
    methods: ['GET'],
    url: '/readyz',
    group: 'public',
    principals: anon,
    noInput: 'readiness probe',
    ok: [{ status: 200, schema: z.object({ status: z.literal('ready') }) }],
  },
  {
    methods: ['GET'],
    url: '/api/openapi.json',
    group: 'public',
    principals: anon,
    noInput: 'the API description',
    ok: [{ status: 200, schema: z.object({ openapi: z.literal('3.1.0'), paths: z.record(z.string(), z.unknown()) }) }],
  },
  {
    methods: ['GET'],
    url: '/robots.txt',
    group: 'public',
    principals: anon,
    noInput: 'static text',
    ok: [{ status: 200, kind: 'text' }],
  },
  {
    methods: ['GET'],
    url: '/sitemap.xml',
    group: 'public',
    principals: anon,
    noInput: 'static text',
    ok: [{ status: 200, kind: 'text' }],
  },
  {
    methods: ['GET'],
    url: '/api/faqs',
    group: 'public',
    principals: anon,
    query: query({ type: fc.constantFrom(...FAQ_TYPES) }, ['type']),
    ok: [{ status: 200, schema: FaqListSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/legal/links',
    group: 'public',
    principals: anon,
    noInput: 'one settings document',
    ok: [{ status: 200, schema: LegalLinksSchema }],
  },
  {
    methods: ['GET'],
    url: '/documents/:slug',
    group: 'public',
    principals: anon,
    params: { slug: fc.constantFrom(...LEGAL_DOCUMENTS) },
    ok: [{ status: 200, kind: 'html' }],
  },
  {
    methods: ['GET', 'DELETE', 'OPTIONS', 'PATCH', 'PUT', 'POST', 'TRACE', 'QUERY'],
    url: '/api/*',
    group: 'public',
    principals: anon,
    params: {
      '*': fc.oneof(
        fc.constantFrom('nothing', 'auth/../admin/users', 'admin', '.env', '%2e%2e/'),
        hostileString.map((s) => s.slice(0, 150)),
      ),
    },
    ok: [],
  },

  // --- Public: partner registration (multipart) -----------------------------------------------------
  {
    methods: ['POST'],
    url: '/api/companies',
    group: 'public',
    principals: anon,
    requests: companyFormRequests(
      fc.record({
        companyName: ref('companyNameVariant'),
        phoneNumber: fc.oneof(ref('companyPhoneVariant'), nzPhone),
        address: text(5, 200),
        contactPersonEmail: fc.oneof(ref('companyEmailVariant'), validEmail, fc.constant('')),
      }),
    ),
    ok: [{ status: 201, schema: CompanyRegistrationResultSchema }],
  },

  // --- Accounts ----------------------------------------------------------------------------------
  {
    methods: ['POST'],
    url: '/api/auth/login',
    group: 'public',
    principals: anon,
    body: fc.oneof(
      fc.record(
        { email: validEmail, password: validPassword, session: fc.constantFrom('cookie', 'token') },
        { requiredKeys: ['email', 'password'] },
      ),
      fc
        .record(
          { index: fc.nat(), session: fc.constantFrom('cookie', 'token'), upper: fc.boolean() },
          { requiredKeys: ['index'] },
        )
        .map(({ index, session, upper }) => ({
          email: { $ref: upper ? 'accountEmailUpper' : 'accountEmail', index },
          password: { $ref: 'accountPassword', index },
          ...(session ? { session } : {}),
        })),
    ),
    fields: [
      { path: ['email'], min: 1, max: 254 },
      { path: ['password'], min: 1, max: 4096 },
    ],
    ok: [{ status: 200, schema: LoginResponseSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/auth/logout',
    group: 'public',
    principals: anon,
    noInput: 'the session it ends comes from the cookie or bearer token (fuzzed as headers)',
    headers: fc.oneof(
      fc.constant<Record<string, string>>({}),
      fc.stringMatching(/^[A-Za-z0-9_-]{43}$/).map((token) => ({ cookie: `session=${token}` })),
      hostileString.map((s) => ({ cookie: `session=${enc(s.slice(0, 500))}` })),
      fc.stringMatching(/^[A-Za-z0-9_-]{43}$/).map((token) => ({ authorization: `Bearer ${token}` })),
      fc.constantFrom<Record<string, string>>(
        { authorization: 'Bearer' },
        { authorization: 'Basic dXNlcjpwYXNz' },
        { cookie: 'session=' },
        { cookie: 'session=a; session=b' },
      ),
    ),
    ok: [{ status: 200, schema: MessageResponseSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/auth/session',
    group: 'public',
    principals: user,
    noInput: 'who is signed in',
    ok: [{ status: 200, schema: SessionResponseSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/account/notifications',
    group: 'public',
    principals: user,
    noInput: 'the caller’s own settings',
    ok: [{ status: 200, schema: NotificationPreferencesSchema }],
  },
  {
    methods: ['PUT'],
    url: '/api/account/notifications',
    group: 'public',
    principals: user,
    body: fc.record({ ticketReplies: fc.boolean(), ticketClosed: fc.boolean() }, { requiredKeys: [] }),
    ok: [{ status: 200, schema: NotificationPreferencesSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/auth/signup',
    group: 'public',
    principals: anon,
    body: fc.record({ email: fc.oneof(validEmail, ref('accountEmail')), password: validPassword }),
    fields: [
      { path: ['email'], min: 1, max: 254 },
      { path: ['password'], min: 8, max: 1024 },
    ],
    background: ['email_tokens'],
    ok: [{ status: 202, schema: MessageResponseSchema }],
    afterOk: (ctx, request) => {
      // A new account: later sign-ins may use it (an existing one keeps its password).
      const body = jsonBody(request);
      if (typeof body?.email !== 'string' || typeof body.password !== 'string') return;
      const email = body.email.trim().toLowerCase();
      const accounts = ctx.state.accounts as Account[];
      if (!accounts.some((a) => a.email === email)) accounts.push({ email, password: body.password });
    },
  },
  {
    methods: ['POST'],
    url: '/api/auth/verify-email',
    group: 'public',
    principals: anon,
    body: fc.record({ token: fc.oneof(validToken, ref('verifyToken')) }),
    fields: [{ path: ['token'], min: 43, max: 43 }],
    ok: [{ status: 200, schema: MessageResponseSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/auth/resend-verification',
    group: 'public',
    principals: anon,
    body: fc.record({ email: fc.oneof(validEmail, ref('accountEmail')) }),
    fields: [{ path: ['email'], min: 1, max: 254 }],
    background: ['email_tokens'],
    ok: [{ status: 202, schema: MessageResponseSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/auth/forgot-password',
    group: 'public',
    principals: anon,
    body: fc.record({ email: fc.oneof(validEmail, ref('accountEmail')) }),
    fields: [{ path: ['email'], min: 1, max: 254 }],
    background: ['email_tokens'],
    ok: [{ status: 202, schema: MessageResponseSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/auth/reset-password',
    group: 'public',
    principals: anon,
    body: fc.record({ token: fc.oneof(validToken, ref('resetToken')), password: validPassword }),
    fields: [
      { path: ['token'], min: 43, max: 43 },
      { path: ['password'], min: 8, max: 1024 },
    ],
    ok: [{ status: 200, schema: MessageResponseSchema }],
    afterOk: (ctx, request) => {
      const body = jsonBody(request);
      const email = (ctx.state.tokenOwners as Map<string, string>).get(String(body?.token));
      const account = (ctx.state.accounts as Account[]).find((a) => a.email === email);
      if (account && typeof body?.password === 'string') account.password = body.password;
    },
  },
  {
    methods: ['POST'],
    url: '/api/auth/change-password',
    group: 'public',
    principals: ['passwordUser'],
    body: fc.record({ currentPassword: fc.oneof(ref('currentPassword'), validPassword), newPassword: validPassword }),
    fields: [
      { path: ['currentPassword'], min: 1, max: 4096 },
      { path: ['newPassword'], min: 8, max: 1024 },
    ],
    ok: [{ status: 200, schema: MessageResponseSchema }],
    afterOk: (ctx, request) => {
      // The password changed: later valid inputs must know the new one.
      const body = jsonBody(request);
      if (typeof body?.newPassword === 'string') ctx.state.currentPassword = body.newPassword;
    },
  },

  // --- Support: the user's side --------------------------------------------------------------------
  {
    methods: ['POST'],
    url: '/api/functions/createSupportTicket',
    group: 'support',
    principals: user,
    body: fc.record({ data: fc.record({ reason: fc.constantFrom(...TICKET_REASON_VALUES), message: text(1, 5000) }) }),
    fields: [{ path: ['data', 'message'], min: 1, max: 5000 }],
    ok: [{ status: 200, schema: CreateTicketResultSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/support/tickets',
    group: 'support',
    principals: user,
    query: ticketListQuery,
    ok: [{ status: 200, schema: TicketListSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/support/tickets/stream',
    group: 'support',
    principals: user,
    query: ticketListQuery,
    stream: true,
    ok: [{ status: 200, kind: 'stream' }],
  },
  {
    methods: ['GET'],
    url: '/api/support/tickets/:ticketId',
    group: 'support',
    principals: user,
    params: { ticketId: uuidOr('ownTicket', 'foreignTicket') },
    ok: [{ status: 200, schema: TicketWithMessagesSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/support/tickets/:ticketId/messages',
    group: 'support',
    principals: user,
    params: { ticketId: uuidOr('ownTicket', 'foreignTicket') },
    query: query({ after: fc.oneof(intString(0, 2_147_483_647), ref('messageId')) }),
    ok: [{ status: 200, schema: MessageListSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/support/tickets/:ticketId/messages/stream',
    group: 'support',
    principals: ['user', 'admin'],
    params: { ticketId: uuidOr('ownTicket', 'foreignTicket') },
    query: query({ after: fc.oneof(intString(0, 2_147_483_647), ref('messageId')) }),
    stream: true,
    ok: [{ status: 200, kind: 'stream' }],
  },
  {
    methods: ['POST'],
    url: '/api/support/tickets/:ticketId/messages',
    group: 'support',
    principals: user,
    params: { ticketId: uuidOr('ownTicket', 'ownClosedTicket', 'foreignTicket') },
    body: replyBody,
    fields: replyFields,
    ok: [{ status: 200, schema: ReplyResultSchema }],
  },

  // --- Support: the admin's side ---------------------------------------------------------------------
  {
    methods: ['GET'],
    url: '/api/admin/support/tickets',
    group: 'support',
    principals: admin,
    query: adminTicketQuery,
    ok: [{ status: 200, schema: AdminTicketListSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/admin/support/tickets/stream',
    group: 'support',
    principals: admin,
    query: adminTicketQuery,
    stream: true,
    ok: [{ status: 200, kind: 'stream' }],
  },
  {
    methods: ['GET'],
    url: '/api/admin/support/tickets/:ticketId',
    group: 'support',
    principals: admin,
    params: { ticketId: uuidOr('ownTicket', 'foreignTicket') },
    ok: [{ status: 200, schema: AdminTicketWithMessagesSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/support/tickets/:ticketId/messages',
    group: 'support',
    principals: admin,
    params: { ticketId: uuidOr('ownTicket', 'ownClosedTicket', 'foreignTicket') },
    body: replyBody,
    fields: replyFields,
    ok: [{ status: 200, schema: z.object({ message: AdminMessageSchema }) }],
  },
  ...(['close', 'reopen'] as const).map((action): FuzzOperation => ({
    methods: ['POST'],
    url: `/api/admin/support/tickets/:ticketId/${action}`,
    group: 'support',
    principals: admin,
    params: { ticketId: uuidOr('ownTicket', 'ownClosedTicket', 'foreignTicket') },
    ok: [{ status: 200, schema: z.object({ ticket: AdminTicketSchema }) }],
  })),

  // --- Admin: partner review ------------------------------------------------------------------------
  {
    methods: ['GET'],
    url: '/api/admin/companies/:companyId/license',
    group: 'admin',
    principals: admin,
    params: { companyId: uuidOr('licensedCompany', 'company') },
    ok: [{ status: 200, kind: 'binary' }],
  },
  {
    methods: ['GET'],
    url: '/api/admin/companies',
    group: 'admin',
    principals: admin,
    query: query({ status: fc.constantFrom(...COMPANY_STATUSES), q: searchText }),
    ok: [{ status: 200, schema: CompanyListSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/admin/companies/:companyId',
    group: 'admin',
    principals: admin,
    params: { companyId: uuidOr('company') },
    ok: [{ status: 200, schema: CompanyResultSchema }],
  },
  ...(['approve', 'notify'] as const).map((action): FuzzOperation => ({
    methods: ['POST'],
    url: `/api/admin/companies/:companyId/${action}`,
    group: 'admin',
    principals: admin,
    params: { companyId: uuidOr('company') },
    ok: [{ status: 200, schema: CompanyDecisionSchema }],
  })),
  {
    methods: ['POST'],
    url: '/api/admin/companies/:companyId/reject',
    group: 'admin',
    principals: admin,
    params: { companyId: uuidOr('company') },
    body: fc.record({ reason: text(1, 1000) }),
    fields: [{ path: ['reason'], min: 1, max: 1000 }],
    ok: [{ status: 200, schema: CompanyDecisionSchema }],
  },
  ...(['ban', 'unban'] as const).map((action): FuzzOperation => ({
    methods: ['POST'],
    url: `/api/admin/companies/:companyId/${action}`,
    group: 'admin',
    principals: admin,
    params: { companyId: uuidOr('company') },
    ok: [{ status: 200, schema: CompanyResultSchema }],
  })),

  // --- Admin: content ----------------------------------------------------------------------------------
  {
    methods: ['GET'],
    url: '/api/admin/faqs',
    group: 'admin',
    principals: admin,
    query: query({ type: fc.constantFrom(...FAQ_TYPES) }, ['type']),
    ok: [{ status: 200, schema: FaqListSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/faqs',
    group: 'admin',
    principals: admin,
    body: faqBody,
    fields: faqFields,
    ok: [{ status: 201, schema: z.object({ faq: FaqSchema }) }],
  },
  {
    methods: ['PUT'],
    url: '/api/admin/faqs/:faqId',
    group: 'admin',
    principals: admin,
    params: {
      faqId: fc.oneof({ weight: 3, arbitrary: ref('faq') }, { weight: 1, arbitrary: intString(1, 2_147_483_647) }),
    },
    body: faqBody,
    fields: faqFields,
    ok: [{ status: 200, schema: z.object({ faq: FaqSchema }) }],
  },
  {
    methods: ['DELETE'],
    url: '/api/admin/faqs/:faqId',
    group: 'admin',
    principals: admin,
    params: {
      faqId: fc.oneof({ weight: 1, arbitrary: ref('faq') }, { weight: 2, arbitrary: intString(1, 2_147_483_647) }),
    },
    ok: [{ status: 200, schema: z.object({ faq: FaqSchema }) }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/faqs/reorder',
    group: 'admin',
    principals: admin,
    body: fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .record({ type: fc.constantFrom(...FAQ_TYPES), index: fc.nat() })
          .map(({ type, index }) => ({ type, ids: { $ref: `faqOrder:${type}`, index } })),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          type: fc.constantFrom(...FAQ_TYPES),
          ids: fc.array(fc.integer({ min: 1, max: 2_147_483_647 }), { maxLength: 20 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          type: fc.constantFrom(...FAQ_TYPES),
          ids: fc.array(fc.integer({ min: 1, max: 600 }), { minLength: 499, maxLength: 502 }),
        }),
      },
    ),
    ok: [{ status: 200, schema: FaqListSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/admin/legal',
    group: 'admin',
    principals: admin,
    noInput: 'the legal links and documents',
    ok: [{ status: 200, schema: AdminLegalSchema }],
  },
  {
    methods: ['PUT'],
    url: '/api/admin/settings/legal-links',
    group: 'admin',
    principals: admin,
    body: fc.record({ terms: padded(link), privacy: padded(link) }),
    fields: [
      { path: ['terms'], min: 1, max: 2000 },
      { path: ['privacy'], min: 1, max: 2000 },
    ],
    ok: [{ status: 200, schema: LegalLinksSchema }],
  },
  {
    methods: ['PUT'],
    url: '/api/admin/documents/:slug',
    group: 'admin',
    principals: admin,
    params: { slug: fc.constantFrom(...LEGAL_DOCUMENTS) },
    body: fc.record({
      title: text(1, 200),
      body: fc.oneof({ weight: 6, arbitrary: text(1, 3000) }, { weight: 1, arbitrary: text(1, 200_000) }),
    }),
    fields: [
      { path: ['title'], min: 1, max: 200 },
      { path: ['body'], min: 1, max: 200_000 },
    ],
    ok: [{ status: 200, schema: z.object({ document: HostedDocumentSchema }) }],
  },

  // --- Admin: users and audit --------------------------------------------------------------------------
  {
    methods: ['GET'],
    url: '/api/admin/users',
    group: 'admin',
    principals: admin,
    query: query({ q: fc.oneof(searchText, validEmail), page: fc.oneof(intString(1, 3), intString(1, 10_000)) }),
    ok: [{ status: 200, schema: UserListSchema }],
  },
  ...(['resend-verification', 'disable', 'enable'] as const).map((action): FuzzOperation => ({
    methods: ['POST'],
    url: `/api/admin/users/:userId/${action}`,
    group: 'admin',
    principals: admin,
    params: { userId: uuidOr('victim', 'self') },
    ...(action === 'resend-verification' ? { background: ['email_tokens'] } : {}),
    ok: [{ status: 200, schema: UserResultSchema }],
  })),
  {
    methods: ['POST'],
    url: '/api/admin/users/:userId/role',
    group: 'admin',
    principals: admin,
    params: { userId: uuidOr('victim', 'self') },
    body: fc.record({ role: fc.constantFrom('user', 'admin') }),
    ok: [{ status: 200, schema: UserResultSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/admin/audit',
    group: 'admin',
    principals: admin,
    query: query({
      before: fc.oneof(intString(1, 2_147_483_647), ref('auditId')),
      targetType: fc.constantFrom(...AUDIT_TARGETS),
      targetId: fc.oneof(ref('company'), text(1, 100)),
    }),
    ok: [{ status: 200, schema: AuditPageSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/admin/mail',
    group: 'admin',
    principals: admin,
    query: query({ state: fc.constantFrom(...MAIL_STATES), q: fc.oneof(searchText, validEmail) }),
    ok: [{ status: 200, schema: AdminMailListSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/mail/:mailId/retry',
    group: 'admin',
    principals: admin,
    params: {
      mailId: fc.oneof({ weight: 3, arbitrary: ref('mailId') }, { weight: 1, arbitrary: intString(1, 2_147_483_647) }),
    },
    ok: [{ status: 200, schema: AdminMailResultSchema }],
  },
];

export const operationsOf = (group: FuzzOperation['group']) =>
  FUZZ_OPERATIONS.filter((op) => op.group === group).filter(
    (op) => !process.env.FUZZ_ONLY || `${op.methods.join(',')} ${op.url}` === process.env.FUZZ_ONLY,
  );
