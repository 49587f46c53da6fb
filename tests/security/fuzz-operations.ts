/**
 * The fuzz's operations: every endpoint declaration of the index (src/contracts/api/index.ts), its
 * method, path and valid inputs derived from the declaration's own zod schemas (fuzz-schema.ts) and
 * its successes from its declared answers; beside it, by the declaration's name, only what a
 * schema cannot say: which fuzz file runs it and as whom, the ids of the fuzz's world an input must
 * name, the refinements and the adversarial values worth sending. The few routes that are not API
 * declarations (health, the API description, robots and sitemap, hosted documents, the /api/*
 * catch-all) are written out by hand. fuzz.test.ts fails when the live route table holds an
 * operation that is missing here, or a declaration has no entry in FUZZ, so a new route cannot skip
 * the fuzz.
 */
import fc from 'fast-check';
import { z } from 'zod';
import { type EndpointKey, namedEndpoints } from '../../src/contracts/api/index.ts';
import { appApi } from '../../src/contracts/api/integrations.ts';
import { supportApi } from '../../src/contracts/api/support.ts';
import { type AccessPolicy, type EndpointDeclaration, isPermission } from '../../src/contracts/endpoint.ts';
import { FAQ_TYPES, LEGAL_DOCUMENTS } from '../../src/contracts/content.ts';
import { ANNIVERSARY_REGION_VALUES } from '../../src/contracts/service-levels.ts';
import { TICKET_REASON_VALUES } from '../../src/contracts/support.ts';
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
import { type FuzzOperation, type OkSpec, requestsFor } from './fuzz-harness.ts';
import { arbitraryOf, fieldRulesOf, fieldsOf, type Given, nzDay, queryOf } from './fuzz-schema.ts';

/** A sign-in the fuzz knows the password of (its state `accounts`). */
export interface Account {
  email: string;
  password: string;
}
const jsonBody = (request: FuzzRequest) =>
  request.body.kind === 'json' && request.body.value && typeof request.body.value === 'object'
    ? (request.body.value as Record<string, unknown>)
    : null;

const uuidOr = (...pools: string[]) =>
  fc.oneof(...pools.map((p) => ({ weight: 3, arbitrary: ref(p) })), { weight: 1, arbitrary: fc.uuid() });
const intString = (min: number, max: number) => fc.integer({ min, max }).map(String);
/** A pool of the fuzz's world, or (now and then) a number that names nothing. */
const idOr = (pool: string, weights: [number, number] = [3, 1]) =>
  fc.oneof(
    { weight: weights[0], arbitrary: ref(pool) },
    { weight: weights[1], arbitrary: intString(1, 2_147_483_647) },
  );
/** Numbers that name no merge and no message of the fuzz's world. */
const unknownId = fc.integer({ min: 900_000_000, max: 2_000_000_000 });
const searchText = fc.oneof(fc.constant(''), text(1, 200), fc.constantFrom('%', '_', '\\', "'", '100', '@example.nz'));
const knownEmail = fc.oneof(validEmail, ref('accountEmail'));
/** Status link tokens: none is known to the fuzz, so every guess, of the right shape or not, answers 404. */
const guessedToken = fc.oneof(
  validToken,
  hostileString.map((s) => s.slice(0, 150)),
);

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

/**
 * What a field of a given name holds wherever it sits, where its schema cannot make it valid: ids
 * that must name an object of the fuzz's world (each fuzz file fills the pools), and refinements
 * JSON Schema does not carry (an email, a password, a date that exists).
 */
const WORLD: Given = {
  ticketId: uuidOr('ownTicket', 'ownClosedTicket', 'foreignTicket'),
  attachmentId: uuidOr('attachment', 'foreignAttachment'),
  messageId: fc.oneof(ref('messageId'), intString(1, 2_147_483_647)),
  after: fc.oneof(intString(0, 2_147_483_647), ref('messageId')),
  clientId: fc.oneof(validClientId, ref('clientId')),
  companyId: uuidOr('company'),
  userId: uuidOr('victim', 'self'),
  savedReplyId: uuidOr('savedReply'),
  sideId: fc.uuid(),
  labelId: fc.uuid(),
  faqId: idOr('faq'),
  mailId: idOr('mailId'),
  // The fuzz admin's only factor: refused as the last one (it is never removed), or unknown ids.
  factorId: fc.oneof(ref('secondFactor'), fc.uuid()),
  // Ids of the right shape that are nobody's, and the caller's own (the session in use is refused).
  sessionId: fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{22}$/), ref('ownSessionId'), text(0, 60)),
  token: guessedToken,
  email: validEmail,
  newEmail: validEmail,
  password: validPassword,
  newPassword: validPassword,
  currentPassword: fc.oneof(ref('currentPassword'), validPassword),
  licenseExpiresOn: fc.oneof(nzDay, fc.constant('2099-12-31')),
  q: searchText,
  keyId: uuidOr('apiKey'),
  endpointId: uuidOr('webhook'),
  deliveryId: fc.oneof(ref('delivery'), intString(1, 2_147_483_647)),
  userEmail: fc.oneof(ref('appUserEmail'), validEmail),
};

/** Blank 3 times in 4, else one of these values. */
const mostlyBlank = (...values: Array<string | number>) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom(...values) });
/**
 * An incident's fields (the Contact us form's and the app's): each mostly blank, so that a plain
 * ticket is a fair share of the valid inputs, and otherwise a value the rules take or refuse.
 */
const INCIDENT: Given = {
  claimKind: mostlyBlank('lost', 'late', 'other', 'damaged', 'lunch'),
  itemValue: mostlyBlank('120', '$1,200.50', 45, 'ten dollars'),
  deliveredOn: mostlyBlank('2026-11-30', '2099-01-01', '30/11/2026'),
};
/** What the schemas refine across fields, which JSON Schema cannot say: an incident's fields come with an Incident report only. */
const incidentOnlyOnIncident = (ticket: Record<string, unknown>) =>
  ticket.reason === 'Incident'
    ? ticket
    : Object.fromEntries(Object.entries(ticket).filter(([field]) => !(field in INCIDENT)));

/** The Contact us callable's ticket ({ data }). */
const callTicketBody = arbitraryOf(supportApi.createTicketCall.body, { ...WORLD, ...INCIDENT }).map((body) => {
  const { data } = body as { data: Record<string, unknown> };
  return { ...(body as object), data: incidentOnlyOnIncident(data) };
});

/** The app's ticket: its user named one way (email or id, never both: the schema refines that too). */
const appTicketBody = fc
  .tuple(
    arbitraryOf(appApi.openTicket.body, { ...WORLD, ...INCIDENT }),
    fc.oneof(fc.record({ userEmail: WORLD.userEmail! }), fc.record({ userId: uuidOr('appUser') })),
  )
  .map(([generated, user]) => {
    const { userEmail: _email, userId: _id, ...ticket } = generated as Record<string, unknown>;
    return { ...user, ...incidentOnlyOnIncident(ticket) };
  });

/** A webhook endpoint's address: nobody listens on port 9 (the fuzz's worker never runs), or none of ours. */
const webhookUrl = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('http://127.0.0.1:9/fuzz', 'https://app.example.com/hooks?x=1') },
  { weight: 1, arbitrary: text(0, 600) },
);

const replyForm = fc.record(
  { messageBody: fc.oneof(fc.constant(''), text(1, 5000)), clientId: WORLD.clientId! },
  { requiredKeys: [] },
);

/** What a declaration's fuzz needs beyond its declaration. */
interface FuzzEntry {
  group: FuzzOperation['group'];
  /** Who calls it, where not the access policy's first caller (anonymous, user, admin). */
  principals?: string[];
  /** Field generators of this declaration, over WORLD's. */
  given?: Given;
  /** Replaces the body derived from the schema. */
  body?: fc.Arbitrary<unknown>;
  /** Also sends the declaration's form with files (multipart 'also'): these fields beside 0 to 7 files. */
  form?: fc.Arbitrary<Record<string, unknown>>;
  /** Replaces the generated requests entirely (multipart 'only'). */
  requests?: fc.Arbitrary<FuzzRequest>;
  headers?: fc.Arbitrary<Record<string, string>>;
  /** The success a download answers (its declared answers describe no body). */
  kind?: OkSpec['kind'];
  /** `[]`: no input of the fuzz's world can succeed, so any 2xx is a bug. */
  ok?: OkSpec[];
  background?: string[];
  afterOk?: FuzzOperation['afterOk'];
}

const PUBLIC: FuzzEntry = { group: 'public' };
const SUPPORT: FuzzEntry = { group: 'support' };
const ADMIN: FuzzEntry = { group: 'admin' };
const MAILS_TOKENS: FuzzEntry = { group: 'public', background: ['email_tokens'] };
const EITHER: FuzzEntry = { group: 'support', principals: ['user', 'admin'], kind: 'file' };
const byPassword = (given: Given = {}): FuzzEntry => ({ group: 'public', principals: ['passwordUser'], given });

/** A sign-in of an account the fuzz knows (its email as typed, or upper case with spaces around). */
const knownAccount = fc.record({ index: fc.nat(), upper: fc.boolean() }).map(({ index, upper }) => ({
  email: { $ref: upper ? 'accountEmailUpper' : 'accountEmail', index },
  password: { $ref: 'accountPassword', index },
}));
const sessionKind = fc.constantFrom('cookie', 'token');

/** Each declaration's fuzz, by its name. A declaration missing here, or an entry that names none, fails fuzz.test.ts. */
export const FUZZ: Record<EndpointKey, FuzzEntry> = {
  // --- Accounts ----------------------------------------------------------------------------------
  'auth.login': {
    group: 'public',
    body: fc.oneof(
      fc.record(
        { email: validEmail, password: validPassword, session: sessionKind },
        { requiredKeys: ['email', 'password'] },
      ),
      fc
        .tuple(knownAccount, fc.option(sessionKind, { nil: undefined }))
        .map(([account, session]) => (session ? { ...account, session } : account)),
    ),
  },
  'auth.logout': {
    group: 'public',
    // The session it ends comes from the cookie or bearer token: fuzzed as headers.
    headers: fc.oneof(
      fc.constant<Record<string, string>>({}),
      validToken.map((token) => ({ cookie: `session=${token}` })),
      hostileString.map((s) => ({ cookie: `session=${enc(s.slice(0, 500))}` })),
      validToken.map((token) => ({ authorization: `Bearer ${token}` })),
      fc.constantFrom<Record<string, string>>(
        { authorization: 'Bearer' },
        { authorization: 'Basic dXNlcjpwYXNz' },
        { cookie: 'session=' },
        { cookie: 'session=a; session=b' },
      ),
    ),
  },
  'auth.session': PUBLIC,
  'auth.signup': {
    ...MAILS_TOKENS,
    given: { email: knownEmail },
    afterOk: (ctx, request) => {
      // A new account: later sign-ins may use it (an existing one keeps its password).
      const body = jsonBody(request);
      if (typeof body?.email !== 'string' || typeof body.password !== 'string') return;
      const email = body.email.trim().toLowerCase();
      const accounts = ctx.state.accounts as Account[];
      if (!accounts.some((a) => a.email === email)) accounts.push({ email, password: body.password });
    },
  },
  'auth.verifyEmail': { group: 'public', given: { token: fc.oneof(validToken, ref('verifyToken')) } },
  'auth.resendVerification': { ...MAILS_TOKENS, given: { email: knownEmail } },
  'auth.forgotPassword': { ...MAILS_TOKENS, given: { email: knownEmail } },
  'auth.resetPassword': {
    group: 'public',
    given: { token: fc.oneof(validToken, ref('resetToken')) },
    afterOk: (ctx, request) => {
      const body = jsonBody(request);
      const email = (ctx.state.tokenOwners as Map<string, string>).get(String(body?.token));
      const account = (ctx.state.accounts as Account[]).find((a) => a.email === email);
      if (account && typeof body?.password === 'string') account.password = body.password;
    },
  },
  'auth.changePassword': {
    ...byPassword(),
    afterOk: (ctx, request) => {
      // The password changed: later valid inputs must know the new one.
      const body = jsonBody(request);
      if (typeof body?.newPassword === 'string') ctx.state.currentPassword = body.newPassword;
    },
  },
  'auth.confirmEmailChange': { group: 'public', given: { token: fc.oneof(validToken, ref('changeEmailToken')) } },
  // The account page (docs/product.md §2.13).
  'account.profile': PUBLIC,
  'account.sessions': PUBLIC,
  'account.endSession': PUBLIC,
  'account.endOtherSessions': PUBLIC,
  'account.setName': PUBLIC,
  'account.changeEmail': byPassword({ newEmail: knownEmail }),
  'notifications.preferences': PUBLIC,
  'notifications.setPreferences': PUBLIC,
  'privacy.exportData': PUBLIC,
  'privacy.deletionInfo': PUBLIC,
  // Never the right password (that would delete the fuzzed account): a field error that changes nothing.
  'privacy.deleteAccount': { group: 'public', given: { password: text(1, 1024) } },
  // The fuzzed accounts have no passkey: a right password answers a field error, a wrong one 401.
  'secondFactor.passkeySignInOptions': {
    group: 'public',
    body: fc.oneof(fc.record({ email: validEmail, password: validPassword }), knownAccount),
  },

  // --- Public: content and partner registration ---------------------------------------------------
  'content.faqs': PUBLIC,
  'content.legalLinks': PUBLIC,
  'partners.register': {
    group: 'public',
    requests: companyFormRequests(
      fc.record({
        companyName: ref('companyNameVariant'),
        phoneNumber: fc.oneof(ref('companyPhoneVariant'), nzPhone),
        address: text(5, 200),
        contactPersonEmail: fc.oneof(ref('companyEmailVariant'), validEmail, fc.constant('')),
      }),
    ),
  },
  // The applicant's status link (docs/decisions/112-application-status-page.md): no token is known.
  'partners.status': { group: 'public', ok: [] },
  // A new link by mail: every address, known or not, answers the same 202.
  'partners.statusLink': { group: 'public', given: { email: fc.oneof(ref('companyEmailVariant'), validEmail) } },
  // What an applicant sends by the link (docs/decisions/113-changes-requested.md): no token is known,
  // so every guess answers 404 whatever the form holds.
  'partners.sendChanges': {
    group: 'public',
    requests: companyFormRequests(fc.record({ companyName: ref('companyNameVariant'), address: text(5, 200) })),
    ok: [],
  },

  // --- Support: the user's side --------------------------------------------------------------------
  'support.createTicketCall': { group: 'support', body: callTicketBody },
  'support.listTickets': SUPPORT,
  'support.ticketsStream': SUPPORT,
  'support.ticket': SUPPORT,
  'support.messages': SUPPORT,
  'support.messagesStream': { group: 'support', principals: ['user', 'admin'] },
  'support.createTicket': {
    group: 'support',
    form: fc.record({ reason: fc.constantFrom(...TICKET_REASON_VALUES, '', 'Other'), message: text(0, 5000) }),
  },
  'support.reply': { group: 'support', form: replyForm },
  'support.rate': SUPPORT,
  'support.seen': SUPPORT,
  'attachments.file': EITHER,
  'attachments.thumbnail': EITHER,
  'inbound.wholeMail': SUPPORT,

  // --- Support: the desk (docs/product.md §2.10) ----------------------------------------------------
  'desk.listTickets': SUPPORT,
  'desk.ticketsStream': SUPPORT,
  'desk.ticket': SUPPORT,
  'desk.reply': { group: 'support', form: replyForm },
  'desk.presence': SUPPORT,
  'desk.close': SUPPORT,
  'desk.reopen': SUPPORT,
  'desk.addNote': SUPPORT,
  'desk.assign': {
    group: 'support',
    given: { assignee: fc.oneof(fc.constant('me'), fc.constant(null), uuidOr('agent', 'ownTicket')) },
  },
  'desk.setPrivacy': SUPPORT,
  // Any reference the schema takes is stored (then kept or corrected); others are a 400 in words.
  'desk.setDeliveryReference': {
    group: 'support',
    given: {
      deliveryReference: fc.oneof(
        fc.constant(null),
        fc.constantFrom('BGS-1001', ' BGS-1002 ', '', 'a.b_c-9', 'x'.repeat(64), 'x'.repeat(65), 'BGS 1001', 'BGS/1'),
        hostileString,
      ),
    },
  },
  'desk.delivery': SUPPORT,
  'claims.claim': SUPPORT,
  'claims.decide': SUPPORT,
  'claims.waitForSender': SUPPORT,
  'claims.askTraveller': SUPPORT,
  'claims.carrier': SUPPORT,
  'claims.travellerClaim': SUPPORT,
  'claims.travellerAnswer': SUPPORT,
  'claims.senderClaim': SUPPORT,
  'claims.appeal': SUPPORT,
  'desk.applyMacro': {
    group: 'support',
    given: { savedReplyId: fc.oneof({ weight: 1, arbitrary: ref('savedReply') }, { weight: 2, arbitrary: fc.uuid() }) },
  },
  'desk.setKeepForRecord': SUPPORT,
  // Merging (docs/decisions/116-ticket-merge.md): a merge into another customer's ticket or one
  // that does not exist, a split at a message that is not there, an undo of no merge: all refused,
  // so the shared fixtures stay whole.
  'desk.mergeTargets': SUPPORT,
  'desk.merges': SUPPORT,
  'desk.merge': {
    group: 'support',
    given: { ticketId: uuidOr('ownTicket'), targetTicketId: uuidOr('foreignTicket') },
    ok: [],
  },
  'desk.split': {
    group: 'support',
    given: { ticketId: uuidOr('ownTicket', 'foreignTicket'), messageId: unknownId },
    ok: [],
  },
  'desk.undoMerge': { group: 'support', given: { mergeId: fc.oneof(unknownId.map(String), hostileString) }, ok: [] },
  'desk.agents': SUPPORT,
  'desk.figures': SUPPORT,
  'desk.firstSteps': SUPPORT,
  'desk.search': {
    group: 'support',
    given: { q: fc.oneof(searchText, fc.constantFrom('"unclosed', '-', 'a & b | !c', '<->', ':*', 'parcel -lost')) },
  },
  'desk.savedReplies': ADMIN,
  'desk.createSavedReply': ADMIN,
  'desk.updateSavedReply': ADMIN,
  'labels.list': ADMIN,
  'labels.create': ADMIN,
  'labels.rename': ADMIN,
  'labels.remove': ADMIN,
  'labels.setTicketLabels': SUPPORT,
  'apiKeys.list': ADMIN,
  'apiKeys.create': ADMIN,
  'apiKeys.revoke': ADMIN,
  'apiKeys.rotate': ADMIN,
  'webhooks.list': ADMIN,
  'webhooks.create': { group: 'admin', given: { url: webhookUrl } },
  'webhooks.update': { group: 'admin', given: { url: webhookUrl } },
  'webhooks.remove': ADMIN,
  'webhooks.secret': ADMIN,
  'webhooks.deliveries': ADMIN,
  'webhooks.redeliver': ADMIN,
  // The app's own routes, as its service key (every scope): its users are the support fuzz's.
  // The incident's fields (decision 153) mostly left blank, so a share of the bodies is a plain
  // ticket that reaches the handler; the rest are claims, checked field by field.
  'app.openTicket': { group: 'support', body: appTicketBody },
  'app.postMessage': { group: 'support' },
  'app.tickets': { group: 'support', given: { userId: uuidOr('appUser') } },
  'app.ticket': { group: 'support' },
  'app.partners': { group: 'support' },
  'bulk.apply': ADMIN,
  'bulk.undo': { group: 'admin', given: { bulkId: fc.oneof(fc.uuid(), hostileString) }, ok: [] },
  'desk.deleteSavedReply': {
    group: 'admin',
    given: { savedReplyId: fc.oneof({ weight: 1, arbitrary: ref('savedReply') }, { weight: 2, arbitrary: fc.uuid() }) },
  },

  // --- Admin: partner review ------------------------------------------------------------------------
  'partnerReview.list': ADMIN,
  'partnerReview.get': ADMIN,
  'partnerReview.approve': ADMIN,
  'partnerReview.reject': ADMIN,
  'partnerReview.notify': ADMIN,
  'partnerReview.ban': ADMIN,
  'partnerReview.unban': ADMIN,
  'partnerReview.license': {
    group: 'admin',
    given: { companyId: uuidOr('licensedCompany', 'company') },
    kind: 'binary',
  },
  'partnerReview.licensePreview': {
    group: 'admin',
    given: { companyId: uuidOr('licensedCompany', 'company') },
    kind: 'binary',
  },
  'partnerReview.renewalLicense': { group: 'admin', kind: 'binary' },
  'partnerReview.acceptLicense': ADMIN,
  'partnerReview.refuseLicense': ADMIN,
  'partnerChanges.request': ADMIN,

  // --- Admin: content, service levels ------------------------------------------------------------------
  'contentAdmin.listFaqs': ADMIN,
  'contentAdmin.createFaq': ADMIN,
  'contentAdmin.updateFaq': ADMIN,
  'contentAdmin.deleteFaq': { group: 'admin', given: { faqId: idOr('faq', [1, 2]) } },
  'contentAdmin.reorderFaqs': {
    group: 'admin',
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
  },
  'contentAdmin.legal': ADMIN,
  'contentAdmin.saveLegalLinks': { group: 'admin', given: { terms: padded(link), privacy: padded(link) } },
  'contentAdmin.saveDocument': {
    group: 'admin',
    given: { body: fc.oneof({ weight: 6, arbitrary: text(1, 3000) }, { weight: 1, arbitrary: text(1, 200_000) }) },
  },
  'serviceLevels.settings': ADMIN,
  'serviceLevels.saveCalendar': { group: 'admin', body: calendarBody },
  'serviceLevels.saveTargets': ADMIN,
  'serviceLevels.claimPeriods': ADMIN,
  'serviceLevels.saveClaimPeriods': ADMIN,

  // --- Admin: users, audit, reports, mail --------------------------------------------------------------
  'users.list': { group: 'admin', given: { q: fc.oneof(searchText, validEmail) } },
  'users.resendVerification': { group: 'admin', background: ['email_tokens'] },
  'users.disable': ADMIN,
  'users.signOut': ADMIN,
  'users.enable': ADMIN,
  // Another account's roles only: the fuzz admin giving up its own admin role would shut every later operation.
  'users.setRoles': { group: 'admin', given: { userId: uuidOr('victim') } },
  'users.setRoleOptions': ADMIN,
  'users.invitations': ADMIN,
  // No identity provider in the fuzz's app: every valid invitation is the handler's 409.
  'users.invite': ADMIN,
  'account.keyboard': ADMIN,
  'account.setKeyboard': ADMIN,
  // Neither pool asked to be deleted: every answer is a refusal (409, or 403 for oneself) that changes nothing.
  'privacy.eraseNow': ADMIN,
  'audit.list': {
    group: 'admin',
    given: {
      before: idOr('auditId', [1, 1]),
      targetId: fc.oneof(ref('company'), text(1, 100)),
      actor: fc.oneof(validEmail, searchText),
    },
  },
  'reports.report': ADMIN,
  'reports.tickets': { group: 'admin', given: { admin: uuidOr('self'), agent: uuidOr('self') } },
  'reports.csv': ADMIN,
  'reports.claimsCsv': ADMIN,
  'notifications.listMail': { group: 'admin', given: { q: fc.oneof(searchText, validEmail) } },
  'notifications.retryMail': ADMIN,
  // Reply by email: the Incoming view (decision 105).
  'inbound.list': ADMIN,
  'inbound.read': ADMIN,
  'inbound.file': ADMIN,
  'inbound.post': ADMIN,
  'inbound.discard': ADMIN,

  // --- Side conversations (docs/decisions/138-side-conversations.md) -------------------------------
  'side.list': SUPPORT,
  // A counterpart that is an address, so the inputs reach the handler (the schema only says string).
  'side.start': { group: 'support', given: { to: validEmail } },
  'side.reply': SUPPORT,
  'side.close': SUPPORT,
  'side.wholeMail': SUPPORT,

  // --- Admins' second factor (docs/product.md §2.15) ------------------------------------------------
  'secondFactor.status': ADMIN,
  'secondFactor.beginTotp': ADMIN,
  'secondFactor.confirmTotp': { group: 'admin', given: { code: fc.stringMatching(/^\d{6}$/) } },
  'secondFactor.passkeyRegistrationOptions': ADMIN,
  'secondFactor.registerPasskey': ADMIN,
  'secondFactor.removeFactor': ADMIN,
  'secondFactor.renewRecoveryCodes': ADMIN,
};

/** Who reaches the handler of an endpoint of each access policy, unless its entry says. */
const CALLER = { public: 'anonymous', user: 'user', verified: 'user', key: 'key' } as const;
/** Who calls a declaration in the fuzz: the admin (every permission) for a staff endpoint. */
const callerOf = (access: AccessPolicy) => (isPermission(access) ? 'admin' : CALLER[access]);

/** The successes a declaration answers: its declared answers, a stream, or a download. */
function okOf(declaration: EndpointDeclaration, entry: FuzzEntry): OkSpec[] {
  if (entry.ok) return entry.ok;
  if (declaration.stream) return [{ status: 200, kind: 'stream' }];
  if (entry.kind) return [{ status: 200, kind: entry.kind }];
  return Object.entries(declaration.answers).map(([status, schema]): OkSpec =>
    // A text answer (the CSV) is checked by type; a JSON one by its schema.
    schema instanceof z.ZodString ? { status: Number(status), kind: 'text' } : { status: Number(status), schema },
  );
}

/** A declaration's fuzz operation: method, path, inputs and successes from the declaration, the rest from its entry. */
function operationOf(name: EndpointKey, declaration: EndpointDeclaration): FuzzOperation {
  const entry = FUZZ[name];
  const given = { ...WORLD, ...entry.given };
  const json = declaration.multipart !== 'only' ? declaration.body : undefined;
  const op: FuzzOperation = {
    methods: [declaration.method],
    url: declaration.path,
    group: entry.group,
    principals: entry.principals ?? [callerOf(declaration.access)],
    ...(declaration.params ? { params: fieldsOf(declaration.params, given) } : {}),
    ...(declaration.query ? { query: queryOf(declaration.query, given) } : {}),
    ...(json ? { body: entry.body ?? arbitraryOf(json, given), fields: fieldRulesOf(json) } : {}),
    ...(entry.headers ? { headers: entry.headers } : {}),
    ...(entry.requests ? { requests: entry.requests } : {}),
    ...(declaration.params || declaration.query || declaration.body || declaration.multipart
      ? {}
      : { noInput: 'the declaration reads no input' }),
    ok: okOf(declaration, entry),
    ...(declaration.stream ? { stream: true } : {}),
    ...(entry.background ? { background: entry.background } : {}),
    ...(entry.afterOk ? { afterOk: entry.afterOk } : {}),
  };
  return entry.form ? withFiles(op, messageForm(op.params ?? {}, entry.form)) : op;
}

/** Declarations without an entry in FUZZ, and entries that name no declaration. */
export function fuzzTableProblems(): string[] {
  const names = new Set<string>(namedEndpoints().map(([name]) => name));
  return [
    ...[...names].filter((name) => !(name in FUZZ)).map((name) => `${name} has no entry in FUZZ`),
    ...Object.keys(FUZZ)
      .filter((name) => !names.has(name))
      .map((name) => `FUZZ.${name} is no declaration`),
  ];
}

/** The routes that are not API declarations, written out by hand. */
const PAGES: FuzzOperation[] = [
  {
    methods: ['GET'],
    url: '/healthz',
    group: 'public',
    principals: ['anonymous'],
    noInput: 'liveness probe',
    ok: [{ status: 200, schema: z.object({ status: z.literal('ok') }) }],
  },
  {
    methods: ['GET'],
    url: '/readyz',
    group: 'public',
    principals: ['anonymous'],
    noInput: 'readiness probe',
    ok: [{ status: 200, schema: z.object({ status: z.literal('ready') }) }],
  },
  {
    methods: ['GET'],
    url: '/api/openapi.json',
    group: 'public',
    principals: ['anonymous'],
    noInput: 'the API description',
    ok: [{ status: 200, schema: z.object({ openapi: z.literal('3.1.0'), paths: z.record(z.string(), z.unknown()) }) }],
  },
  {
    methods: ['GET'],
    url: '/robots.txt',
    group: 'public',
    principals: ['anonymous'],
    noInput: 'static text',
    ok: [{ status: 200, kind: 'text' }],
  },
  {
    methods: ['GET'],
    url: '/sitemap.xml',
    group: 'public',
    principals: ['anonymous'],
    noInput: 'static text',
    ok: [{ status: 200, kind: 'text' }],
  },
  {
    methods: ['GET'],
    url: '/documents/:slug',
    group: 'public',
    principals: ['anonymous'],
    params: { slug: fc.constantFrom(...LEGAL_DOCUMENTS) },
    ok: [{ status: 200, kind: 'html' }],
  },
  {
    methods: ['GET', 'DELETE', 'OPTIONS', 'PATCH', 'PUT', 'POST', 'TRACE', 'QUERY'],
    url: '/api/*',
    group: 'public',
    principals: ['anonymous'],
    params: {
      '*': fc.oneof(
        fc.constantFrom('nothing', 'auth/../admin/users', 'admin', '.env', '%2e%2e/'),
        hostileString.map((s) => s.slice(0, 150)),
      ),
    },
    ok: [],
  },
];

export const FUZZ_OPERATIONS: FuzzOperation[] = [
  ...namedEndpoints().flatMap(([name, declaration]) => (name in FUZZ ? [operationOf(name, declaration)] : [])),
  ...PAGES,
];

export const operationsOf = (group: FuzzOperation['group']) =>
  FUZZ_OPERATIONS.filter((op) => op.group === group).filter(
    (op) => !process.env.FUZZ_ONLY || `${op.methods.join(',')} ${op.url}` === process.env.FUZZ_ONLY,
  );
