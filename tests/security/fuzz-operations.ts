/**
 * Every operation of the route table with its fuzz entry: who calls it, how valid input looks
 * (mirroring its zod contract), and what a success answers. fuzz.test.ts fails when the live route
 * table holds an operation that is missing here, so a new route cannot skip the fuzz.
 */
import { INBOUND_VIEW_STATES } from '../../src/contracts/inbound.ts';
import {
  InboundDiscardResultSchema,
  InboundListSchema,
  InboundPostResultSchema,
  WholeMailSchema,
} from '../../src/contracts/inbound.schemas.ts';
import fc from 'fast-check';
import { z } from 'zod';
import { AdminLegalSchema, HostedDocumentSchema } from '../../src/contracts/content-admin.ts';
import { AUDIT_ACTIONS, AUDIT_TARGETS, AuditPageSchema } from '../../src/contracts/audit.ts';
import { ANNIVERSARY_REGION_VALUES, ServiceLevelSettingsSchema } from '../../src/contracts/service-levels.ts';
import { REPORT_FIGURES, ReportSchema, ReportTicketsSchema, SPREAD_BUCKETS } from '../../src/contracts/reports.ts';
import {
  COMPANY_STATUSES,
  CompanyDecisionSchema,
  CompanyListSchema,
  CompanyDetailSchema,
  CompanyResultSchema,
} from '../../src/contracts/partner-review.ts';
import { UserListSchema, UserResultSchema } from '../../src/contracts/users.ts';
import { LoginResponseSchema, MessageResponseSchema, SessionResponseSchema } from '../../src/contracts/auth.schemas.ts';
import { CompanyRegistrationResultSchema } from '../../src/contracts/companies.ts';
import { CHANGE_REASONS, CHANGEABLE_FIELDS } from '../../src/contracts/partner-changes.ts';
import { MergeListSchema, MergeTargetsSchema } from '../../src/contracts/ticket-merge.ts';
import {
  FactorRemovedSchema,
  RecoveryCodesSchema,
  SecondFactorStatusSchema,
  TotpEnrolmentSchema,
  WebAuthnOptionsSchema,
} from '../../src/contracts/second-factor.schemas.ts';
import { FAQ_TYPES, LEGAL_DOCUMENTS } from '../../src/contracts/content.ts';
import { FaqListSchema, FaqSchema, LegalLinksSchema } from '../../src/contracts/content.schemas.ts';
import { TICKET_REASON_VALUES } from '../../src/contracts/support.ts';
import {
  AdminMessageSchema,
  AdminTicketListSchema,
  AdminTicketSchema,
  AdminTicketWithMessagesSchema,
  CreateTicketResultSchema,
  MessageListSchema,
  ReplyResultSchema,
  TicketListSchema,
  TicketSchema,
  TicketWithMessagesSchema,
  AdminSearchResultSchema,
} from '../../src/contracts/support.schemas.ts';
import {
  AgentListSchema,
  DeskFiguresSchema,
  SavedReplyListSchema,
  SavedReplySchema,
} from '../../src/contracts/desk.schemas.ts';
import {
  companyFormRequests,
  enc,
  type FuzzRequest,
  hostileString,
  licenseFile,
  nzPhone,
  padded,
  ref,
  text,
  validClientId,
  validEmail,
  validPassword,
  validToken,
} from './fuzz-arbitraries.ts';
import { MAIL_STATES } from '../../src/contracts/notifications.ts';
import {
  AdminMailListSchema,
  AdminMailResultSchema,
  NotificationPreferencesSchema,
} from '../../src/contracts/notifications.schemas.ts';
import {
  DeleteAccountResultSchema,
  DeletionInfoSchema,
  EraseResultSchema,
} from '../../src/contracts/account-deletion.schemas.ts';
import { DataExportSchema } from '../../src/contracts/privacy.schemas.ts';
import {
  AccountProfileSchema,
  AccountSessionsSchema,
  RevokeOthersResponseSchema,
} from '../../src/contracts/account.schemas.ts';
import { type FuzzOperation, requestsFor } from './fuzz-harness.ts';

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
/** A calendar day as 'YYYY-MM-DD', from year 0 (which the database has not) to 9999. */
const nzDay = fc
  .date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
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

/**
 * A message sent as a form with files (multipart, docs/product.md §2.11): 0 to 7 files of every
 * kind (photos, PDFs, random bytes, empty, hostile names and declared types) beside fields of any
 * length, so every refusal path of the attachments is walked.
 */
const messageForm = (
  params: Record<string, fc.Arbitrary<unknown>>,
  fields: fc.Arbitrary<Record<string, unknown>>,
): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      params: fc.record(params),
      fields,
      files: fc.array(
        licenseFile.map((file) => ({ ...file, field: 'files' })),
        { maxLength: 7 },
      ),
    })
    .map(({ params: values, fields: form, files }): FuzzRequest => ({
      label: 'valid',
      params: values,
      query: [],
      body: { kind: 'form', fields: Object.entries(form), files },
    }));
const withFiles = (op: FuzzOperation, form: fc.Arbitrary<FuzzRequest>): FuzzOperation => ({
  ...op,
  requests: fc.oneof({ weight: 3, arbitrary: requestsFor(op) }, { weight: 1, arbitrary: form }),
});
const replyForm = fc.record(
  { messageBody: fc.oneof(fc.constant(''), text(1, 5000)), clientId: fc.oneof(validClientId, ref('clientId')) },
  { requiredKeys: [] },
);
const savedReplyBody = fc.record({ title: text(1, 100), body: text(1, 5000) });
const savedReplyFields = [
  { path: ['title'], min: 1, max: 100 },
  { path: ['body'], min: 1, max: 5000 },
];
/** Opening spans as an admin types them: mostly a day that can be kept, now and then a malformed one. */
const wallTime = fc.constantFrom('00:00', '08:30', '9:00', '12:00', '12:60', '17:00', '24:00', '25:00', '');
const spans = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.constantFrom(
      [],
      [{ start: '09:00', end: '17:00' }],
      [
        { start: '08:30', end: '12:00' },
        { start: '13:00', end: '17:00' },
      ],
    ),
  },
  { weight: 1, arbitrary: fc.array(fc.record({ start: wallTime, end: wallTime }), { maxLength: 3 }) },
);
const calendarBody = fc.record({
  hours: fc.record({
    mon: fc.constant([{ start: '09:00', end: '17:00' }]),
    tue: spans,
    wed: spans,
    thu: spans,
    fri: spans,
    sat: spans,
    sun: spans,
  }),
  anniversary: fc.oneof(
    { weight: 9, arbitrary: fc.oneof(fc.constant(null), fc.constantFrom(...ANNIVERSARY_REGION_VALUES)) },
    { weight: 1, arbitrary: text(1, 10) },
  ),
  overrides: fc.oneof(
    {
      weight: 9,
      arbitrary: fc.subarray([
        { date: '2026-12-24', spans: [], note: 'Christmas Eve' },
        { date: '2027-01-04', spans: [{ start: '10:00', end: '14:00' }], note: '' },
      ]),
    },
    { weight: 1, arbitrary: fc.array(fc.record({ date: text(1, 12), spans, note: text(0, 130) }), { maxLength: 3 }) },
  ),
});
const targetMinutes = fc.oneof(
  { weight: 9, arbitrary: fc.integer({ min: 1, max: 24_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: -10, max: 100_000 }) },
);
const reasonTargets = fc.record({
  firstResponse: targetMinutes,
  nextResponse: targetMinutes,
  resolution: targetMinutes,
});
const targetsBody = fc.record({ General: reasonTargets, Incident: reasonTargets, Deactivation: reasonTargets });
const ticketListQuery = query({ open: fc.constantFrom('true', 'false') });
const adminTicketQuery = query({
  open: fc.constantFrom('true', 'false'),
  q: searchText,
  waiting: fc.constantFrom('us', 'you'),
  assigned: fc.constantFrom('me', 'none'),
  privacy: fc.constantFrom('due', 'overdue'),
});

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
  // The applicant's status link (docs/decisions/112-application-status-page.md): no token is known
  // here, so every guess, of the right shape or not, answers the same 404.
  {
    methods: ['GET'],
    url: '/api/partners/status/:token',
    group: 'public',
    principals: anon,
    params: {
      token: fc.oneof(
        fc.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        hostileString.map((s) => s.slice(0, 150)),
      ),
    },
    ok: [],
  },
  // A new link by mail: every address, known or not, answers the same 202.
  {
    methods: ['POST'],
    url: '/api/partners/status-link',
    group: 'public',
    principals: anon,
    body: fc.record({ email: fc.oneof(ref('companyEmailVariant'), validEmail) }),
    fields: [{ path: ['email'], min: 1, max: 254 }],
    ok: [{ status: 202, schema: z.object({ message: z.string() }) }],
  },
  // What an applicant sends by the link (docs/decisions/113-changes-requested.md): no token is known
  // here, so every guess answers 404 whatever the form holds.
  {
    methods: ['POST'],
    url: '/api/partners/status/:token/changes',
    group: 'public',
    principals: anon,
    params: {
      token: fc.oneof(
        fc.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        hostileString.map((s) => s.slice(0, 150)),
      ),
    },
    requests: companyFormRequests(fc.record({ companyName: ref('companyNameVariant'), address: text(5, 200) })),
    ok: [],
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
    url: '/api/account/export',
    group: 'public',
    principals: user,
    noInput: 'the caller’s own data',
    ok: [{ status: 200, schema: DataExportSchema }],
  },
  // The account page (docs/product.md §2.13).
  {
    methods: ['GET'],
    url: '/api/account',
    group: 'public',
    principals: user,
    noInput: 'the caller’s own profile',
    ok: [{ status: 200, schema: AccountProfileSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/account/sessions',
    group: 'public',
    principals: user,
    noInput: 'the caller’s own sessions',
    ok: [{ status: 200, schema: AccountSessionsSchema }],
  },
  {
    // Ids of the right shape that are nobody's, and the caller's own (the session in use is refused).
    methods: ['DELETE'],
    url: '/api/account/sessions/:sessionId',
    group: 'public',
    principals: user,
    params: {
      sessionId: fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{22}$/), ref('ownSessionId'), text(0, 60)),
    },
    ok: [{ status: 200, schema: MessageResponseSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/account/sessions/revoke-others',
    group: 'public',
    principals: user,
    noInput: 'ends the caller’s other sessions',
    ok: [{ status: 200, schema: RevokeOthersResponseSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/account/email',
    group: 'public',
    principals: ['passwordUser'],
    body: fc.record({
      newEmail: fc.oneof(validEmail, ref('accountEmail')),
      currentPassword: fc.oneof(ref('currentPassword'), validPassword),
    }),
    fields: [
      { path: ['newEmail'], min: 1, max: 254 },
      { path: ['currentPassword'], min: 1, max: 4096 },
    ],
    ok: [{ status: 202, schema: MessageResponseSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/auth/confirm-email-change',
    group: 'public',
    principals: anon,
    body: fc.record({ token: fc.oneof(validToken, ref('changeEmailToken')) }),
    fields: [{ path: ['token'], min: 43, max: 43 }],
    ok: [{ status: 200, schema: MessageResponseSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/account/delete',
    group: 'public',
    principals: user,
    noInput: 'the erasure date a deletion now would get',
    ok: [{ status: 200, schema: DeletionInfoSchema }],
  },
  {
    // Never the right password (that would delete the fuzzed account): a field error that changes nothing.
    methods: ['POST'],
    url: '/api/account/delete',
    group: 'public',
    principals: user,
    body: fc.record({ password: text(1, 1024) }),
    fields: [{ path: ['password'], min: 1, max: 1024 }],
    ok: [{ status: 200, schema: DeleteAccountResultSchema }],
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
    url: '/api/support/tickets/:ticketId/messages/:messageId/mail',
    group: 'support',
    principals: user,
    params: {
      ticketId: uuidOr('ownTicket', 'foreignTicket'),
      messageId: fc.oneof(ref('messageId'), intString(1, 2_147_483_647)),
    },
    ok: [{ status: 200, schema: WholeMailSchema }],
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
  withFiles(
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
    messageForm({ ticketId: uuidOr('ownTicket', 'ownClosedTicket', 'foreignTicket') }, replyForm),
  ),
  withFiles(
    {
      methods: ['POST'],
      url: '/api/support/tickets',
      group: 'support',
      principals: user,
      body: fc.record({ reason: fc.constantFrom(...TICKET_REASON_VALUES), message: text(1, 5000) }),
      fields: [{ path: ['message'], min: 1, max: 5000 }],
      ok: [{ status: 201, schema: CreateTicketResultSchema.shape.result }],
    },
    messageForm(
      {},
      fc.record({ reason: fc.constantFrom(...TICKET_REASON_VALUES, '', 'Other'), message: text(0, 5000) }),
    ),
  ),
  ...['', '/thumbnail'].map((suffix): FuzzOperation => ({
    methods: ['GET'],
    url: `/api/support/tickets/:ticketId/attachments/:attachmentId${suffix}`,
    group: 'support',
    principals: ['user', 'admin'],
    params: {
      ticketId: uuidOr('ownTicket', 'foreignTicket'),
      attachmentId: uuidOr('attachment', 'foreignAttachment'),
    },
    ok: [{ status: 200, kind: 'file' }],
  })),

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
  withFiles(
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
    messageForm({ ticketId: uuidOr('ownTicket', 'ownClosedTicket', 'foreignTicket') }, replyForm),
  ),
  ...(['close', 'reopen'] as const).map((action): FuzzOperation => ({
    methods: ['POST'],
    url: `/api/admin/support/tickets/:ticketId/${action}`,
    group: 'support',
    principals: admin,
    params: { ticketId: uuidOr('ownTicket', 'ownClosedTicket', 'foreignTicket') },
    ok: [{ status: 200, schema: z.object({ ticket: AdminTicketSchema }) }],
  })),

  // --- Support: the desk's tools (docs/product.md §2.10) -------------------------------------------
  {
    methods: ['POST'],
    url: '/api/support/tickets/:ticketId/rating',
    group: 'support',
    principals: user,
    params: { ticketId: uuidOr('ownTicket', 'ownClosedTicket', 'foreignTicket') },
    body: fc.record(
      { good: fc.boolean(), comment: fc.oneof(text(0, 1000), fc.constant(undefined)) },
      { requiredKeys: ['good'] },
    ),
    fields: [{ path: ['comment'], min: 0, max: 1000 }],
    ok: [{ status: 200, schema: z.object({ ticket: TicketSchema }) }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/support/tickets/:ticketId/notes',
    group: 'support',
    principals: admin,
    params: { ticketId: uuidOr('ownTicket', 'ownClosedTicket', 'foreignTicket') },
    body: replyBody,
    fields: replyFields,
    ok: [{ status: 200, schema: z.object({ message: AdminMessageSchema }) }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/support/tickets/:ticketId/assign',
    group: 'support',
    principals: admin,
    params: { ticketId: uuidOr('ownTicket', 'ownClosedTicket', 'foreignTicket') },
    body: fc.record({ assignee: fc.oneof(fc.constant('me'), fc.constant(null), uuidOr('agent', 'ownTicket')) }),
    ok: [{ status: 200, schema: z.object({ ticket: AdminTicketSchema }) }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/support/tickets/:ticketId/privacy',
    group: 'support',
    principals: admin,
    params: { ticketId: uuidOr('ownTicket', 'ownClosedTicket', 'foreignTicket') },
    body: fc.record({ privacy: fc.boolean() }),
    ok: [{ status: 200, schema: z.object({ ticket: AdminTicketSchema }) }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/support/tickets/:ticketId/keep-for-record',
    group: 'support',
    principals: admin,
    params: { ticketId: uuidOr('ownTicket', 'ownClosedTicket', 'foreignTicket') },
    body: fc.record({ keep: fc.boolean() }),
    ok: [{ status: 200, schema: z.object({ ticket: AdminTicketSchema }) }],
  },
  // Merging (docs/decisions/116-ticket-merge.md): the candidates; a merge into another customer's
  // ticket or one that does not exist (refused), so the shared fixtures stay whole.
  {
    methods: ['GET'],
    url: '/api/admin/support/tickets/:ticketId/merge-targets',
    group: 'support',
    principals: admin,
    params: { ticketId: uuidOr('ownTicket', 'ownClosedTicket', 'foreignTicket') },
    ok: [{ status: 200, schema: MergeTargetsSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/admin/support/tickets/:ticketId/merges',
    group: 'support',
    principals: admin,
    params: { ticketId: uuidOr('ownTicket', 'ownClosedTicket', 'foreignTicket') },
    ok: [{ status: 200, schema: MergeListSchema }],
  },
  // No merge of the fuzz's world is undone: numbers that name none.
  {
    methods: ['POST'],
    url: '/api/admin/support/merges/:mergeId/undo',
    group: 'support',
    principals: admin,
    params: { mergeId: fc.oneof(fc.integer({ min: 900_000_000, max: 2_000_000_000 }).map(String), hostileString) },
    ok: [],
  },
  // Splits of the fuzz's world at messages that are not there (refused), so the fixtures stay whole.
  {
    methods: ['POST'],
    url: '/api/admin/support/tickets/:ticketId/split',
    group: 'support',
    principals: admin,
    params: { ticketId: uuidOr('ownTicket', 'foreignTicket') },
    body: fc.record({
      messageId: fc.integer({ min: 900_000_000, max: 2_000_000_000 }),
      reason: fc.constantFrom('General', 'Incident', 'Deactivation'),
    }),
    ok: [],
  },
  {
    methods: ['POST'],
    url: '/api/admin/support/tickets/:ticketId/merge',
    group: 'support',
    principals: admin,
    params: { ticketId: uuidOr('ownTicket') },
    body: fc.record({ targetTicketId: uuidOr('foreignTicket') }),
    ok: [],
  },
  {
    methods: ['GET'],
    url: '/api/admin/support/agents',
    group: 'support',
    principals: admin,
    noInput: 'the list of admins',
    ok: [{ status: 200, schema: AgentListSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/admin/support/figures',
    group: 'support',
    principals: admin,
    noInput: 'the team figures',
    ok: [{ status: 200, schema: DeskFiguresSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/admin/support/search',
    group: 'support',
    principals: admin,
    query: query(
      { q: fc.oneof(searchText, fc.constantFrom('"unclosed', '-', 'a & b | !c', '<->', ':*', 'parcel -lost')) },
      ['q'],
    ),
    ok: [{ status: 200, schema: AdminSearchResultSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/admin/support/saved-replies',
    group: 'admin',
    principals: admin,
    noInput: 'the saved replies',
    ok: [{ status: 200, schema: SavedReplyListSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/support/saved-replies',
    group: 'admin',
    principals: admin,
    body: savedReplyBody,
    fields: savedReplyFields,
    ok: [{ status: 200, schema: z.object({ savedReply: SavedReplySchema }) }],
  },
  {
    methods: ['PUT'],
    url: '/api/admin/support/saved-replies/:savedReplyId',
    group: 'admin',
    principals: admin,
    params: { savedReplyId: uuidOr('savedReply') },
    body: savedReplyBody,
    fields: savedReplyFields,
    ok: [{ status: 200, schema: z.object({ savedReply: SavedReplySchema }) }],
  },
  {
    methods: ['DELETE'],
    url: '/api/admin/support/saved-replies/:savedReplyId',
    group: 'admin',
    principals: admin,
    params: {
      savedReplyId: fc.oneof({ weight: 1, arbitrary: ref('savedReply') }, { weight: 2, arbitrary: fc.uuid() }),
    },
    ok: [{ status: 200, schema: z.object({ savedReply: SavedReplySchema }) }],
  },

  // --- Admin: service levels (decision 108) ----------------------------------------------------------
  {
    methods: ['GET'],
    url: '/api/admin/service-levels',
    group: 'admin',
    principals: admin,
    noInput: 'the calendar and the targets',
    ok: [{ status: 200, schema: ServiceLevelSettingsSchema }],
  },
  {
    methods: ['PUT'],
    url: '/api/admin/service-levels/calendar',
    group: 'admin',
    principals: admin,
    body: calendarBody,
    ok: [{ status: 200, schema: ServiceLevelSettingsSchema }],
  },
  {
    methods: ['PUT'],
    url: '/api/admin/service-levels/targets',
    group: 'admin',
    principals: admin,
    body: targetsBody,
    ok: [{ status: 200, schema: ServiceLevelSettingsSchema }],
  },

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
    ok: [{ status: 200, schema: CompanyDetailSchema }],
  },
  // Approve's body is optional: the licence's expiry date (docs/decisions/115-licence-expiry.md).
  {
    methods: ['POST'],
    url: '/api/admin/companies/:companyId/approve',
    group: 'admin',
    principals: admin,
    params: { companyId: uuidOr('company') },
    body: fc.record({ licenseExpiresOn: fc.oneof(nzDay, fc.constant('2099-12-31')) }, { requiredKeys: [] }),
    ok: [{ status: 200, schema: CompanyDecisionSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/companies/:companyId/notify',
    group: 'admin',
    principals: admin,
    params: { companyId: uuidOr('company') },
    ok: [{ status: 200, schema: CompanyDecisionSchema }],
  },
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
  // Changes requested (docs/decisions/113-changes-requested.md): reasons, the fields Other opens, a note.
  {
    methods: ['POST'],
    url: '/api/admin/companies/:companyId/request-changes',
    group: 'admin',
    principals: admin,
    params: { companyId: uuidOr('company') },
    body: fc.record(
      {
        reasons: fc.uniqueArray(fc.constantFrom(...CHANGE_REASONS), { minLength: 1 }),
        fields: fc.uniqueArray(fc.constantFrom(...CHANGEABLE_FIELDS)),
        note: text(0, 1000),
      },
      { requiredKeys: ['reasons'] },
    ),
    ok: [{ status: 200, schema: z.object({ mail: z.enum(['queued', 'no-address']) }) }],
  },
  // A partner's new licence (docs/decisions/115-licence-expiry.md): download, accept with its date, refuse.
  {
    methods: ['GET'],
    url: '/api/admin/companies/:companyId/renewal-license',
    group: 'admin',
    principals: admin,
    params: { companyId: uuidOr('company') },
    ok: [{ status: 200, kind: 'binary' }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/companies/:companyId/renewal-license/accept',
    group: 'admin',
    principals: admin,
    params: { companyId: uuidOr('company') },
    body: fc.record({ licenseExpiresOn: fc.oneof(nzDay, fc.constant('2099-12-31')) }),
    ok: [{ status: 200, schema: CompanyDecisionSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/companies/:companyId/renewal-license/refuse',
    group: 'admin',
    principals: admin,
    params: { companyId: uuidOr('company') },
    body: fc.record({ reason: text(1, 1000) }),
    fields: [{ path: ['reason'], min: 1, max: 1000 }],
    ok: [{ status: 200, schema: CompanyDecisionSchema }],
  },

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
    // Neither pool asked to be deleted: every answer is a refusal (409, or 403 for oneself) that changes nothing.
    methods: ['POST'],
    url: '/api/admin/users/:userId/erase',
    group: 'admin',
    principals: admin,
    params: { userId: uuidOr('victim', 'self') },
    ok: [{ status: 200, schema: EraseResultSchema }],
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
      actor: fc.oneof(validEmail, searchText),
      action: fc.oneof(fc.constantFrom(...Object.keys(AUDIT_ACTIONS)), text(1, 40)),
      from: fc.oneof(nzDay, text(1, 12)),
      to: fc.oneof(nzDay, text(1, 12)),
    }),
    ok: [{ status: 200, schema: AuditPageSchema }],
  },
  // --- Reports (decision 109) -------------------------------------------------------------------------
  {
    methods: ['GET'],
    url: '/api/admin/reports',
    group: 'admin',
    principals: admin,
    query: query({ from: fc.oneof(nzDay, text(1, 12)), to: fc.oneof(nzDay, text(1, 12)) }),
    ok: [{ status: 200, schema: ReportSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/admin/reports/tickets',
    group: 'admin',
    principals: admin,
    query: query({
      from: fc.oneof(nzDay, text(1, 12)),
      to: fc.oneof(nzDay, text(1, 12)),
      figure: fc.oneof(fc.constantFrom(...Object.keys(REPORT_FIGURES)), text(1, 20)),
      bucket: fc.oneof(fc.constantFrom(...SPREAD_BUCKETS.map((b) => b.key)), text(1, 10)),
      day: fc.oneof(nzDay, text(1, 12)),
      weekday: fc.oneof(intString(1, 7), intString(-10, 100)),
      hour: fc.oneof(intString(0, 23), intString(-10, 100)),
      admin: uuidOr('self'),
    }),
    ok: [{ status: 200, schema: ReportTicketsSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/admin/reports/tickets.csv',
    group: 'admin',
    principals: admin,
    query: query({ from: fc.oneof(nzDay, text(1, 12)), to: fc.oneof(nzDay, text(1, 12)) }),
    ok: [{ status: 200, kind: 'text' }],
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
  // --- Reply by email: the Incoming view (decision 105) ----------------------------------------------
  {
    methods: ['GET'],
    url: '/api/admin/mail/incoming',
    group: 'admin',
    principals: admin,
    query: query({ state: fc.constantFrom(...INBOUND_VIEW_STATES) }),
    ok: [{ status: 200, schema: InboundListSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/mail/incoming/:inboundId/post',
    group: 'admin',
    principals: admin,
    params: { inboundId: intString(1, 2_147_483_647) },
    ok: [{ status: 200, schema: InboundPostResultSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/mail/incoming/:inboundId/discard',
    group: 'admin',
    principals: admin,
    params: { inboundId: intString(1, 2_147_483_647) },
    ok: [{ status: 200, schema: InboundDiscardResultSchema }],
  },
  // --- Admins' second factor (docs/product.md §2.15) ------------------------------------------------
  {
    // The fuzzed accounts have no passkey: a right password answers a field error, a wrong one 401.
    methods: ['POST'],
    url: '/api/auth/passkey/options',
    group: 'public',
    principals: anon,
    body: fc.oneof(
      fc.record({ email: validEmail, password: validPassword }),
      fc.nat().map((index) => ({
        email: { $ref: 'accountEmail', index },
        password: { $ref: 'accountPassword', index },
      })),
    ),
    fields: [
      { path: ['email'], min: 1, max: 254 },
      { path: ['password'], min: 1, max: 4096 },
    ],
    ok: [{ status: 200, schema: WebAuthnOptionsSchema }],
  },
  {
    methods: ['GET'],
    url: '/api/admin/second-factor',
    group: 'admin',
    principals: admin,
    noInput: "the admin's own factors",
    ok: [{ status: 200, schema: SecondFactorStatusSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/second-factor/totp',
    group: 'admin',
    principals: admin,
    noInput: 'a secret for an authenticator app',
    ok: [{ status: 200, schema: TotpEnrolmentSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/second-factor/totp/confirm',
    group: 'admin',
    principals: admin,
    body: fc.record(
      { factorId: fc.uuid(), code: fc.stringMatching(/^\d{6}$/), label: text(0, 60) },
      { requiredKeys: ['factorId', 'code'] },
    ),
    fields: [{ path: ['label'], min: 0, max: 60 }],
    ok: [{ status: 200, schema: RecoveryCodesSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/second-factor/passkey/options',
    group: 'admin',
    principals: admin,
    noInput: 'WebAuthn creation options',
    ok: [{ status: 200, schema: WebAuthnOptionsSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/second-factor/passkey',
    group: 'admin',
    principals: admin,
    body: fc.record(
      {
        response: fc.record({
          id: fc.base64String().map((v) => v.replace(/[+/=]/g, '') || 'AA'),
          rawId: fc.base64String().map((v) => v.replace(/[+/=]/g, '') || 'AA'),
          type: fc.constant('public-key'),
          response: fc.record({
            clientDataJSON: fc.base64String().map((v) => v.replace(/[+/=]/g, '')),
            attestationObject: fc.base64String().map((v) => v.replace(/[+/=]/g, '')),
          }),
          clientExtensionResults: fc.constant({}),
        }),
        label: text(0, 60),
      },
      { requiredKeys: ['response'] },
    ),
    ok: [{ status: 200, schema: RecoveryCodesSchema }],
  },
  {
    methods: ['DELETE'],
    url: '/api/admin/second-factor/:factorId',
    group: 'admin',
    principals: admin,
    // The fuzz admin's only factor: refused as the last one (it is never removed), or unknown ids.
    params: { factorId: fc.oneof({ weight: 1, arbitrary: ref('secondFactor') }, { weight: 1, arbitrary: fc.uuid() }) },
    ok: [{ status: 200, schema: FactorRemovedSchema }],
  },
  {
    methods: ['POST'],
    url: '/api/admin/second-factor/recovery-codes',
    group: 'admin',
    principals: admin,
    noInput: 'ten new recovery codes',
    ok: [{ status: 200, schema: RecoveryCodesSchema }],
  },
];

export const operationsOf = (group: FuzzOperation['group']) =>
  FUZZ_OPERATIONS.filter((op) => op.group === group).filter(
    (op) => !process.env.FUZZ_ONLY || `${op.methods.join(',')} ${op.url}` === process.env.FUZZ_ONLY,
  );
