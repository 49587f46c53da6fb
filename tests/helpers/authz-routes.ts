/**
 * What each route of the live route table must answer in the authorization matrix
 * (tests/security/authz/matrix.test.ts): its guard (ROUTES), a real object for every path
 * parameter (PARAMS) and a valid body for every mutating route (BODIES), so that a refusal comes
 * from authorization, not validation. A new route, a new path parameter or a new mutating route
 * fails the matrix until it is given an entry here.
 */
import { eq, sql } from 'drizzle-orm';
import { queryRows } from '../../src/server/db/sql.ts';
import { DEFAULT_CALENDAR, DEFAULT_TARGETS } from '../../src/contracts/service-levels.ts';
import { companies, companyStatusLinks, faqs, supportTickets, users } from '../../src/server/db/schema.ts';
import { createAccountsRepository } from '../../src/server/modules/accounts/accounts.repository.ts';
import { createAccountSessionsRepository } from '../../src/server/modules/accounts/accounts.sessions.repository.ts';
import { createToken, hashToken } from '../../src/server/security/tokens.ts';
import { encodeForm, pngOf, validCompany } from './registration.ts';
import { strongPassword, uniqueEmail } from './accounts.ts';
import { generateSecret } from 'otplib';
import { createSecondFactorRepository } from '../../src/server/modules/second-factor/second-factor.repository.ts';
import { totpAt } from './second-factor.ts';
import { softwareAuthenticator } from './software-authenticator.ts';
import { type Actor, db, type Fixtures, type PrincipalName, publicBaseUrl, SAVED_REPLY_ID } from './authz-world.ts';

// --- What each route must answer -----------------------------------------------------------------

/**
 * `owner`: a verified user's route about one of their own objects (another user gets 404, like a
 * missing object). `owner-or-admin`: the same, but admins may use it too (the live ticket stream).
 */
type Guard = 'public' | 'user' | 'verified' | 'owner' | 'owner-or-admin' | 'admin';
export const DECLARED: Record<Guard, string> = {
  public: 'public',
  user: 'user',
  verified: 'verified',
  owner: 'verified',
  'owner-or-admin': 'verified',
  admin: 'admin',
};

export interface RouteSpec {
  guard: Guard;
  /** The status every allowed principal gets (200 unless given). */
  ok?: number;
  /** A Server-Sent Events stream: fired over a real connection, not `inject`. */
  stream?: boolean;
  /** A query string the route needs to be valid. */
  query?: string;
  /** Sends mail in the background when allowed: refused cells after it wait for the outbox to settle. */
  mails?: boolean;
  /** Puts the fixtures in the state where the allowed call succeeds (after the common reset). */
  prepare?: (fx: Fixtures) => Promise<void>;
}

const R = (guard: Guard, extra: Omit<RouteSpec, 'guard'> = {}): RouteSpec => ({ guard, ...extra });

/** The fixture company's status link token (the matrix sets its hash on the company). */
const STATUS_TOKEN = 'MatrixStatusToken_0123456789abcdefghijklmno';

/** An application of its own whose status link token is STATUS_TOKEN. */
const statusLinkCompany = async () => {
  const [company] = await db()
    .insert(companies)
    .values({
      companyName: 'Status Link Matrix Ltd',
      address: '1 Matrix Street, Wellington',
      phoneNumber: '041234567',
      nameKey: 'status link matrix ltd',
      phoneKey: '041234567',
    })
    .onConflictDoNothing()
    .returning({ id: companies.id });
  if (company)
    await db()
      .insert(companyStatusLinks)
      .values({ tokenHash: hashToken(STATUS_TOKEN), companyId: company.id });
};

/** The status link's application waits for a new licence (docs/decisions/113-changes-requested.md). */
const changesWaiting = async () => {
  await statusLinkCompany();
  await db()
    .update(companies)
    .set({
      verified: 0,
      isBanned: false,
      reviewStage: 'changes_requested',
      requestedChanges: { reasons: ['missing-document'], fields: ['license'], note: null },
    })
    .where(eq(companies.nameKey, 'status link matrix ltd'));
};

const setCompany = (values: Partial<typeof companies.$inferInsert>) => async (f: Fixtures) => {
  await db().update(companies).set(values).where(eq(companies.id, f.companyId));
};

/** An approved company with a new licence waiting for an admin (no file behind the key). */
const renewalWaiting = setCompany({
  verified: 1,
  renewalLicenseKey: 'commercialLicenses/matrix-renewal.png',
  renewalSentAt: new Date(),
});

async function issueEmailToken(userId: string, purpose: 'verify-email' | 'reset-password'): Promise<string> {
  const token = createToken();
  await createAccountsRepository(db()).replaceEmailToken({
    userId,
    purpose,
    tokenHash: hashToken(token),
    ttlMs: 3600_000,
  });
  return token;
}

/** An email-change link of an account made for it (the change moves that account, nobody else's). */
let emailChangeToken = '';
async function issueEmailChangeToken(): Promise<string> {
  const user = await createAccountsRepository(db()).insertUser({
    email: uniqueEmail('matrix-mover'),
    passwordHash: 'not-a-hash',
    role: 'user',
    verified: true,
  });
  const token = createToken();
  await createAccountSessionsRepository(db()).replaceChangeEmailToken({
    userId: user!.id,
    tokenHash: hashToken(token),
    newEmail: uniqueEmail('matrix-moved'),
    ttlMs: 3600_000,
  });
  return token;
}

/** The admin actor's authenticator app waiting for its first code, and a passkey challenge. */
const MATRIX_TOTP_SECRET = generateSecret();
const enrolment = { factorId: '', challenge: '', origin: '' };

async function pendingTotp(f: Fixtures) {
  const row = await createSecondFactorRepository(db()).insertPendingTotp({
    userId: f.actors.admin.userId!,
    secret: MATRIX_TOTP_SECRET,
    label: 'Matrix',
  });
  enrolment.factorId = row.id;
}

async function passkeyChallenge(f: Fixtures) {
  enrolment.challenge = createToken();
  enrolment.origin = new URL(publicBaseUrl()).origin;
  await createSecondFactorRepository(db()).saveChallenge({
    userId: f.actors.admin.userId!,
    purpose: 'passkey-register',
    challenge: enrolment.challenge,
    challengeHash: hashToken(enrolment.challenge),
    ttlMs: 60_000,
  });
}

/** A spare passkey of the admin actor, for the removal cell (the last factor cannot be removed). */
const spare = { factorId: '' };
async function spareFactor(f: Fixtures) {
  const repo = createSecondFactorRepository(db());
  await repo.insertPasskey({
    userId: f.actors.admin.userId!,
    label: 'Matrix spare',
    credentialId: createToken(),
    publicKey: 'not-a-key',
    signCount: 0,
    transports: [],
  });
  const spareRow = (await repo.confirmedFactors(f.actors.admin.userId!)).find((row) => row.label === 'Matrix spare');
  spare.factorId = spareRow!.id;
}

const CATCH_ALL_METHODS = ['GET', 'TRACE', 'DELETE', 'OPTIONS', 'PATCH', 'PUT', 'POST', 'QUERY'];

/** One entry per method × url of the route table. A route missing here fails the test. */
export const ROUTES: Record<string, RouteSpec> = {
  'GET /healthz': R('public'),
  'GET /readyz': R('public'),
  'GET /api/openapi.json': R('public'),
  'GET /api/faqs': R('public', { query: '?type=general' }),
  'GET /api/legal/links': R('public'),
  'GET /documents/:slug': R('public'),
  'GET /robots.txt': R('public'),
  'GET /sitemap.xml': R('public'),
  // The /api/* catch-all answers 404 to everyone, whatever the method.
  ...Object.fromEntries(CATCH_ALL_METHODS.map((m) => [`${m} /api/*`, R('public', { ok: 404 })])),

  'POST /api/companies': R('public', { ok: 201 }),
  // The applicant's status link (docs/decisions/112-application-status-page.md): anyone holding it.
  // Its own application (no contact email), so what the link shows is not the fixture applicant's.
  'GET /api/partners/status/:token': R('public', { prepare: statusLinkCompany }),
  // A new link to the applications of a contact address; the same answer whoever asks.
  'POST /api/partners/status-link': R('public', { ok: 202, mails: true }),
  // Anyone holding the link sends what was asked for (docs/decisions/113-changes-requested.md).
  'POST /api/partners/status/:token/changes': R('public', { prepare: changesWaiting }),
  'GET /api/admin/companies/:companyId/license': R('admin'),

  'POST /api/auth/login': R('public'),
  // The matrix's login user has no passkey: after the right password, a field error for everyone.
  'POST /api/auth/passkey/options': R('public', { ok: 400 }),
  // Admins' second factor (docs/product.md §2.15): the admin actor passed it; everyone else is refused.
  'GET /api/admin/second-factor': R('admin'),
  'POST /api/admin/second-factor/totp': R('admin'),
  'POST /api/admin/second-factor/totp/confirm': R('admin', { prepare: pendingTotp }),
  'POST /api/admin/second-factor/passkey/options': R('admin'),
  'POST /api/admin/second-factor/passkey': R('admin', { prepare: passkeyChallenge }),
  'DELETE /api/admin/second-factor/:factorId': R('admin', { prepare: spareFactor }),
  'POST /api/admin/second-factor/recovery-codes': R('admin'),
  'POST /api/auth/logout': R('public'),
  'GET /api/auth/session': R('user'),
  'POST /api/auth/signup': R('public', { ok: 202, mails: true }),
  'POST /api/auth/verify-email': R('public', {
    prepare: async (f) => {
      await db().update(users).set({ emailVerifiedAt: null }).where(eq(users.id, f.verifyUser.id));
      f.verifyToken = await issueEmailToken(f.verifyUser.id, 'verify-email');
    },
  }),
  'POST /api/auth/resend-verification': R('public', { ok: 202, mails: true }),
  'POST /api/auth/forgot-password': R('public', { ok: 202, mails: true }),
  'POST /api/auth/reset-password': R('public', {
    mails: true,
    prepare: async (f) => {
      f.resetToken = await issueEmailToken(f.resetUser.id, 'reset-password');
    },
  }),
  'POST /api/auth/change-password': R('user', { mails: true }),

  'POST /api/functions/createSupportTicket': R('verified'),
  'GET /api/support/tickets': R('verified'),
  'GET /api/support/tickets/stream': R('verified', { stream: true }),
  'GET /api/support/tickets/:ticketId': R('owner'),
  'GET /api/support/tickets/:ticketId/messages': R('owner'),
  'GET /api/support/tickets/:ticketId/messages/stream': R('owner-or-admin', { stream: true }),
  'POST /api/support/tickets/:ticketId/messages': R('owner'),
  'POST /api/support/tickets': R('verified', { ok: 201 }),
  // Files on messages (docs/product.md §2.11): the ticket's owner and admins only.
  'GET /api/support/tickets/:ticketId/attachments/:attachmentId': R('owner-or-admin'),
  'GET /api/support/tickets/:ticketId/attachments/:attachmentId/thumbnail': R('owner-or-admin'),

  'GET /api/admin/support/tickets': R('admin'),
  'GET /api/admin/support/tickets/stream': R('admin', { stream: true }),
  'GET /api/admin/support/tickets/:ticketId': R('admin'),
  'POST /api/admin/support/tickets/:ticketId/messages': R('admin'),
  'POST /api/admin/support/tickets/:ticketId/close': R('admin'),
  'POST /api/admin/support/tickets/:ticketId/reopen': R('admin', {
    prepare: async (f) => {
      await db().update(supportTickets).set({ open: false }).where(eq(supportTickets.id, f.ownerTicket.ticketId));
    },
  }),

  // The desk's tools (docs/product.md §2.10).
  'POST /api/support/tickets/:ticketId/rating': R('owner', {
    prepare: async (f) => {
      await db().update(supportTickets).set({ open: false }).where(eq(supportTickets.id, f.ownerTicket.ticketId));
    },
  }),
  'POST /api/admin/support/tickets/:ticketId/notes': R('admin'),
  'POST /api/admin/support/tickets/:ticketId/assign': R('admin'),
  'POST /api/admin/support/tickets/:ticketId/privacy': R('admin'),
  'GET /api/admin/support/agents': R('admin'),
  'GET /api/admin/support/figures': R('admin'),
  'GET /api/admin/support/search': R('admin', { query: '?q=parcel' }),
  'GET /api/admin/support/saved-replies': R('admin'),
  'POST /api/admin/support/saved-replies': R('admin'),
  'PUT /api/admin/support/saved-replies/:savedReplyId': R('admin'),
  'DELETE /api/admin/support/saved-replies/:savedReplyId': R('admin'),

  'GET /api/admin/companies': R('admin'),
  'GET /api/admin/companies/:companyId': R('admin'),
  'POST /api/admin/companies/:companyId/approve': R('admin'),
  'POST /api/admin/companies/:companyId/reject': R('admin'),
  'POST /api/admin/companies/:companyId/notify': R('admin', { prepare: setCompany({ verified: 1 }) }),
  'POST /api/admin/companies/:companyId/ban': R('admin'),
  'POST /api/admin/companies/:companyId/request-changes': R('admin', {
    mails: true,
    prepare: setCompany({ verified: 0, isBanned: false, reviewStage: 'received', requestedChanges: null }),
  }),
  'POST /api/admin/companies/:companyId/unban': R('admin', { prepare: setCompany({ isBanned: true }) }),
  // A new licence waiting (docs/decisions/115-licence-expiry.md); the download finds no file behind
  // the key, so an admin's answer is the handler's 404.
  'GET /api/admin/companies/:companyId/renewal-license': R('admin', { ok: 404, prepare: renewalWaiting }),
  'POST /api/admin/companies/:companyId/renewal-license/accept': R('admin', { prepare: renewalWaiting }),
  'POST /api/admin/companies/:companyId/renewal-license/refuse': R('admin', { prepare: renewalWaiting }),

  'GET /api/admin/faqs': R('admin', { query: '?type=general' }),
  'POST /api/admin/faqs': R('admin', { ok: 201 }),
  'PUT /api/admin/faqs/:faqId': R('admin'),
  'DELETE /api/admin/faqs/:faqId': R('admin'),
  'POST /api/admin/faqs/reorder': R('admin'),
  'GET /api/admin/legal': R('admin'),
  'PUT /api/admin/settings/legal-links': R('admin'),
  'PUT /api/admin/documents/:slug': R('admin'),

  'GET /api/admin/users': R('admin'),
  // The target (the owner) is verified already: 409 means the admin got past the access check.
  'POST /api/admin/users/:userId/resend-verification': R('admin', { ok: 409 }),
  'POST /api/admin/users/:userId/disable': R('admin'),
  'POST /api/admin/users/:userId/enable': R('admin'),
  'POST /api/admin/users/:userId/role': R('admin'),
  'GET /api/admin/audit': R('admin'),
  'GET /api/admin/reports': R('admin'),
  'GET /api/admin/reports/tickets': R('admin'),
  'GET /api/admin/reports/tickets.csv': R('admin'),
  'GET /api/admin/service-levels': R('admin'),
  'PUT /api/admin/service-levels/calendar': R('admin'),
  'PUT /api/admin/service-levels/targets': R('admin'),

  'GET /api/account/notifications': R('user'),
  'GET /api/account/export': R('user'),
  // The account page (docs/product.md §2.13). A session id that is nobody's: 404 means the caller got past the access check.
  'GET /api/account': R('user'),
  'GET /api/account/sessions': R('user'),
  'DELETE /api/account/sessions/:sessionId': R('user', { ok: 404 }),
  'POST /api/account/sessions/revoke-others': R('user'),
  'POST /api/account/email': R('user', { ok: 202, mails: true }),
  'POST /api/auth/confirm-email-change': R('public', {
    mails: true,
    prepare: async () => {
      emailChangeToken = await issueEmailChangeToken();
    },
  }),
  // A wrong password: 400 means the caller got past the access check (a right one would delete the account).
  'GET /api/account/delete': R('user'),
  'POST /api/account/delete': R('user', { ok: 400 }),
  // The owner did not ask to be deleted: 409 means the admin got past the access check.
  'POST /api/admin/users/:userId/erase': R('admin', { ok: 409 }),
  'POST /api/admin/support/tickets/:ticketId/keep-for-record': R('admin'),
  'GET /api/admin/support/tickets/:ticketId/merge-targets': R('admin'),
  // Merged into itself: an admin gets the handler's refusal (400), everyone else the access check's
  // answer; the fixture ticket stays whole for the other routes.
  'POST /api/admin/support/tickets/:ticketId/merge': R('admin', { ok: 400 }),
  'GET /api/admin/support/tickets/:ticketId/merges': R('admin'),
  // From the ticket's first message: an admin gets the handler's refusal (400); nothing moves.
  'POST /api/admin/support/tickets/:ticketId/split': R('admin', { ok: 400 }),
  // No merge to undo: an admin gets the handler's 404, everyone else the access check's answer.
  'POST /api/admin/support/merges/:mergeId/undo': R('admin', { ok: 404 }),
  'PUT /api/account/notifications': R('user'),
  'GET /api/admin/mail': R('admin'),
  // Reply by email (decision 105). The fixture mail was ignored, not held: 409 means the admin got past the access check.
  'GET /api/admin/mail/incoming': R('admin'),
  'POST /api/admin/mail/incoming/:inboundId/post': R('admin', { ok: 409 }),
  'POST /api/admin/mail/incoming/:inboundId/discard': R('admin', { ok: 409 }),
  'GET /api/support/tickets/:ticketId/messages/:messageId/mail': R('owner-or-admin'),
  'POST /api/admin/mail/:mailId/retry': R('admin', {
    prepare: async (f) => {
      await db().execute(sql`update mail_outbox set state = 'failed' where id = ${f.mailId}`);
    },
  }),
};

/**
 * Path parameters: a real object of the owner wherever there is one. `userId` is the owner's own
 * account, so the owner's cells also try to make themselves admin (403). An unknown parameter fails.
 */
export const PARAMS: Record<string, (f: Fixtures) => string> = {
  ticketId: (f) => f.ownerTicket.ticketId,
  companyId: (f) => f.companyId,
  faqId: (f) => String(f.faqId),
  slug: () => 'terms',
  token: () => STATUS_TOKEN,
  userId: (f) => f.actors.owner.userId!,
  mailId: (f) => String(f.mailId),
  inboundId: (f) => String(f.inboundId),
  messageId: (f) => String(f.mailMessageId),
  savedReplyId: () => SAVED_REPLY_ID,
  mergeId: () => '999999999',
  attachmentId: (f) => f.attachmentId,
  sessionId: () => 'NobodysSessionId000000',
  factorId: () => spare.factorId || '00000000-0000-4000-8000-000000000000',
  '*': () => 'no-such-endpoint',
};

// --- Valid bodies ----------------------------------------------------------------------------------

interface CellRequest {
  headers?: Record<string, string>;
  payload?: string | Buffer;
  /** Called with the response (e.g. to remember a changed password). */
  after?: (status: number) => void;
}
type BodyFor = (actor: Actor, f: Fixtures) => CellRequest | Promise<CellRequest>;

const json =
  (value: unknown | ((actor: Actor, f: Fixtures) => unknown)): BodyFor =>
  (actor, f) => ({
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(
      typeof value === 'function' ? (value as (a: Actor, f: Fixtures) => unknown)(actor, f) : value,
    ),
  });
const NO_BODY: BodyFor = () => ({});

export const MUTATING = (method: string) => !['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(method);

/** A valid body for every mutating route, so a refusal comes from authorization, not validation. */
export const BODIES: Record<string, BodyFor> = {
  ...Object.fromEntries(CATCH_ALL_METHODS.filter(MUTATING).map((m) => [`${m} /api/*`, json({})])),
  'POST /api/partners/status/:token/changes': async () => {
    const { payload, headers } = await encodeForm({}, { bytes: pngOf(512), name: 'licence.png', type: 'image/png' });
    return { payload, headers };
  },
  'POST /api/admin/companies/:companyId/request-changes': json({ reasons: ['license-unreadable'] }),
  'POST /api/partners/status-link': json((_a: Actor, f: Fixtures) => ({ email: f.companyEmail })),
  'POST /api/companies': async () => {
    const { payload, headers } = await encodeForm(validCompany());
    return { payload, headers };
  },
  'POST /api/auth/login': json((_a: Actor, f: Fixtures) => ({
    email: f.loginUser.email,
    password: f.loginUser.password,
  })),
  'POST /api/auth/logout': NO_BODY,
  'POST /api/auth/passkey/options': json((_a: Actor, f: Fixtures) => ({
    email: f.loginUser.email,
    password: f.loginUser.password,
  })),
  'POST /api/admin/second-factor/totp': NO_BODY,
  'POST /api/admin/second-factor/totp/confirm': async (actor, f) =>
    json({ factorId: enrolment.factorId, code: await totpAt(MATRIX_TOTP_SECRET) })(actor, f),
  'POST /api/admin/second-factor/passkey/options': NO_BODY,
  'DELETE /api/admin/second-factor/:factorId': NO_BODY,
  'POST /api/admin/second-factor/recovery-codes': NO_BODY,
  'POST /api/admin/second-factor/passkey': (actor, f) =>
    json({ response: softwareAuthenticator().register({ challenge: enrolment.challenge, rp: {} }, enrolment.origin) })(
      actor,
      f,
    ),
  'POST /api/auth/signup': json(() => ({ email: uniqueEmail('matrix-signup'), password: strongPassword() })),
  'POST /api/auth/verify-email': json((_a: Actor, f: Fixtures) => ({ token: f.verifyToken })),
  'POST /api/auth/resend-verification': json((_a: Actor, f: Fixtures) => ({ email: f.verifyUser.email })),
  'POST /api/auth/forgot-password': json((_a: Actor, f: Fixtures) => ({ email: f.resetUser.email })),
  'POST /api/auth/reset-password': json((_a: Actor, f: Fixtures) => ({
    token: f.resetToken,
    password: strongPassword(),
  })),
  'POST /api/auth/change-password': (actor) => {
    const newPassword = strongPassword();
    return {
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ currentPassword: actor.password ?? 'not-signed-in-at-all', newPassword }),
      after: (status) => {
        if (status === 200) actor.password = newPassword;
      },
    };
  },
  'POST /api/functions/createSupportTicket': json({
    data: { reason: 'General', message: 'Matrix: where is my parcel?' },
  }),
  'POST /api/support/tickets/:ticketId/messages': json({ messageBody: 'Matrix: a reply from the user' }),
  'POST /api/support/tickets': json({ reason: 'General', message: 'Matrix: a ticket opened by REST' }),
  'POST /api/admin/support/tickets/:ticketId/messages': json({ messageBody: 'Matrix: an answer from the team' }),
  'POST /api/admin/support/tickets/:ticketId/close': NO_BODY,
  'POST /api/admin/support/tickets/:ticketId/reopen': NO_BODY,
  'POST /api/support/tickets/:ticketId/rating': json({ good: true, comment: 'Matrix: fine' }),
  'POST /api/admin/support/tickets/:ticketId/notes': json({ messageBody: 'Matrix: a note for the team' }),
  'POST /api/admin/support/tickets/:ticketId/assign': json({ assignee: 'me' }),
  'POST /api/admin/support/tickets/:ticketId/privacy': json({ privacy: true }),
  'POST /api/admin/support/tickets/:ticketId/keep-for-record': json({ keep: true }),
  'POST /api/admin/support/merges/:mergeId/undo': NO_BODY,
  'POST /api/admin/support/tickets/:ticketId/split': async (actor, f) => {
    const [first] = await queryRows<{ id: number }>(
      db(),
      sql`select min(id)::int as id from ticket_messages where ticket_id = ${f.ownerTicket.ticketId}::uuid`,
    );
    return json({ messageId: first!.id, reason: 'General' })(actor, f);
  },
  'POST /api/admin/support/tickets/:ticketId/merge': json((_a: Actor, f: Fixtures) => ({
    targetTicketId: f.ownerTicket.ticketId,
  })),
  'POST /api/account/delete': json({ password: 'Matrix-not-the-password-1' }),
  'POST /api/admin/users/:userId/erase': NO_BODY,
  'POST /api/admin/support/saved-replies': json(() => ({
    title: `Matrix saved reply ${createToken().slice(0, 8)}`,
    body: 'Hello {{user.email}}',
  })),
  'PUT /api/admin/support/saved-replies/:savedReplyId': json({ title: 'Matrix saved reply', body: 'Edited text' }),
  'DELETE /api/admin/support/saved-replies/:savedReplyId': NO_BODY,
  'POST /api/admin/companies/:companyId/approve': NO_BODY,
  'POST /api/admin/companies/:companyId/reject': json({ reason: 'Licence unreadable' }),
  'POST /api/admin/companies/:companyId/notify': NO_BODY,
  'POST /api/admin/companies/:companyId/ban': NO_BODY,
  'POST /api/admin/companies/:companyId/unban': NO_BODY,
  'POST /api/admin/companies/:companyId/renewal-license/accept': json({ licenseExpiresOn: '2099-12-31' }),
  'POST /api/admin/companies/:companyId/renewal-license/refuse': json({ reason: 'Matrix: unreadable' }),
  'POST /api/admin/faqs': json({ type: 'general', title: 'Matrix question', content: 'Matrix answer' }),
  'PUT /api/admin/faqs/:faqId': json({
    type: 'sender',
    title: 'Matrix question (edited)',
    content: 'Matrix answer (edited)',
  }),
  'DELETE /api/admin/faqs/:faqId': NO_BODY,
  // Exactly the current entries of the type, in their current order (anything else is a 409).
  'POST /api/admin/faqs/reorder': async (_actor, f) => {
    const rows = await db()
      .select({ id: faqs.id })
      .from(faqs)
      .where(eq(faqs.type, 'traveller'))
      .orderBy(faqs.position, faqs.id);
    return json({ type: 'traveller', ids: rows.map((r) => r.id).reverse() })({ name: 'anonymous' }, f);
  },
  'PUT /api/admin/settings/legal-links': json({ terms: '/documents/terms', privacy: '/documents/privacy' }),
  'PUT /api/admin/service-levels/calendar': json(DEFAULT_CALENDAR),
  'PUT /api/admin/service-levels/targets': json(DEFAULT_TARGETS),
  'PUT /api/admin/documents/:slug': json({
    title: 'Terms and Conditions',
    body: 'Matrix text.\n\n## Heading\n\nMore text.',
  }),
  'POST /api/admin/users/:userId/resend-verification': NO_BODY,
  'POST /api/admin/users/:userId/disable': NO_BODY,
  'POST /api/admin/users/:userId/enable': NO_BODY,
  'POST /api/admin/users/:userId/role': json({ role: 'admin' }),
  'PUT /api/account/notifications': json({ ticketClosed: false }),
  'DELETE /api/account/sessions/:sessionId': NO_BODY,
  'POST /api/account/sessions/revoke-others': json({}),
  'POST /api/account/email': (actor) => ({
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({
      newEmail: uniqueEmail('matrix-new-address'),
      currentPassword: actor.password ?? 'not-signed-in-at-all',
    }),
  }),
  'POST /api/auth/confirm-email-change': json(() => ({ token: emailChangeToken })),
  'POST /api/admin/mail/:mailId/retry': NO_BODY,
  'POST /api/admin/mail/incoming/:inboundId/post': NO_BODY,
  'POST /api/admin/mail/incoming/:inboundId/discard': NO_BODY,
};

// --- Expected outcome of one cell ----------------------------------------------------------------

type Outcome = { allow: true; status: number } | { allow: false; status: 401 | 403 | 404 };

export function expectedOutcome(spec: RouteSpec, who: PrincipalName): Outcome {
  const allow: Outcome = { allow: true, status: spec.ok ?? 200 };
  const { guard } = spec;
  if (guard === 'public') return allow;
  // No session (none sent, expired, or its user disabled): 401 before anything else.
  if (who === 'anonymous' || who === 'disabled' || who === 'expired') return { allow: false, status: 401 };
  if (who === 'unverified') return guard === 'user' ? allow : { allow: false, status: 403 };
  if (guard === 'admin') return who === 'admin' ? allow : { allow: false, status: 403 };
  if (guard === 'owner') return who === 'owner' ? allow : { allow: false, status: 404 };
  if (guard === 'owner-or-admin') return who === 'owner' || who === 'admin' ? allow : { allow: false, status: 404 };
  return allow; // user / verified: any signed-in (verified) user
}

export function concreteUrl(url: string, f: Fixtures): string {
  return url.replace(/:(\w+)|\*/g, (match, name: string | undefined) => {
    const key = name ?? match;
    const value = PARAMS[key];
    if (!value) throw new Error(`authz matrix: no fixture for the path parameter ${key} of ${url}; add it to PARAMS`);
    return encodeURIComponent(value(f));
  });
}
